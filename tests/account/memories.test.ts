// The account page's profile and memories: the profile as agents read it, the memory list by box and
// by source, editing (the person's own memory afterwards), removing, and forgetting with "don't learn
// this again" — each refused for another person's memory.
import { beforeAll, describe, expect, it } from "vitest";
import * as profileRoute from "@/app/v1/profile/route";
import { AccountError } from "@/lib/account/errors";
import { accountMemories, editMemory, forgetMemory, memoryFilterSchema, PERSON_WRITER, removeMemory } from "@/lib/account/memories";
import { accountProfile } from "@/lib/account/profile";
import { database } from "@/lib/platform/db";
import { inTransaction, writeMemories } from "@/lib/profile/memories";
import { submitCommit } from "@/lib/profile/commit";
import { remember } from "@/lib/profile/remember";
import { importSource } from "@/lib/profile/sources";
import { factToMemory } from "@/lib/profile/facts";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant(undefined, "other-agent");
});

const agentOf = (x: Tenant) => ({ id: x.agent.id, handle: x.agent.handle });
const all = (userId: string) => accountMemories(userId, memoryFilterSchema.parse({}));

async function importFacts(userId: string, texts: string[]) {
  const source = importSource("chatgpt");
  return inTransaction((tx) =>
    writeMemories(
      tx,
      { userId, source, writtenBy: source, agentId: null },
      texts.map((text) => ({ ...factToMemory(text), provenance: { via: "test" } })),
    ),
  );
}

async function readAsAgent(x: Tenant) {
  const res = await call(profileRoute.GET, { headers: liveHeaders(x) });
  expect(res.status).toBe(200);
  return res.body;
}

async function rowsWithKey(userId: string, key: string) {
  return (await database()).sql.query<{ id: string; suppressed_at: Date | null }>(`SELECT id, suppressed_at FROM memories WHERE user_id = $1 AND key = $2`, [userId, key]);
}

describe("the account's profile", () => {
  it("is exactly what an agent reads from GET /v1/profile", async () => {
    await remember({ userId: t.users.live.id, agent: agentOf(t), text: "I live in Lisbon" });
    await remember({ userId: t.users.live.id, agent: agentOf(t), text: "I love trail running" });
    const own = await accountProfile(t.users.live.id);
    const agents = await readAsAgent(t);
    expect(own.identity).toEqual(agents.profile?.identity ?? agents.identity);
    expect(own.preferences).toEqual(agents.profile?.preferences ?? agents.preferences);
    expect(own.summary).toEqual(agents.profile?.summary ?? agents.summary);
    expect(JSON.stringify(own.identity)).toContain("Lisbon");
  });

  it("opens no agent's read obligation", async () => {
    const u = other.users.live.id;
    await accountProfile(u);
    const rows = await (await database()).sql.query(`SELECT 1 FROM read_obligations WHERE user_id = $1`, [u]);
    expect(rows).toHaveLength(0);
  });
});

describe("the memory list", () => {
  it("filters by box and by source and lists what there is to filter by", async () => {
    const u = t.users.live.id;
    await importFacts(u, ["I work at Acme as a designer", "I'm vegetarian"]);
    const list = await all(u);
    expect(list.sources.map((s) => s.source)).toEqual(expect.arrayContaining(["agents/assistant", "imports/chatgpt"]));
    const imported = await accountMemories(u, memoryFilterSchema.parse({ source: "imports/chatgpt" }));
    expect(imported.memories.length).toBe(2);
    expect(imported.memories.every((m) => m.source === "imports/chatgpt")).toBe(true);
    const box = list.boxes[0]!.box;
    const boxed = await accountMemories(u, memoryFilterSchema.parse({ box }));
    expect(boxed.memories.length).toBe(list.boxes[0]!.count);
    expect(boxed.memories.every((m) => m.box === box)).toBe(true);
  });

  it("ignores a filter that is not a box or a source", () => {
    expect(memoryFilterSchema.parse({ box: "nope!", source: "elsewhere", page: "x" })).toEqual({ box: undefined, source: undefined, page: 1 });
  });
});

