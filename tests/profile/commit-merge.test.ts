// Commits over months leave one memory per fact: an agent's newer fact replaces its older one in the
// same slot, a restatement in other words replaces the older wording, one with less detail is not
// written, what the user says has ended goes; and no agent replaces what another wrote.
import { beforeEach, describe, expect, it } from "vitest";
import { POST as commit } from "@/app/v1/profile/commit/route";
import { GET as profile } from "@/app/v1/profile/route";
import { createAgent } from "@/lib/agents/agents";
import { db } from "@/lib/platform/db";
import { approveAgent } from "@/lib/users/approvals";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let t: Tenant;
beforeEach(async () => {
  t = await createTenant();
});

async function say(content: string, headers = liveHeaders(t)) {
  const res = await call(commit, { headers, body: { messages: [{ role: "user", content }], sync: true } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { facts_written: number };
}

/** The user's memories as "source: text", in alphabetical order. */
async function memories(): Promise<string[]> {
  const rows = await (await db()).memory.findMany({ where: { userId: t.users.live.id } });
  return rows.map((m) => `${m.source}: ${m.text}`).sort();
}

describe("commits merge into the agent's own memories", () => {
  it("a move replaces the city the agent held, in the memories and in the composed profile", async () => {
    await say("I live in Leeds and I work as a nurse.");
    expect(await memories()).toEqual([`agents/${t.agent.handle}: Lives in Leeds`, `agents/${t.agent.handle}: Works as a nurse`]);
    expect((await say("I live in York now.")).facts_written).toBe(1);
    expect(await memories()).toEqual([`agents/${t.agent.handle}: Lives in York`, `agents/${t.agent.handle}: Works as a nurse`]);
    const read = await call(profile, { headers: liveHeaders(t) });
    expect(read.body.identity.location).toBe("York");
  });

  it("a fact said again is one memory; said with more detail it takes the fuller wording, with less it is not written", async () => {
    await say("I love jazz.");
    expect((await say("I love jazz.")).facts_written).toBe(0);
    await say("I work as a nurse.");
    await say("I work as a nurse at St Mary's hospital.");
    expect((await say("I work as a nurse.")).facts_written).toBe(0);
    const held = await memories();
    expect(held.filter((m) => /jazz/i.test(m))).toHaveLength(1);
    expect(held.filter((m) => /nurse/i.test(m))).toEqual([`agents/${t.agent.handle}: Works as a nurse at St Mary's hospital`]);
  });

  it("what the user says has ended is removed", async () => {
    await say("I'm vegan and I love hiking.");
    expect((await memories()).some((m) => /vegan/i.test(m))).toBe(true);
    await say("I'm not vegan anymore.");
    const held = await memories();
    expect(held.some((m) => /vegan/i.test(m))).toBe(false);
    expect(held.some((m) => /hiking/i.test(m))).toBe(true);
  });

  it("another agent's fact in the same slot is written beside this agent's, which stays; the profile shows the newest", async () => {
    await say("I live in Leeds.");
    const other = await createAgent({ developerId: t.developer.id, handle: "second", displayName: "Second" });
    await approveAgent({ userId: t.users.live.id, agentId: other.id });
    await say("I live in York now.", liveHeaders(t, { "x-agent": "second" }));
    expect(await memories()).toEqual([`agents/${t.agent.handle}: Lives in Leeds`, "agents/second: Lives in York"].sort());
    // And the first agent's restatement does not remove the second's.
    await say("I live in Leeds.");
    expect(await memories()).toEqual([`agents/${t.agent.handle}: Lives in Leeds`, "agents/second: Lives in York"].sort());
    const read = await call(profile, { headers: liveHeaders(t) });
    expect(read.body.identity.location).toBe("York");
  });
});
