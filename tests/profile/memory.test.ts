// The memory engine over its routes: remember, import, search, the composed profile, and forget.
import { beforeEach, describe, expect, it } from "vitest";
import { GET as profile } from "@/app/v1/profile/route";
import { POST as forget } from "@/app/v1/profile/forget/route";
import { POST as importRoute } from "@/app/v1/profile/import/route";
import { POST as remember } from "@/app/v1/profile/remember/route";
import { GET as search } from "@/app/v1/profile/search/route";
import { createAgent } from "@/lib/agents/agents";
import { PREFIX } from "@/lib/platform/ids";
import { inTransaction, writeMemories } from "@/lib/profile/memories";
import { factToMemory } from "@/lib/profile/facts";
import { PROFILE_READ_LIMITS } from "@/lib/profile/read";
import { REMEMBER_MAX_CHARS } from "@/lib/profile/schemas";
import { approveAgent } from "@/lib/users/approvals";
import { linkExternalId } from "@/lib/users/users";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let t: Tenant;
let other: { handle: string; headers: Record<string, string> };

beforeEach(async () => {
  t = await createTenant();
  const second = await createAgent({ developerId: t.developer.id, handle: "planner", displayName: "Planner" });
  await approveAgent({ userId: t.users.live.id, agentId: second.id });
  other = { handle: "planner", headers: liveHeaders(t, { "x-agent": "planner" }) };
});

const rememberAs = (headers: Record<string, string>, body: Record<string, unknown>) => call(remember, { headers, body });

/** What the user brought in from ChatGPT: no agent wrote it. */
async function importedFromChatGpt(userId: string, facts: { text: string; saidAt?: Date }[]) {
  return inTransaction((tx) =>
    writeMemories(
      tx,
      { userId, source: "imports/chatgpt", writtenBy: "imports/chatgpt", agentId: null },
      facts.map((f) => ({ ...factToMemory(f.text), saidAt: f.saidAt ?? null, provenance: { via: "import_file" } })),
    ),
  );
}