describe("editing a memory", () => {
  it("stores the person's wording as theirs, hides the old statement and recomposes", async () => {
    const u = t.users.live.id;
    const { memory } = await remember({ userId: u, agent: agentOf(t), text: "I live in Porto" });
    const oldKey = (await (await database()).sql.query<{ key: string }>(`SELECT key FROM memories WHERE id = $1`, [memory.id]))[0]!.key;
    const { id } = await editMemory({ userId: u, memoryId: memory.id, text: "I live in Madrid" });
    expect(id).not.toBe(memory.id);
    const list = await all(u);
    const edited = list.memories.find((m) => m.id === id)!;
    expect(edited).toMatchObject({ text: expect.stringContaining("Madrid"), written_by: PERSON_WRITER, yours: true, source: "agents/assistant" });
    expect(list.memories.find((m) => m.id === memory.id)).toBeUndefined();
    // The profile agents read says the corrected fact.
    expect(JSON.stringify((await accountProfile(u)).identity)).toContain("Madrid");
    expect(JSON.stringify(await readAsAgent(t))).not.toContain("Porto");
    // The agent cannot delete the person's memory, and saying the old fact again is not learned.
    const again = await remember({ userId: u, agent: agentOf(t), text: "I live in Porto" });
    expect(again.saved).toBe(false);
    expect((await rowsWithKey(u, oldKey)).every((r) => r.suppressed_at !== null)).toBe(true);
    const again2 = await remember({ userId: u, agent: agentOf(t), text: "I live in Madrid" });
    expect(again2.saved).toBe(false);
  });

  it("refuses empty or overlong text and another person's memory", async () => {
    const u = t.users.live.id;
    const { memory } = await remember({ userId: u, agent: agentOf(t), text: "I play the cello" });
    await expect(editMemory({ userId: u, memoryId: memory.id, text: "   " })).rejects.toMatchObject({ code: "invalid" });
    await expect(editMemory({ userId: u, memoryId: memory.id, text: "x".repeat(501) })).rejects.toMatchObject({ code: "invalid" });
    await expect(editMemory({ userId: other.users.live.id, memoryId: memory.id, text: "I play the viola" })).rejects.toBeInstanceOf(AccountError);
    expect((await all(u)).memories.find((m) => m.id === memory.id)?.text).toMatch(/cello/);
  });
});

describe("removing a memory", () => {
  it("deletes it and recomposes; another person's id is refused and changes nothing", async () => {
    const u = t.users.live.id;
    const { memory } = await remember({ userId: u, agent: agentOf(t), text: "I have a dog called Miso" });
    await expect(removeMemory({ userId: other.users.live.id, memoryId: memory.id })).rejects.toMatchObject({ code: "not_found" });
    expect((await all(u)).memories.some((m) => m.id === memory.id)).toBe(true);
    await removeMemory({ userId: u, memoryId: memory.id });
    expect((await all(u)).memories.some((m) => m.id === memory.id)).toBe(false);
    expect(JSON.stringify(await accountProfile(u))).not.toContain("Miso");
    await expect(removeMemory({ userId: u, memoryId: memory.id })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("forgetting a memory (don't learn this again)", () => {
  it("hides it and every memory saying the same from every read, and it is not learned again", async () => {
    const u = t.users.live.id;
    const [imported] = await importFacts(u, ["I love sushi"]);
    const { memory } = await remember({ userId: u, agent: agentOf(t), text: "I love sushi" });
    expect(memory.id).toBe(imported!.memory.id); // already held: the agent's write answers with the import's
    await expect(forgetMemory({ userId: other.users.live.id, memoryId: imported!.memory.id })).rejects.toMatchObject({ code: "not_found" });
    expect(await forgetMemory({ userId: u, memoryId: imported!.memory.id })).toBeGreaterThanOrEqual(1);
    expect((await all(u)).memories.some((m) => m.text.includes("sushi"))).toBe(false);
    expect(JSON.stringify(await readAsAgent(t))).not.toContain("sushi");
    // Neither a conversation (a commit) nor the same import learns it again.
    const committed = await submitCommit({ userId: u, agent: agentOf(t), messages: [{ role: "user", content: "I love sushi" }], memories: [], sync: true });
    expect(committed).toMatchObject({ status: "completed", facts_written: 0 });
    const [reimported] = await importFacts(u, ["I love sushi"]);
    expect(reimported!.created).toBe(false);
    expect((await all(u)).memories.some((m) => m.text.includes("sushi"))).toBe(false);
  });
});
