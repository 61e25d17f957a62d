// Turn correlation: the REST profile routes take X-Service-Conversation-Id and X-Service-Turn-Id, the
// counterpart of an MCP session's sid. A read and the commit of one turn are recorded under the same
// conversation in the person's access log, as a session's calls are; the recorded value is scoped to
// the developer account, plane and agent; bad values are a 400 naming the header and change nothing;
// bulk import does not use them.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { DELETE as mcpDelete, GET as mcpGet, POST as mcpPost } from "@/app/mcp/route";
import { POST as importProfiles } from "@/app/v1/import/profiles/route";
import { POST as mintSession } from "@/app/v1/profile/mcp-session/route";
import { POST as commitRoute } from "@/app/v1/profile/commit/route";
import { POST as rememberRoute } from "@/app/v1/profile/remember/route";
import { GET as profileRoute } from "@/app/v1/profile/route";
import { GET as searchRoute } from "@/app/v1/profile/search/route";
import { flushAccessLog } from "@/lib/access-log/access-log";
import { createAgent } from "@/lib/agents/agents";
import { issueApiKey } from "@/lib/api-keys/api-keys";
import { db } from "@/lib/platform/db";
import { createDeveloper } from "@/lib/developers/developers";
import { runImportJob } from "@/lib/import-jobs/worker";
import { mcpCorrelation, restCorrelation, TURN_HEADER_MESSAGES, TURN_HEADERS, TURN_ID_MAX_CHARS } from "@/lib/http/turns";
import { approveAgent } from "@/lib/users/approvals";
import { linkExternalId } from "@/lib/users/users";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

const CONVERSATION = "X-Service-Conversation-Id";
const TURN = "X-Service-Turn-Id";

let t: Tenant;
// Another developer account whose agent the same person approved, under the same id for them.
let b: { developerId: string; agentId: string; handle: string; sk: string };
beforeAll(async () => {
  t = await createTenant();
  const developer = await createDeveloper({ name: "Second developer" });
  const agent = await createAgent({ developerId: developer.id, handle: "assistant", displayName: "Assistant B" });
  const sk = await issueApiKey({ developerId: developer.id, kind: "secret", plane: "live" });
  await linkExternalId({ developerId: developer.id, plane: "live", externalId: "user-live", userId: t.users.live.id });
  await approveAgent({ userId: t.users.live.id, agentId: agent.id });
  b = { developerId: developer.id, agentId: agent.id, handle: agent.handle, sk: sk.key };
});

const commitBody = { messages: [{ role: "user", content: "I moved to Lisbon last month." }], sync: true };

/** The person's access log entries since `since`, oldest first, as recorded. */
async function entriesSince(since: Date) {
  await flushAccessLog();
  return (await db()).accessLogEntry.findMany({
    where: { userId: t.users.live.id, at: { gte: since } },
    orderBy: [{ at: "asc" }, { id: "asc" }],
    select: { action: true, surface: true, outcome: true, agentId: true, conversation: true, turn: true },
  });
}

async function mcpClient(headers: Record<string, string>) {
  const client = new Client({ name: "turns-test", version: "1.0.0" });
  const fetch = async (url: string | URL, init?: RequestInit) => {
    const req = new Request(url, init);
    return req.method === "POST" ? mcpPost(req) : req.method === "DELETE" ? mcpDelete() : mcpGet();
  };
  await client.connect(new StreamableHTTPClientTransport(new URL("http://localhost:3000/mcp"), { requestInit: { headers }, fetch }));
  return client;
}

