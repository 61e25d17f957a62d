// Bulk import: POST /v1/import/profiles, GET /v1/import/jobs/:jobId and cancel. The shape, idempotency,
// forbidden metadata, every cap and tier limit exactly (racing requests included), the workers'
// chunks, per-user errors and cancelling.
import { beforeEach, describe, expect, it } from "vitest";
import { POST as cancelJob } from "@/app/v1/import/jobs/[jobId]/cancel/route";
import { GET as getJob } from "@/app/v1/import/jobs/[jobId]/route";
import { POST as submit } from "@/app/v1/import/profiles/route";
import { GET as profile } from "@/app/v1/profile/route";
import { flushAccessLog } from "@/lib/access-log/access-log";
import { createAgent } from "@/lib/agents/agents";
import { db } from "@/lib/platform/db";
import type { ImportTier } from "@/lib/platform/db/generated/enums";
import { IMPORT_CAPS, IMPORT_MESSAGES, IMPORT_TIER_LIMITS } from "@/lib/import-jobs/limits";
import { CONCURRENT_JOB_RETRY_AFTER_SECONDS } from "@/lib/import-jobs/submit";
import { JOB_FAILED_MESSAGE } from "@/lib/import-jobs/endings";
import { handleImportJob, runImportJob } from "@/lib/import-jobs/worker";
import { recompose } from "@/lib/profile/recompose";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let t: Tenant;
beforeEach(async () => {
  t = await createTenant();
});

const headers = (extra: Record<string, string> = {}) => ({ "x-api-key": t.keys.sk, "x-agent": t.agent.handle, ...extra });

async function setTier(tier: ImportTier) {
  await (await db()).developer.update({ where: { id: t.developer.id }, data: { importTier: tier } });
}

const conversation = (id: string, n = 4) => ({
  id,
  messages: Array.from({ length: n }, (_, i) =>
    i === 0
      ? { role: "user", content: "I'm a nurse and I live in Leeds. I love hiking with my dog named Biscuit." }
      : i === 1
        ? { role: "assistant", content: "You live in Paris, right?" }
        : { role: i % 2 ? "assistant" : "user", content: `Message ${i} about this week's plans.` },
  ),
});

const user = (externalId: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  profile: { summary: "Works as a carpenter.", preferences: ["Prefers short answers"] },
  conversations: [conversation("c1")],
  ...extra,
});

const body = (users: unknown[], idempotencyKey = `key-${Math.random()}`) => ({ mode: "backfill", idempotencyKey, users });

async function tableCounts() {
  const prisma = await db();
  return {
    jobs: await prisma.importJob.count({ where: { developerId: t.developer.id } }),
    reserved: await prisma.importedProfile.count({ where: { developerId: t.developer.id } }),
  };
}

