// POST /v1/profile/commit: bounds, inline and queued runs (queued ones survive a worker restart),
// exactly-once results, and the read obligation the commit clears.
import { beforeEach, describe, expect, it } from "vitest";
import { GET as commitStatus } from "@/app/v1/profile/commit/[commitId]/route";
import { POST as commit } from "@/app/v1/profile/commit/route";
import { GET as profile } from "@/app/v1/profile/route";
import { GET as search } from "@/app/v1/profile/search/route";
import { createAgent } from "@/lib/agents/agents";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { jobs, stopJobs } from "@/lib/platform/jobs";
import { COMMIT_INLINE_MAX_CHARS, COMMIT_LIMITS, markFailed, runCommit, startCommitWorker } from "@/lib/profile/commit";
import { COMMIT_GATE_SECONDS, COMMIT_REQUIRED_MESSAGE } from "@/lib/profile/obligation";
import { approveAgent } from "@/lib/users/approvals";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let t: Tenant;
beforeEach(async () => {
  t = await createTenant();
});

const turn = (n = 20) =>
  Array.from({ length: n }, (_, i) =>
    i === 0
      ? { role: "user", content: "Hi! I'm a nurse and I live in Leeds. I love hiking with my dog named Biscuit." }
      : i === 1
        ? { role: "assistant", content: "You live in Paris, right? You must love croissants." }
        : i === 2
          ? { role: "user", content: "No. I'm vegetarian, so please suggest a recipe without meat." }
          : { role: i % 2 ? "assistant" : "user", content: `Message ${i} about this week's plans.` },
  );

async function counts() {
  const prisma = await db();
  return { commits: await prisma.commit.count({ where: { userId: t.users.live.id } }), memories: await prisma.memory.count({ where: { userId: t.users.live.id } }) };
}