describe("turn correlation", () => {
  it("names the headers as the spec's X-Service-* family", () => {
    expect(TURN_HEADERS).toEqual({ conversation: CONVERSATION, turn: TURN });
  });

  it("records an MCP session's read and commit under one conversation, kept by a continued session", async () => {
    const since = new Date();
    const first = await call(mintSession, { headers: liveHeaders(t), body: {} });
    const token: string = first.body.session.token;
    const sid = decodeJwt(token).sid as string;
    const client = await mcpClient({ "x-api-key": t.keys.sk, "x-agent": t.agent.handle, authorization: `Bearer ${token}` });
    expect((await client.callTool({ name: "service_profile_read", arguments: {} })).isError ?? false).toBe(false);
    expect((await client.callTool({ name: "service_profile_commit", arguments: commitBody })).isError ?? false).toBe(false);
    await client.close();

    const continued = await call(mintSession, { headers: liveHeaders(t), body: { previous_token: token } });
    expect(continued.body.continued).toBe(true);
    const next = await mcpClient({ "x-api-key": t.keys.sk, "x-agent": t.agent.handle, authorization: `Bearer ${continued.body.session.token}` });
    expect((await next.callTool({ name: "service_profile_read", arguments: {} })).isError ?? false).toBe(false);
    await next.close();

    const expected = mcpCorrelation({ developerId: t.developer.id, plane: "live", agentId: t.agent.id }, sid);
    expect(expected.conversation).toMatch(/^cv_[0-9a-f]{24}$/);
    expect(await entriesSince(since)).toEqual([
      { action: "service_profile_read", surface: "mcp", outcome: "ok", agentId: t.agent.id, ...expected },
      { action: "service_profile_commit", surface: "mcp", outcome: "ok", agentId: t.agent.id, ...expected },
      { action: "service_profile_read", surface: "mcp", outcome: "ok", agentId: t.agent.id, ...expected },
    ]);
  });

  it("records a REST read and commit of one turn under one conversation and turn, the same way, and echoes the headers", async () => {
    const since = new Date();
    const turn1 = { [CONVERSATION]: "conv_42", [TURN]: "turn-1" };
    const read = await call(profileRoute, { headers: liveHeaders(t, turn1), query: { sections: "summary" } });
    expect(read.status).toBe(200);
    expect(read.headers.get(CONVERSATION)).toBe("conv_42");
    expect(read.headers.get(TURN)).toBe("turn-1");
    const search = await call(searchRoute, { headers: liveHeaders(t, turn1), query: { query: "Lisbon" } });
    expect(search.status).toBe(200);
    const commit = await call(commitRoute, { headers: liveHeaders(t, turn1), body: commitBody });
    expect(commit.status).toBe(200);
    expect(commit.headers.get(CONVERSATION)).toBe("conv_42");
    // The next turn of the same conversation; then a call that names no conversation.
    expect((await call(rememberRoute, { headers: liveHeaders(t, { [CONVERSATION]: "conv_42", [TURN]: "turn-2" }), body: { text: "Likes tea" } })).status).toBeLessThan(300);
    const plain = await call(profileRoute, { headers: liveHeaders(t) });
    expect(plain.headers.get(CONVERSATION)).toBeNull();

    const scope = { developerId: t.developer.id, plane: "live" as const, agentId: t.agent.id };
    const one = restCorrelation(scope, { conversation: "conv_42", turn: "turn-1" });
    const two = restCorrelation(scope, { conversation: "conv_42", turn: "turn-2" });
    expect(two.conversation).toBe(one.conversation);
    expect(two.turn).not.toBe(one.turn);
    const rest = { surface: "rest", outcome: "ok", agentId: t.agent.id };
    expect(await entriesSince(since)).toEqual([
      { action: "GET /v1/profile", ...rest, ...one },
      { action: "GET /v1/profile/search", ...rest, ...one },
      { action: "POST /v1/profile/commit", ...rest, ...one },
      { action: "POST /v1/profile/remember", ...rest, ...two },
      { action: "GET /v1/profile", ...rest, conversation: null, turn: null },
    ]);
  });

  it("keeps one developer's ids apart from another's, and from the same developer's other agent and plane", async () => {
    const since = new Date();
    const same = { [CONVERSATION]: "conv_42", [TURN]: "turn-1" };
    expect((await call(profileRoute, { headers: liveHeaders(t, same) })).status).toBe(200);
    expect((await call(profileRoute, { headers: { "x-api-key": b.sk, "x-agent": b.handle, "x-user-id": "user-live", ...same } })).status).toBe(200);
    const entries = await entriesSince(since);
    expect(entries.map((e) => e.agentId)).toEqual([t.agent.id, b.agentId]);
    expect(entries[0]!.conversation).not.toBe(entries[1]!.conversation);
    expect(entries[0]!.turn).not.toBe(entries[1]!.turn);
    expect(entries[1]).toMatchObject(restCorrelation({ developerId: b.developerId, plane: "live", agentId: b.agentId }, { conversation: "conv_42", turn: "turn-1" }));

    const a = restCorrelation({ developerId: t.developer.id, plane: "live", agentId: t.agent.id }, { conversation: "conv_42" });
    expect(restCorrelation({ developerId: t.developer.id, plane: "test", agentId: t.agent.id }, { conversation: "conv_42" }).conversation).not.toBe(a.conversation);
    expect(restCorrelation({ developerId: t.developer.id, plane: "live", agentId: b.agentId }, { conversation: "conv_42" }).conversation).not.toBe(a.conversation);
    // A session id and a REST id that happen to be equal are not one conversation either.
    expect(mcpCorrelation({ developerId: t.developer.id, plane: "live", agentId: t.agent.id }, "conv_42").conversation).not.toBe(a.conversation);
  });

  it("answers 400 naming the header for an empty, long or ill-formed id, or a turn without its conversation, and changes nothing", async () => {
    const prisma = await db();
    const commits = await prisma.commit.count({ where: { userId: t.users.live.id } });
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ [CONVERSATION]: "" }, CONVERSATION, TURN_HEADER_MESSAGES.empty],
      [{ [CONVERSATION]: "c".repeat(TURN_ID_MAX_CHARS + 1) }, CONVERSATION, TURN_HEADER_MESSAGES.tooLong],
      [{ [CONVERSATION]: "conv 42" }, CONVERSATION, TURN_HEADER_MESSAGES.alphabet],
      [{ [CONVERSATION]: "conv/42" }, CONVERSATION, TURN_HEADER_MESSAGES.alphabet],
      [{ [CONVERSATION]: "conv_42", [TURN]: "tür" }, TURN, TURN_HEADER_MESSAGES.alphabet],
      [{ [TURN]: "turn-1" }, TURN, TURN_HEADER_MESSAGES.turnWithoutConversation],
    ];
    for (const [headers, header, message] of cases) {
      const res = await call(commitRoute, { headers: liveHeaders(t, headers), body: commitBody });
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_request", message: `Invalid headers: ${header}.`, fields: [{ field: header, message: `${header} ${message}` }] });
      expect(res.headers.get(CONVERSATION)).toBeNull();
    }
    expect((await call(profileRoute, { headers: liveHeaders(t, { [CONVERSATION]: "a,b" }) })).body.error.fields).toEqual([
      { field: CONVERSATION, message: `${CONVERSATION} ${TURN_HEADER_MESSAGES.alphabet}` },
    ]);
    expect(await prisma.commit.count({ where: { userId: t.users.live.id } })).toBe(commits);
    // A wrong key is still a 401 first: the headers are read only for an authenticated caller.
    expect((await call(profileRoute, { headers: liveHeaders(t, { "x-api-key": t.keys.revoked, [CONVERSATION]: "" }) })).status).toBe(401);
  });

  it("is not used by bulk import: its jobs take the request with the headers (even ill-formed) and record no conversation", async () => {
    const since = new Date();
    const job = await call(importProfiles, {
      headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, [CONVERSATION]: "not a valid id", [TURN]: "turn-1" },
      body: {
        mode: "backfill",
        idempotencyKey: `turns-${Math.random()}`,
        users: [{ externalId: "user-live", profile: { summary: "Works as a carpenter.", preferences: [] }, conversations: [] }],
      },
    });
    expect(job.status).toBe(202);
    expect(job.headers.get(CONVERSATION)).toBeNull();
    await runImportJob(job.body.id);
    expect(await entriesSince(since)).toEqual([{ action: "POST /v1/import/profiles", surface: "rest", outcome: "ok", agentId: t.agent.id, conversation: null, turn: null }]);
  });
});