describe("POST /v1/import/profiles", () => {
  it("answers a new job with 202 and exactly the fields of the specification, then the workers import it", async () => {
    const res = await call(submit, { headers: headers(), body: body([user("ext-1"), user("ext-2", { conversations: [conversation("a", 6), conversation("b", 2)] })]) });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^imp_[A-Za-z0-9]{24}$/),
      mode: "backfill",
      status: "queued",
      accepted_profiles: 2,
      estimated_message_count: 12,
      livemode: true,
    });
    const summaryChars = "Works as a carpenter.".length + "Prefers short answers".length;
    const messageChars = (n: number) => conversation("x", n).messages.reduce((s, m) => s + m.content.length, 0);
    expect(res.body.estimated_input_chars).toBe(2 * summaryChars + messageChars(4) + messageChars(6) + messageChars(2));

    await runImportJob(res.body.id);
    const done = await call(getJob, { headers: headers(), params: { jobId: res.body.id }, path: `/v1/import/jobs/${res.body.id}` });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: "completed", progress: { profiles_imported: 2, profiles_failed: 0, profiles_pending: 0, messages_processed: 12 }, errors: [] });
    expect(done.body.progress.memories_written).toBeGreaterThanOrEqual(6);
    expect(done.body.finished_at).not.toBeNull();

    // Each externalId is now a developer-scoped user the agent reads with X-User-Id.
    const read = await call(profile, { headers: headers({ "x-user-id": "ext-1" }) });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toMatch(/Leeds/);
    expect(JSON.stringify(read.body)).not.toMatch(/Paris/);
    // Written under the agent: its source, its written_by, one import record per user; no root profile fields set.
    const prisma = await db();
    const link = await prisma.externalUserId.findFirstOrThrow({ where: { developerId: t.developer.id, externalId: "ext-1" } });
    const memories = await prisma.memory.findMany({ where: { userId: link.userId } });
    expect(new Set(memories.map((m) => m.source))).toEqual(new Set([`agents/${t.agent.handle}`]));
    expect(new Set(memories.map((m) => m.writtenBy))).toEqual(new Set([`agents/${t.agent.handle}`]));
    expect(new Set(memories.map((m) => m.agentId))).toEqual(new Set([t.agent.id]));
    const imports = await prisma.import.findMany({ where: { userId: link.userId } });
    expect(imports).toHaveLength(1);
    expect(imports[0]!.memoryCount).toBe(memories.length);
    expect(memories.every((m) => m.importId === imports[0]!.id)).toBe(true);
    expect(memories.map((m) => m.kind)).toEqual(expect.arrayContaining(["work", "location", "preference"]));
    // The composed profile written with a new user's first memories is the one recomposing them gives.
    const stored = await prisma.userProfile.findUniqueOrThrow({ where: { userId: link.userId } });
    await prisma.$transaction((tx) => recompose(tx, link.userId));
    const again = await prisma.userProfile.findUniqueOrThrow({ where: { userId: link.userId } });
    const ids = (list: unknown) => (list as Array<{ memory_id: string }>).map((e) => e.memory_id).sort();
    expect(stored.identity).toEqual(again.identity);
    expect(ids(stored.preferences)).toEqual(ids(again.preferences));
    expect(ids(stored.highlights)).toEqual(ids(again.highlights));
    expect(stored.sourceCounts).toEqual(again.sourceCounts);
    expect(stored.sourceCounts).toEqual({ [`agents/${t.agent.handle}`]: memories.length });
    expect(stored.summary).toMatch(/carpenter|nurse/);
  });

  it("answers the same idempotencyKey with 200 and the same job, and refuses another body under it", async () => {
    const first = await call(submit, { headers: headers(), body: body([user("ext-1")], "same") });
    expect(first.status).toBe(202);
    const again = await call(submit, { headers: headers(), body: body([user("ext-1")], "same") });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const other = await call(submit, { headers: headers(), body: body([user("ext-2")], "same") });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: "idempotency_key_reused", message: IMPORT_MESSAGES.idempotencyKeyReused });
    expect((await tableCounts()).jobs).toBe(1);
    // The key is the developer's and the acting agent's: another agent's same key is another job.
    await setTier("pro");
    const second = await createAgent({ developerId: t.developer.id, handle: "second", displayName: "Second" });
    const byOther = await call(submit, { headers: headers({ "x-agent": second.handle }), body: body([user("ext-1")], "same") });
    expect(byOther.status).toBe(202);
    expect(byOther.body.id).not.toBe(first.body.id);
  });

  it("replays in parallel answer one job", async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => call(submit, { headers: headers(), body: body([user("ext-1")], "parallel") })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 202]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  });

  it.each([
    ["source", { source: "imports/chatgpt" }, "users.0.source"],
    ["written_by", { written_by: "agents/other" }, "users.0.written_by"],
    ["a storage location", { path: "/profiles/ext-1.json" }, "users.0.path"],
    ["a timestamp", { created_at: "2024-01-01T00:00:00Z" }, "users.0.created_at"],
    ["a memory id", { memory_id: "mem_abcdefghijklmnopqrstuvwx" }, "users.0.memory_id"],
  ])("refuses %s in the body with 422 invalid_format naming the field, storing nothing", async (_, extra, field) => {
    const res = await call(submit, { headers: headers(), body: body([user("ext-1", extra)]) });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("invalid_format");
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await tableCounts()).toEqual({ jobs: 0, reserved: 0 });
  });

  it("refuses forbidden metadata deep inside a message, and a memory id as a value", async () => {
    const deep = user("ext-1", { conversations: [{ id: "c", messages: [{ role: "user", content: "hi", timestamp: 1700000000 }] }] });
    const res = await call(submit, { headers: headers(), body: body([deep]) });
    expect(res.status).toBe(422);
    expect(res.body.error.fields[0]).toEqual({ field: "users.0.conversations.0.messages.0.timestamp", message: "timestamp is not accepted: timestamps are set by the service" });
    const asValue = await call(submit, { headers: headers(), body: body([user("ext-1", { conversations: [{ id: "mem_abcdefghijklmnopqrstuvwx", messages: [] }] })]) });
    expect(asValue.status).toBe(422);
    expect(asValue.body.error.fields[0].field).toBe("users.0.conversations.0.id");
  });

  it("refuses a bad shape with 422 invalid_format: no users, an unknown field, a repeated externalId", async () => {
    for (const bad of [body([]), { ...body([user("a")]), extra: 1 }, body([user("a"), user("a")]), { users: [user("a")] }]) {
      const res = await call(submit, { headers: headers(), body: bad });
      expect(res.status, JSON.stringify(bad).slice(0, 80)).toBe(422);
      expect(res.body.error.code).toBe("invalid_format");
    }
    expect(await tableCounts()).toEqual({ jobs: 0, reserved: 0 });
  });

  it("takes each global cap exactly and refuses one past it with 413 naming the field", async () => {
    await setTier("enterprise");
    const msgs = (n: number, chars = 1) => Array.from({ length: n }, () => ({ role: "user", content: "x".repeat(chars) }));
    const atCaps = user("caps", {
      conversations: [
        ...Array.from({ length: IMPORT_CAPS.conversationsPerProfile - 2 }, (_, i) => ({ id: `c${i}`, messages: msgs(1) })),
        { id: "long", messages: msgs(IMPORT_CAPS.messagesPerConversation) },
        { id: "wide", messages: msgs(1, IMPORT_CAPS.charsPerMessage) },
      ],
    });
    const ok = await call(submit, { headers: headers(), body: body([atCaps]) });
    expect(ok.status).toBe(202);
    expect(ok.body.estimated_message_count).toBe(IMPORT_CAPS.conversationsPerProfile - 2 + IMPORT_CAPS.messagesPerConversation + 1);

    const over = [
      [user("a", { conversations: Array.from({ length: IMPORT_CAPS.conversationsPerProfile + 1 }, (_, i) => ({ id: `c${i}`, messages: [] })) }), "users.0.conversations"],
      [user("a", { conversations: [{ id: "c", messages: msgs(IMPORT_CAPS.messagesPerConversation + 1) }] }), "users.0.conversations.0.messages"],
      [user("a", { conversations: [{ id: "c", messages: msgs(1, IMPORT_CAPS.charsPerMessage + 1) }] }), "users.0.conversations.0.messages.0.content"],
    ] as const;
    for (const [u, field] of over) {
      const res = await call(submit, { headers: headers(), body: body([u]) });
      expect(res.status).toBe(413);
      expect(res.body.error).toMatchObject({ code: "payload_too_large", field });
    }
    expect((await tableCounts()).jobs).toBe(1);
  });

  it("holds the tier's profiles and input characters per job: at the limit accepted, one past it 413", async () => {
    const free = IMPORT_TIER_LIMITS.free;
    const users = (n: number) => Array.from({ length: n }, (_, i) => ({ externalId: `u${i}` }));
    const past = await call(submit, { headers: headers(), body: body(users(free.profilesPerJob + 1)) });
    expect(past.status).toBe(413);
    expect(past.body.error).toMatchObject({ code: "payload_too_large", field: "users" });
    // Input characters: one past the tier's cap, then exactly at it.
    const big = (total: number) => {
      const per = IMPORT_CAPS.charsPerMessage;
      const n = Math.ceil(total / per);
      const messages = Array.from({ length: n }, (_, i) => ({ role: "user", content: "y".repeat(i === n - 1 ? total - per * (n - 1) : per) }));
      const conversations = [];
      for (let i = 0; i < messages.length; i += IMPORT_CAPS.messagesPerConversation)
        conversations.push({ id: `c${i}`, messages: messages.slice(i, i + IMPORT_CAPS.messagesPerConversation) });
      return [{ externalId: "big", conversations }];
    };
    const tooMuch = await call(submit, { headers: headers(), body: body(big(free.inputCharsPerJob + 1)) });
    expect(tooMuch.status).toBe(413);
    expect(tooMuch.body.error.message).toContain(String(free.inputCharsPerJob));
    expect((await tableCounts()).jobs).toBe(0);
    const exact = await call(submit, { headers: headers(), body: body(big(free.inputCharsPerJob)) });
    expect(exact.status).toBe(202);
    expect(exact.body.estimated_input_chars).toBe(free.inputCharsPerJob);
    const atLimit = await call(cancelJob, { headers: headers(), params: { jobId: exact.body.id } });
    expect(atLimit.body.status).toBe("cancelled");
    const full = await call(submit, { headers: headers(), body: body(users(free.profilesPerJob)) });
    expect(full.status).toBe(202);
    expect(full.body.accepted_profiles).toBe(free.profilesPerJob);
  });

  it("counts unique imported profiles against the tier: a user imported again is not counted again; one past the quota is 402", async () => {
    const prisma = await db();
    // 95 of the free tier's 100 already held.
    await prisma.importedProfile.createMany({
      data: Array.from({ length: 95 }, (_, i) => ({ developerId: t.developer.id, plane: "live" as const, externalId: `old${i}`, jobId: "imp_seed" })),
    });
    const six = Array.from({ length: 6 }, (_, i) => ({ externalId: `new${i}` }));
    const over = await call(submit, { headers: headers(), body: body(six) });
    expect(over.status).toBe(402);
    expect(over.body.error).toMatchObject({ code: "quota_exceeded", quota: 100, used: 95, requested: 6 });
    expect((await tableCounts()).jobs).toBe(0);
    // Five new ones and five already imported: exactly the quota.
    const mixed = [...six.slice(0, 5), ...Array.from({ length: 5 }, (_, i) => ({ externalId: `old${i}` }))];
    const ok = await call(submit, { headers: headers(), body: body(mixed) });
    expect(ok.status).toBe(202);
    expect((await tableCounts()).reserved).toBe(100);
    // The test plane keeps its own count.
    const test = await call(submit, { headers: { "x-api-key": t.keys.skTest, "x-agent": t.agent.handle }, body: body([{ externalId: "new-test" }]) });
    expect(test.status).toBe(202);
    expect(test.body.livemode).toBe(false);
  });

  it("lets exactly one of two jobs racing for the last unit of the quota win", async () => {
    await setTier("pro");
    const prisma = await db();
    await prisma.importedProfile.createMany({
      data: Array.from({ length: 999 }, (_, i) => ({ developerId: t.developer.id, plane: "live" as const, externalId: `old${i}`, jobId: "imp_seed" })),
    });
    const answers = await Promise.all(["racer-a", "racer-b"].map((id) => call(submit, { headers: headers(), body: body([{ externalId: id }]) })));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 402]);
    expect((await tableCounts()).reserved).toBe(1000);
  });

  it("runs at most the tier's concurrent jobs: the next answers 429 rate_limited with retry_after, also when they race", async () => {
    const answers = await Promise.all([1, 2, 3].map((i) => call(submit, { headers: headers(), body: body([{ externalId: `u${i}` }]) })));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 429, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.error).toMatchObject({ code: "rate_limited", retry_after: CONCURRENT_JOB_RETRY_AFTER_SECONDS });
    expect(refused.headers.get("retry-after")).toBe(String(CONCURRENT_JOB_RETRY_AFTER_SECONDS));
    const running = answers.find((a) => a.status === 202)!;
    await runImportJob(running.body.id);
    const next = await call(submit, { headers: headers(), body: body([{ externalId: "u9" }]) });
    expect(next.status).toBe(202);
  });

  it("refuses a publishable key and a missing agent before reading the body", async () => {
    expect((await call(submit, { headers: { "x-api-key": t.keys.pk, "x-agent": t.agent.handle }, body: body([user("a")]) })).status).toBe(401);
    expect((await call(submit, { headers: { "x-api-key": t.keys.sk }, body: body([user("a")]) })).status).toBe(400);
    expect((await call(submit, { headers: { "x-api-key": t.keys.revoked, "x-agent": t.agent.handle }, body: body([user("a")]) })).status).toBe(401);
  });
});