describe("POST /v1/profile/commit", () => {
  it("distils a 20-message turn inline with sync true, never taking the assistant's word for a fact", async () => {
    const res = await call(commit, {
      headers: liveHeaders(t),
      body: { messages: turn(), response: "Here is a lentil curry.", memories: ["Prefers recipes under 30 minutes", { text: "I love hiking", box: "preferences" }], sync: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "completed", facts_written: 5, memories_written: 2, livemode: true });
    expect(res.body.rejected_memories).toEqual([]);
    expect(res.body.user_summary).toMatch(/^The user lives in Leeds and works as a nurse\./);
    const found = await call(search, { headers: liveHeaders(t), query: { query: "Paris croissants" } });
    expect(found.body.results).toEqual([]);
    const recipes = await call(search, { headers: liveHeaders(t), query: { query: "recipes", detail: "true" } });
    expect(recipes.body.results[0].provenance).toEqual({ via: "commit", commit_id: res.body.commit_id });
  });

  it("takes each bound exactly and refuses one past it, naming the field and storing nothing", async () => {
    const at = (n: number) => "x".repeat(n);
    const ok = await call(commit, {
      headers: liveHeaders(t),
      body: {
        messages: Array.from({ length: COMMIT_LIMITS.messages }, () => ({ role: "assistant", content: at(COMMIT_LIMITS.messageChars) })),
        memories: Array.from({ length: COMMIT_LIMITS.memories }, (_, i) => `Fact number ${i} ${at(COMMIT_LIMITS.memoryChars - 20)}`),
        sync: true,
      },
    });
    expect(ok.status).toBe(200);
    const before = await counts();
    const cases: [Record<string, unknown>, string][] = [
      [{ messages: Array.from({ length: COMMIT_LIMITS.messages + 1 }, () => ({ role: "user", content: "hi" })) }, "messages"],
      [{ messages: [{ role: "user", content: at(COMMIT_LIMITS.messageChars + 1) }] }, "messages.0.content"],
      [{ memories: Array.from({ length: COMMIT_LIMITS.memories + 1 }, (_, i) => `fact ${i}`) }, "memories"],
      [{ memories: [at(COMMIT_LIMITS.memoryChars + 1)] }, "memories.0"],
      [{ messages: [{ role: "user", content: "hi" }], response: at(COMMIT_LIMITS.messageChars + 1) }, "response"],
      [{ messages: [{ role: "narrator", content: "hi" }] }, "messages.0.role"],
      [{}, "messages"],
    ];
    for (const [body, field] of cases) {
      const res = await call(commit, { headers: liveHeaders(t), body: { ...body, sync: true } });
      expect(res.status, field).toBe(400);
      expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect(await counts()).toEqual(before);
  });

  it("rejects explicit memories the profile already holds or the commit repeats", async () => {
    await call(commit, { headers: liveHeaders(t), body: { memories: ["I live in Leeds"], sync: true } });
    const res = await call(commit, { headers: liveHeaders(t), body: { memories: ["The user lives in Leeds", "I love tea", "I really love tea"], sync: true } });
    expect(res.body).toMatchObject({ memories_written: 1 });
    expect(res.body.rejected_memories).toEqual([
      { text: "The user lives in Leeds", reason: "already_known" },
      { text: "I really love tea", reason: "duplicate" },
    ]);
  });

  it("runs a small commit inline even with sync false", async () => {
    const res = await call(commit, { headers: liveHeaders(t), body: { messages: [{ role: "user", content: "I live in Leeds" }] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "completed", facts_written: 1 });
  });

  it("queues a large commit with sync false; a worker started later, after a restart, completes it once", async () => {
    const big = [{ role: "user", content: `I live in Leeds. ${"Lots of context. ".repeat(Math.ceil(COMMIT_INLINE_MAX_CHARS / 17))}` }];
    await jobs();
    const res = await call(commit, { headers: liveHeaders(t), body: { messages: big } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: "processing", commit_id: expect.any(String), livemode: true });
    const id = res.body.commit_id;
    const pending = await call(commitStatus, { headers: liveHeaders(t), params: { commitId: id }, path: `/v1/profile/commit/${id}` });
    expect(pending.body).toMatchObject({ status: "processing", completed_at: null });

    await stopJobs(); // the process that queued it goes away; the job stays in the database
    await startCommitWorker();
    await expect
      .poll(async () => (await call(commitStatus, { headers: liveHeaders(t), params: { commitId: id } })).body.status, { timeout: 20_000, interval: 250 })
      .toBe("completed");
    const done = await call(commitStatus, { headers: liveHeaders(t), params: { commitId: id } });
    expect(done.body).toMatchObject({ status: "completed", facts_written: 1, memories_written: 0 });
    // Running it again (a retried job) changes nothing.
    expect(await runCommit(id)).toEqual({ facts_written: 1, memories_written: 0, rejected_memories: [], user_summary: done.body.user_summary });
    expect((await counts()).memories).toBe(1);
    await stopJobs();
  });

  it("reports a commit that could not run as failed, once, and never fails a completed one", async () => {
    const big = [{ role: "user", content: `I live in Leeds. ${"Lots of context. ".repeat(Math.ceil(COMMIT_INLINE_MAX_CHARS / 17))}` }];
    await jobs();
    const queued = await call(commit, { headers: liveHeaders(t), body: { messages: big } });
    await stopJobs();
    await markFailed(queued.body.commit_id, new Error("distiller unreachable"));
    const failed = await call(commitStatus, { headers: liveHeaders(t), params: { commitId: queued.body.commit_id } });
    expect(failed.body).toMatchObject({ status: "failed", error: "The commit could not be processed. Send the turn again." });
    expect(failed.body.completed_at).not.toBeNull();
    // A failed commit is not run later by a worker that picks up its job.
    await expect(runCommit(queued.body.commit_id)).resolves.toBeNull();

    const done = await call(commit, { headers: liveHeaders(t), body: { memories: ["I live in Leeds"], sync: true } });
    await markFailed(done.body.commit_id, new Error("late"));
    expect((await call(commitStatus, { headers: liveHeaders(t), params: { commitId: done.body.commit_id } })).body.status).toBe("completed");
  });

  it("shows a commit only to the agent that made it", async () => {
    const res = await call(commit, { headers: liveHeaders(t), body: { memories: ["I live in Leeds"], sync: true } });
    const other = await createAgent({ developerId: t.developer.id, handle: "other", displayName: "Other" });
    await approveAgent({ userId: t.users.live.id, agentId: other.id });
    const seen = await call(commitStatus, { headers: liveHeaders(t, { "x-agent": "other" }), params: { commitId: res.body.commit_id } });
    expect(seen.status).toBe(404);
    expect((await call(commitStatus, { headers: liveHeaders(t), params: { commitId: "nope" } })).status).toBe(404);
  });
});

describe("the read obligation", () => {
  async function ageObligation(minutes: number) {
    await (
      await db()
    ).readObligation.updateMany({
      where: { userId: t.users.live.id, agentId: t.agent.id },
      data: { openedAt: new Date(Date.now() - minutes * 60_000) },
    });
  }

  it("opens on a read, refuses reads after 30 minutes without a commit, and clears on the commit", async () => {
    expect((await call(profile, { headers: liveHeaders(t) })).status).toBe(200);
    await ageObligation(29);
    expect((await call(profile, { headers: liveHeaders(t) })).status).toBe(200);
    await ageObligation(31);
    for (const res of [await call(profile, { headers: liveHeaders(t), query: { sections: "summary" } }), await call(search, { headers: liveHeaders(t), query: { query: "x" } })]) {
      expect(res.status).toBe(428);
      expect(res.body.error).toMatchObject({ code: "commit_required", message: COMMIT_REQUIRED_MESSAGE, suggested_action: "commit" });
    }
    const other = await createAgent({ developerId: t.developer.id, handle: "other", displayName: "Other" });
    await approveAgent({ userId: t.users.live.id, agentId: other.id });
    expect((await call(profile, { headers: liveHeaders(t, { "x-agent": "other" }) })).status).toBe(200);

    expect((await call(commit, { headers: liveHeaders(t), body: { messages: [{ role: "user", content: "thanks" }] } })).status).toBe(200);
    expect((await call(profile, { headers: liveHeaders(t) })).status).toBe(200);
  });

  it("follows the service's clock: moved past 30 minutes after the first read, the next read is refused; a commit reopens reads", async () => {
    try {
      expect((await call(profile, { headers: liveHeaders(t) })).status).toBe(200);
      advanceClockForTests(COMMIT_GATE_SECONDS * 1000 - 60_000);
      expect((await call(profile, { headers: liveHeaders(t) })).status).toBe(200);
      advanceClockForTests(2 * 60_000);
      const refused = await call(profile, { headers: liveHeaders(t) });
      expect(refused.status).toBe(428);
      expect(refused.body.error).toMatchObject({ code: "commit_required", suggested_action: "commit" });
      expect((await call(commit, { headers: liveHeaders(t), body: { messages: [{ role: "user", content: "thanks" }] } })).status).toBe(200);
      // The obligation the next read opens starts at the moved clock: another 29 minutes on, reads still pass.
      expect((await call(profile, { headers: liveHeaders(t) })).status).toBe(200);
      advanceClockForTests(COMMIT_GATE_SECONDS * 1000 - 60_000);
      expect((await call(profile, { headers: liveHeaders(t) })).status).toBe(200);
    } finally {
      resetClockForTests();
    }
  });
});