describe("POST /v1/profile/remember", () => {
  it("saves one fact under the acting agent, whatever the body claims", async () => {
    const res = await rememberAs(liveHeaders(t), { text: "I live in Lisbon", written_by: "agents/someone-else", source: "imports/claude" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ saved: true, source: "agents/assistant", livemode: true });
    expect(res.body.memory.id.startsWith(PREFIX.memory)).toBe(true);
    expect(res.body.memory).toMatchObject({ text: "Lives in Lisbon", kind: "location", box: "identity", source: "agents/assistant", written_by: "agents/assistant" });
  });

  it("answers with the memory the profile already holds instead of a duplicate, from any source", async () => {
    const first = await rememberAs(liveHeaders(t), { text: "I love trail running" });
    const again = await rememberAs(liveHeaders(t), { text: "I really enjoy trail running" });
    expect(again.status).toBe(200);
    expect(again.body.saved).toBe(false);
    expect(again.body.memory.id).toBe(first.body.memory.id);
    const [imported] = await importedFromChatGpt(t.users.live.id, [{ text: "I'm a vegetarian" }]);
    const fromAgent = await rememberAs(other.headers, { text: "The user is vegetarian" });
    expect(fromAgent.body).toMatchObject({ saved: false, memory: { id: imported!.memory.id, source: "imports/chatgpt" } });
  });

  it("keeps a fact it cannot classify as said, in the box and kind given", async () => {
    const res = await rememberAs(liveHeaders(t), { text: "Flight AB123 lands at 7pm on Friday", box: "plans", kind: "plan" });
    expect(res.status).toBe(201);
    expect(res.body.memory).toMatchObject({ text: "Flight AB123 lands at 7pm on Friday", box: "plans", kind: "plan" });
  });

  it("takes text up to its bound and refuses one character more, an empty text, an unknown box or kind", async () => {
    expect((await rememberAs(liveHeaders(t), { text: "x".repeat(REMEMBER_MAX_CHARS) })).status).toBe(201);
    for (const body of [{ text: "x".repeat(REMEMBER_MAX_CHARS + 1) }, { text: "  " }, { text: "ok", box: "secrets" }, { text: "ok", kind: "mood" }, {}]) {
      const res = await rememberAs(liveHeaders(t), body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    const box = await rememberAs(liveHeaders(t), { text: "ok", box: "secrets" });
    expect(box.body.error.fields.map((f: { field: string }) => f.field)).toEqual(["box"]);
  });

  it("replaces its own memory that a new fact resolves", async () => {
    const old = await rememberAs(liveHeaders(t), { text: "I live in Porto" });
    const res = await rememberAs(liveHeaders(t), { text: "I live in Lisbon", resolves: old.body.memory.id, reply_to: "msg_1" });
    expect(res.status).toBe(201);
    expect(res.body.memory.provenance).toEqual({ via: "remember", reply_to: "msg_1", resolves: old.body.memory.id });
    const found = await call(search, { headers: liveHeaders(t), query: { query: "Porto" } });
    expect(found.body.results).toEqual([]);
    const missing = await rememberAs(liveHeaders(t), { text: "I live in Faro", resolves: `mem_${"x".repeat(24)}` });
    expect(missing.status).toBe(404);
  });
});

describe("GET /v1/profile", () => {
  it("composes identity, preferences and a summary as memories arrive; the newest location wins", async () => {
    await importedFromChatGpt(t.users.live.id, [{ text: "I live in Berlin", saidAt: new Date("2024-01-05T00:00:00Z") }]);
    await rememberAs(liveHeaders(t), { text: "My name is Rosa" });
    await rememberAs(liveHeaders(t), { text: "I moved to Lisbon" });
    await rememberAs(other.headers, { text: "I can't stand olives" });
    await rememberAs(other.headers, { text: "I work as a nurse at St Mary's" });
    const res = await call(profile, { headers: liveHeaders(t), query: { sections: "identity,preferences,summary" } });
    expect(res.status).toBe(200);
    expect(res.body.identity.facts).toEqual(["Is called Rosa", "Lives in Lisbon", "Works as a nurse at St Mary's"]);
    expect(res.body.preferences).toEqual(["Dislikes olives"]);
    expect(res.body.summary).toBe("The user is called Rosa, lives in Lisbon and works as a nurse at St Mary's. The user also dislikes olives.");
    expect(res.body.truncated).toBeUndefined();
    expect(Object.keys(res.body).sort()).toEqual(["identity", "linked", "livemode", "preferences", "summary"]);
  });

  it("cuts a long box to its documented size and names it", async () => {
    const likes = [
      "chess",
      "jazz",
      "sushi",
      "tennis",
      "hiking",
      "poetry",
      "baking",
      "cycling",
      "opera",
      "kayaking",
      "knitting",
      "climbing",
      "sailing",
      "gardening",
      "surfing",
      "pottery",
      "fencing",
      "rowing",
      "archery",
      "juggling",
      "skiing",
      "judo",
      "rugby",
      "origami",
      "birdwatching",
      "karaoke",
      "snorkeling",
      "bowling",
    ];
    for (const l of likes) await rememberAs(liveHeaders(t), { text: `I love ${l}` });
    const res = await call(profile, { headers: liveHeaders(t) });
    expect(res.body.preferences).toHaveLength(PROFILE_READ_LIMITS.preferences);
    expect(res.body.preferences[0]).toBe("Likes bowling");
    expect(res.body.truncated).toBe(true);
    expect(res.body.truncated_boxes).toEqual(["preferences"]);
  });

  it("opens a box page by page, and a source as a box", async () => {
    await inTransaction((tx) =>
      writeMemories(
        tx,
        { userId: t.users.live.id, source: "agents/assistant", writtenBy: "agents/assistant", agentId: t.agent.id },
        Array.from({ length: 55 }, (_, i) => ({ text: `Note ${i}`, kind: "note", box: "other", key: `note:${i}` })),
      ),
    );
    const first = await call(profile, { headers: liveHeaders(t), query: { box: "other" } });
    expect(first.body).toMatchObject({ box: "other", page: 1, page_size: 50, has_more: true, livemode: true });
    expect(first.body.memories).toHaveLength(50);
    const second = await call(profile, { headers: liveHeaders(t), query: { box: "other", page: "2" } });
    expect(second.body.memories).toHaveLength(5);
    expect(second.body.has_more).toBe(false);
    const bySource = await call(profile, { headers: liveHeaders(t), query: { box: "agents/assistant" } });
    expect(bySource.body.memories).toHaveLength(50);
    const nowhere = await call(profile, { headers: liveHeaders(t), query: { box: "nowhere" } });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.error.fields).toEqual([{ field: "box", message: "unknown box" }]);
    expect((await call(profile, { headers: liveHeaders(t), query: { box: "other", page: "0" } })).status).toBe(400);
  });
});

describe("GET /v1/profile/search", () => {
  beforeEach(async () => {
    await importedFromChatGpt(t.users.live.id, [
      { text: "I love Japanese food, especially ramen", saidAt: new Date("2024-03-01T10:00:00Z") },
      { text: "I'm allergic to peanuts", saidAt: new Date("2024-03-02T10:00:00Z") },
    ]);
    await rememberAs(liveHeaders(t), { text: "I prefer window seats on flights" });
    await rememberAs(other.headers, { text: "I'm planning to visit Japan in April" });
  });

  it("ranks by relevance, reports what the agent can see, and finds any of the words", async () => {
    const res = await call(search, { headers: liveHeaders(t), query: { query: "what Japanese food does the user like, and when is the Japan trip" } });
    expect(res.status).toBe(200);
    expect(res.body.results[0].text).toBe("Likes Japanese food, especially ramen");
    expect(res.body.results.map((r: { text: string }) => r.text)).toContain("Plans to visit Japan in April");
    expect(res.body.visibleSources).toEqual(["agents/assistant", "agents/planner", "imports/chatgpt"]);
    expect(res.body.sourceCounts).toEqual({ "agents/assistant": 1, "agents/planner": 1, "imports/chatgpt": 2 });
    expect(typeof res.body.guidance).toBe("string");
    expect(res.body.livemode).toBe(true);
    expect(Object.keys(res.body.results[0]).sort()).toEqual(["box", "id", "kind", "learned_at", "said_at", "score", "source", "text", "written_by"]);
  });

  it("scopes by source: a bare name matches the agent and the import of that name, a full name exactly", async () => {
    const bare = await call(search, { headers: liveHeaders(t), query: { source: "chatgpt" } });
    expect(bare.body.results.map((r: { source: string }) => r.source)).toEqual(["imports/chatgpt", "imports/chatgpt"]);
    const exact = await call(search, { headers: liveHeaders(t), query: { source: "agents/planner" } });
    expect(exact.body.results.map((r: { text: string }) => r.text)).toEqual(["Plans to visit Japan in April"]);
    const bad = await call(search, { headers: liveHeaders(t), query: { source: "somewhere/else" } });
    expect(bad.status).toBe(400);
  });

  it("follows the source rules row by row, for every bare name", async () => {
    const sources = ["claude", "gemini", "grok", "chatgpt", "other"].flatMap((n) => [`agents/${n}`, `imports/${n}`]).concat(["apps/gmail"]);
    for (const source of sources) {
      await inTransaction((tx) =>
        writeMemories(tx, { userId: t.users.live.id, source, writtenBy: source, agentId: null }, [
          { text: `Note from ${source}`, kind: "note", box: "other", key: `note:${source}` },
        ]),
      );
    }
    const texts = async (source: string) =>
      ((await call(search, { headers: liveHeaders(t), query: { source, query: "note", limit: "50" } })).body.results as { source: string }[]).map((r) => r.source).sort();
    for (const name of ["claude", "gemini", "grok", "chatgpt", "other"]) {
      const expected = [`agents/${name}`, `imports/${name}`];
      expect(await texts(name), name).toEqual(expected);
      expect(await texts(name.toUpperCase()), `${name} in capitals`).toEqual(expected);
      expect(await texts(`agents/${name}`)).toEqual([`agents/${name}`]);
      expect(await texts(`imports/${name}`)).toEqual([`imports/${name}`]);
    }
    expect(await texts("apps/gmail")).toEqual(["apps/gmail"]);
    for (const bad of ["gmail", "agents/", "imports/Chat GPT", "agents/claude/extra"]) {
      expect((await call(search, { headers: liveHeaders(t), query: { source: bad } })).status, bad).toBe(400);
    }
  });

  it("bounds dates inclusively and shows provenance on detail", async () => {
    const day = await call(search, { headers: liveHeaders(t), query: { from: "2024-03-02", to: "2024-03-02", detail: "true" } });
    expect(day.body.results.map((r: { text: string }) => r.text)).toEqual(["Is allergic to peanuts"]);
    expect(day.body.results[0].provenance).toEqual({ via: "import_file" });
    // A time without an offset is UTC: 10:00 on 2 March is the allergy's own time.
    const noOffset = await call(search, { headers: liveHeaders(t), query: { from: "2024-03-02T10:00:00", to: "2024-03-02T10:00:00" } });
    expect(noOffset.body.results.map((r: { text: string }) => r.text)).toEqual(["Is allergic to peanuts"]);
    const limited = await call(search, { headers: liveHeaders(t), query: { limit: "1" } });
    expect(limited.body.results).toHaveLength(1);
    for (const query of [{ limit: "0" }, { limit: "51" }, { from: "March" }, { detail: "maybe" }] as Record<string, string>[]) {
      expect((await call(search, { headers: liveHeaders(t), query })).status).toBe(400);
    }
  });
});

describe("POST /v1/profile/import", () => {
  it("does not import again what another source already holds, and shows the memory that does", async () => {
    const [held] = await importedFromChatGpt(t.users.live.id, [{ text: "I live in Oslo" }]);
    const res = await call(importRoute, { headers: liveHeaders(t), body: { text: "I live in Oslo.\n\nI love skiing and I have a cat named Pip." } });
    expect(res.status).toBe(201);
    expect(res.body.distilled.map((d: { text: string; saved: boolean; source: string }) => [d.text, d.saved, d.source])).toEqual([
      ["Likes skiing", true, "agents/assistant"],
      ["Has a cat named Pip", true, "agents/assistant"],
      ["Lives in Oslo", false, "imports/chatgpt"],
    ]);
    expect(res.body.distilled[2].id).toBe(held!.memory.id);
    const nothing = await call(importRoute, { headers: liveHeaders(t), body: { text: "What's the weather like?" } });
    expect(nothing.status).toBe(200);
    expect(nothing.body).toMatchObject({ saved: false, distilled: [], memory: null, import_id: null });
    expect((await call(importRoute, { headers: liveHeaders(t), body: { text: "x".repeat(20_001) } })).status).toBe(400);
  });
});

describe("POST /v1/profile/forget", () => {
  it("deletes the agent's own memory by id at once and refuses another writer's", async () => {
    const mine = await rememberAs(liveHeaders(t), { text: "I live in Lisbon" });
    const theirs = await rememberAs(other.headers, { text: "I love chess" });
    const res = await call(forget, { headers: liveHeaders(t), body: { id: mine.body.memory.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deleted: true, deleted_count: 1, matched: 1 });
    const refused = await call(forget, { headers: liveHeaders(t), body: { id: theirs.body.memory.id } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("memory_not_owned");
    const prof = await call(profile, { headers: liveHeaders(t), query: { sections: "identity,preferences" } });
    expect(prof.body.identity.facts).toEqual([]);
    expect(prof.body.preferences).toEqual(["Likes chess"]);
  });

  it("previews a match and deletes only the agent's own on confirm", async () => {
    await rememberAs(liveHeaders(t), { text: "I love chess" });
    await rememberAs(other.headers, { text: "I play chess on Sundays", kind: "other" });
    const preview = await call(forget, { headers: liveHeaders(t), body: { match: "chess" } });
    expect(preview.body).toMatchObject({ deleted: false, deleted_count: 0, matched: 2, confirm_required: true, deletable_count: 1 });
    expect((await call(search, { headers: liveHeaders(t), query: { query: "chess" } })).body.results).toHaveLength(2);
    const done = await call(forget, { headers: liveHeaders(t), body: { match: "chess", confirm: true } });
    expect(done.body).toMatchObject({ deleted: true, deleted_count: 1, matched: 2 });
    const left = await call(search, { headers: liveHeaders(t), query: { query: "chess" } });
    expect(left.body.results.map((r: { source: string }) => r.source)).toEqual(["agents/planner"]);
  });

  it("with reason user_request hides matching content from every source, for every agent", async () => {
    await importedFromChatGpt(t.users.live.id, [{ text: "I'm allergic to peanuts" }]);
    const mine = await rememberAs(other.headers, { text: "The user is allergic to peanuts", kind: "preference" });
    expect(mine.body.saved).toBe(false); // the import already says it
    await rememberAs(liveHeaders(t), { text: "I love peanuts butter cookies" });
    const res = await call(forget, { headers: liveHeaders(t), body: { match: "peanuts", confirm: true, reason: "user_request" } });
    expect(res.body).toMatchObject({ deleted: true, deleted_count: 1, matched: 2, suppressed_count: 1 });
    // The per-source counts follow the deletion and the suppression.
    const after = await call(search, { headers: liveHeaders(t), query: { query: "anything" } });
    expect(after.body.sourceCounts).toEqual({});
    expect(after.body.visibleSources).toEqual([]);
    for (const headers of [liveHeaders(t), other.headers]) {
      expect((await call(search, { headers, query: { query: "peanuts" } })).body.results).toEqual([]);
      const prof = await call(profile, { headers, query: { sections: "preferences,summary" } });
      expect(JSON.stringify(prof.body)).not.toMatch(/peanut/i);
    }
  });

  it("undoes one import, and clears by scope, each after a preview", async () => {
    const imported = await call(importRoute, {
      headers: liveHeaders(t),
      body: { text: "[2024-02-01] - I live in Oslo\n[2024-02-03] - I love skiing\n[2024-02-04] - I have a dog named Rex" },
    });
    expect(imported.status).toBe(201);
    expect(imported.body.import_id.startsWith(PREFIX.importJob)).toBe(true);
    expect(imported.body.distilled.map((d: { text: string; said_at: string }) => [d.text, d.said_at])).toEqual([
      ["Lives in Oslo", "2024-02-01T00:00:00.000Z"],
      ["Likes skiing", "2024-02-03T00:00:00.000Z"],
      ["Has a dog named Rex", "2024-02-04T00:00:00.000Z"],
    ]);
    await rememberAs(liveHeaders(t), { text: "I prefer aisle seats" });
    const preview = await call(forget, { headers: liveHeaders(t), body: { import_id: imported.body.import_id } });
    expect(preview.body).toMatchObject({ deleted: false, matched: 3 });
    const undone = await call(forget, { headers: liveHeaders(t), body: { import_id: imported.body.import_id, confirm: true } });
    expect(undone.body).toMatchObject({ deleted: true, deleted_count: 3 });
    const saved = await call(forget, { headers: liveHeaders(t), body: { scope: "saved", confirm: true } });
    expect(saved.body.deleted_count).toBe(1);
    expect((await call(search, { headers: liveHeaders(t), query: { source: "agents/assistant" } })).body.results).toEqual([]);
  });

  it("keeps a name said long ago when anything is forgotten, however many memories came after it", async () => {
    await rememberAs(liveHeaders(t), { text: "My name is Ada" });
    await inTransaction((tx) =>
      writeMemories(
        tx,
        { userId: t.users.live.id, source: "agents/assistant", writtenBy: "agents/assistant", agentId: t.agent.id },
        Array.from({ length: 700 }, (_, i) => ({ text: `Likes topic ${i}`, kind: "like", box: "preferences", key: `like:topic ${i}` })),
      ),
    );
    const extra = await rememberAs(liveHeaders(t), { text: "I love chess" });
    await call(forget, { headers: liveHeaders(t), body: { id: extra.body.memory.id } });
    const prof = await call(profile, { headers: liveHeaders(t), query: { sections: "identity" } });
    expect(prof.body.identity.facts).toEqual(["Is called Ada"]);
  });

  it("narrows to one day with date", async () => {
    await call(importRoute, { headers: liveHeaders(t), body: { text: "[2024-02-01] - I live in Oslo\n[2024-02-03] - I love skiing" } });
    const res = await call(forget, { headers: liveHeaders(t), body: { scope: "all", date: "2024-02-03", confirm: true } });
    expect(res.body).toMatchObject({ deleted_count: 1, matched: 1 });
    expect((await call(profile, { headers: liveHeaders(t), query: { sections: "identity" } })).body.identity.facts).toEqual(["Lives in Oslo"]);
  });

  it("takes exactly one selector, and changes nothing otherwise", async () => {
    const mine = await rememberAs(liveHeaders(t), { text: "I love chess" });
    for (const body of [{}, { id: mine.body.memory.id, match: "chess" }, { scope: "everything" }, { match: "chess", date: "yesterday" }, { id: "mem_short" }]) {
      const res = await call(forget, { headers: liveHeaders(t), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call(search, { headers: liveHeaders(t), query: { query: "chess" } })).body.results).toHaveLength(1);
  });

  it("keeps apart two developers' agents that share a handle, for a user who approved both", async () => {
    const b = await createTenant("tenant-b", "assistant");
    await linkExternalId({ developerId: b.developer.id, plane: "live", externalId: "shared-user", userId: t.users.live.id });
    await approveAgent({ userId: t.users.live.id, agentId: b.agent.id });
    const asB = { "x-api-key": b.keys.sk, "x-agent": "assistant", "x-user-id": "shared-user" };
    const mine = await call(importRoute, { headers: liveHeaders(t), body: { text: "[2024-02-01] - I love skiing" } });
    // The profile already holds it (from the other developer's agent): not written twice.
    const again = await call(importRoute, { headers: asB, body: { text: "[2024-02-01] - I love skiing" } });
    expect(again.status).toBe(200);
    expect(again.body.distilled).toMatchObject([{ id: mine.body.distilled[0].id, saved: false }]);
    // Each agent's own writes stay its own, though both are agents/assistant.
    const theirs = await call(importRoute, { headers: asB, body: { text: "[2024-02-02] - I love chess" } });
    expect(theirs.status).toBe(201);
    expect((await call(forget, { headers: asB, body: { scope: "all" } })).body).toMatchObject({ matched: 1, deletable_count: 1 });
    const cleared = await call(forget, { headers: asB, body: { scope: "all", confirm: true } });
    expect(cleared.body).toMatchObject({ deleted_count: 1, matched: 1 });
    const left = await call(search, { headers: liveHeaders(t), query: { query: "skiing chess", detail: "true" } });
    expect(left.body.results.map((r: { import_id: string }) => r.import_id)).toEqual([mine.body.import_id]);
  });

  it("never reaches another developer's user or memories", async () => {
    const mine = await rememberAs(liveHeaders(t), { text: "I love chess" });
    const b = await createTenant("tenant-b", "intruder");
    const res = await call(forget, { headers: { "x-api-key": b.keys.sk, "x-agent": "intruder", "x-user-id": "user-live" }, body: { id: mine.body.memory.id } });
    expect(res.status).toBe(404);
    expect((await call(search, { headers: liveHeaders(t), query: { query: "chess" } })).body.results).toHaveLength(1);
  });
});