describe("the job", () => {
  it("is another developer's, agent's or plane's only by 404, as is an id that is not one", async () => {
    const job = await call(submit, { headers: headers(), body: body([user("a")]) });
    const other = await createTenant();
    const id = job.body.id;
    for (const h of [
      { "x-api-key": other.keys.sk, "x-agent": other.agent.handle },
      { "x-api-key": t.keys.skTest, "x-agent": t.agent.handle },
    ]) {
      expect((await call(getJob, { headers: h, params: { jobId: id } })).status).toBe(404);
      expect((await call(cancelJob, { headers: h, params: { jobId: id } })).status).toBe(404);
    }
    await setTier("pro");
    const second = await createAgent({ developerId: t.developer.id, handle: "second", displayName: "Second" });
    expect((await call(getJob, { headers: headers({ "x-agent": second.handle }), params: { jobId: id } })).status).toBe(404);
    const bad = await call(getJob, { headers: headers(), params: { jobId: "imp_\u0000" } });
    expect(bad.status).toBe(404);
    expect(bad.body.error.message).toBe(IMPORT_MESSAGES.jobNotFound);
    expect((await call(getJob, { headers: headers(), params: { jobId: id } })).body.status).toBe("queued");
  });

  it("imports every user it may and lists per-user errors: an id linked to a person who has not approved the agent is not written to", async () => {
    const job = await call(submit, { headers: headers(), body: body([user("fresh"), user("user-unapproved"), user("user-live")]) });
    await runImportJob(job.body.id);
    const done = await call(getJob, { headers: headers(), params: { jobId: job.body.id } });
    expect(done.body).toMatchObject({ status: "completed", progress: { profiles_imported: 2, profiles_failed: 1, profiles_pending: 0 } });
    expect(done.body.errors).toEqual([{ external_id: "user-unapproved", code: "agent_not_approved", message: expect.stringContaining("has not approved") }]);
    const prisma = await db();
    expect(await prisma.memory.count({ where: { userId: t.users.unapproved.id } })).toBe(0);
    // The existing person's profile got what it did not hold; the failed user's quota came back.
    expect(await prisma.memory.count({ where: { userId: t.users.live.id, agentId: t.agent.id } })).toBeGreaterThan(0);
    expect((await prisma.importedProfile.findMany({ where: { developerId: t.developer.id } })).map((r) => r.externalId).sort()).toEqual(["fresh", "user-live"]);
    // The person who already had a profile sees the write in their access log; the new user has none.
    await flushAccessLog();
    expect(await prisma.accessLogEntry.findMany({ where: { userId: t.users.live.id }, select: { action: true, outcome: true, agentId: true } })).toEqual([
      { action: "POST /v1/import/profiles", outcome: "ok", agentId: t.agent.id },
    ]);
    const fresh = await prisma.externalUserId.findFirstOrThrow({ where: { developerId: t.developer.id, externalId: "fresh" } });
    expect(await prisma.accessLogEntry.count({ where: { userId: fresh.userId } })).toBe(0);
  });

  it("imports a job again under a new key without writing a memory twice", async () => {
    const first = await call(submit, { headers: headers(), body: body([user("again")]) });
    await runImportJob(first.body.id);
    const prisma = await db();
    const before = await prisma.memory.count({ where: { agentId: t.agent.id } });
    const second = await call(submit, { headers: headers(), body: body([user("again")]) });
    await runImportJob(second.body.id);
    expect(await prisma.memory.count({ where: { agentId: t.agent.id } })).toBe(before);
    expect((await call(getJob, { headers: headers(), params: { jobId: second.body.id } })).body.progress).toMatchObject({ profiles_imported: 1, memories_written: 0 });
  });

  it("cancels a queued job at once: nothing written, every user cancelled, the quota given back; a second cancel changes nothing", async () => {
    const job = await call(submit, { headers: headers(), body: body([user("a"), user("b")]) });
    expect((await tableCounts()).reserved).toBe(2);
    const res = await call(cancelJob, { headers: headers(), params: { jobId: job.body.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "cancelled", cancel_requested: true, progress: { profiles_cancelled: 2, profiles_imported: 0, profiles_pending: 0 } });
    expect((await tableCounts()).reserved).toBe(0);
    await runImportJob(job.body.id);
    const again = await call(cancelJob, { headers: headers(), params: { jobId: job.body.id } });
    expect(again.body).toMatchObject({ status: "cancelled", progress: { profiles_cancelled: 2, profiles_imported: 0 } });
    expect(await (await db()).memory.count({ where: { agentId: t.agent.id } })).toBe(0);
  });

  it("ends failed after the last try when a chunk keeps failing, keeping the chunks before it", async () => {
    await setTier("pro");
    const job = await call(submit, { headers: headers(), body: body(Array.from({ length: 30 }, (_, i) => user(`f${i}`))) });
    // The 27th user's stored payload is damaged: the first chunk imports, the second cannot.
    const prisma = await db();
    await prisma.importJobProfile.update({ where: { jobId_position: { jobId: job.body.id, position: 26 } }, data: { payload: "{not json" } });
    await expect(handleImportJob({ jobId: job.body.id }, { retryCount: 0, final: false })).rejects.toThrow();
    const between = (await call(getJob, { headers: headers(), params: { jobId: job.body.id } })).body;
    expect(between).toMatchObject({ status: "running", error: null, progress: { profiles_imported: 25, profiles_pending: 5 } });
    // The claim was handed back: the next try need not wait for the lease.
    expect((await prisma.importJob.findUniqueOrThrow({ where: { id: job.body.id } })).leaseUntil).toBeNull();
    await expect(handleImportJob({ jobId: job.body.id }, { retryCount: 3, final: true })).rejects.toThrow();
    const end = (await call(getJob, { headers: headers(), params: { jobId: job.body.id } })).body;
    expect(end).toMatchObject({ status: "failed", error: JOB_FAILED_MESSAGE, progress: { profiles_imported: 25, profiles_failed: 5, profiles_pending: 0 } });
    expect(end.finished_at).not.toBeNull();
    expect(end.errors.map((e: { external_id: string; code: string }) => `${e.external_id}:${e.code}`)).toEqual(["f25", "f26", "f27", "f28", "f29"].map((id) => `${id}:job_failed`));
    // Their quota came back; the 25 imported keep theirs.
    expect(await prisma.importedProfile.count({ where: { developerId: t.developer.id, externalId: { startsWith: "f" } } })).toBe(25);
    // A failed job no longer counts against the concurrent jobs.
    expect((await call(submit, { headers: headers(), body: body([user("after")]) })).status).toBe(202);
  });

  it("stops a running job between chunks, keeping what it wrote", async () => {
    await setTier("pro");
    const users = Array.from({ length: 100 }, (_, i) => user(`r${i}`));
    const job = await call(submit, { headers: headers(), body: body(users) });
    let chunks = 0;
    await runImportJob(job.body.id, {
      afterChunk: async () => {
        if (++chunks !== 2) return;
        // Between the second chunk and the third: the job is running, held by this worker.
        const asked = await call(cancelJob, { headers: headers(), params: { jobId: job.body.id } });
        expect(asked.body).toMatchObject({ status: "running", cancel_requested: true, progress: { profiles_imported: 50 } });
      },
    });
    const end = (await call(getJob, { headers: headers(), params: { jobId: job.body.id } })).body;
    expect(end.status).toBe("cancelled");
    expect(end.progress).toMatchObject({ profiles_imported: 50, profiles_cancelled: 50, profiles_pending: 0 });
    const prisma = await db();
    expect(await prisma.externalUserId.count({ where: { developerId: t.developer.id, externalId: { startsWith: "r" } } })).toBe(end.progress.profiles_imported);
    expect(await prisma.importedProfile.count({ where: { developerId: t.developer.id, externalId: { startsWith: "r" } } })).toBe(end.progress.profiles_imported);
  });
});
