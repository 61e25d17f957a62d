// The developer MCP server at {BASE_URL}/mcp, driven by the official MCP SDK client: credentials
// checked per request before any MCP handling, seven tools listed, personal tools failing closed
// without an approved user or outside an access token's scopes, the body cap, the connect link
// rate limit, and the commit gate as JSON-RPC error -32009.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { DELETE, GET, POST } from "@/app/mcp/route";
import { createAgent } from "@/lib/agents/agents";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { MCP_SESSION_MESSAGES, MCP_SESSION_TTL_SECONDS, mcpSessionExpiredError } from "@/lib/bearer-tokens/mcp-session";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { CONNECT_MINTS_PER_MINUTE } from "@/lib/connect-links/links";
import { db } from "@/lib/platform/db";
import { MESSAGES } from "@/lib/http/errors";
import { MCP_COMMIT_REQUIRED_CODE, MCP_CONNECT_FIRST_MESSAGE } from "@/lib/mcp/server";
import { mintMcpSession } from "@/lib/profile/mcp-session";
import { approveAgent, revokeApproval } from "@/lib/users/approvals";
import { resolveApiKey } from "@/lib/api-keys/api-keys";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { exchange, registerClient } from "../helpers/oauth";

const MCP_URL = "http://localhost:3000/mcp";
const TOOL_NAMES = [
  "service_connect",
  "service_profile_read",
  "service_profile_search",
  "service_profile_remember",
  "service_profile_forget",
  "service_profile_commit",
  "service_profile_import",
];

let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant(undefined, "other-agent");
});
afterEach(() => resetClockForTests());

/** The route handler as the client's fetch: no server runs. Every answer is kept for the assertions. */
function routeFetch(answers: Response[]) {
  return async (url: string | URL, init?: RequestInit) => {
    const req = new Request(url, init);
    const res = req.method === "POST" ? await POST(req) : req.method === "DELETE" ? await DELETE() : await GET();
    answers.push(res.clone());
    return res;
  };
}

function transportFor(headers: Record<string, string>, answers: Response[] = []) {
  return new StreamableHTTPClientTransport(new URL(MCP_URL), { requestInit: { headers }, fetch: routeFetch(answers) });
}

async function connect(headers: Record<string, string>) {
  const client = new Client({ name: "mcp-server-test", version: "1.0.0" });
  await client.connect(transportFor(headers));
  return client;
}

function keyHeaders(tenant: Tenant, extra: Record<string, string> = {}) {
  return { "x-api-key": tenant.keys.sk, "x-agent": tenant.agent.handle, ...extra };
}

async function sessionToken(tenant: Tenant, externalId: string) {
  const key = (await resolveApiKey(tenant.keys.sk))!;
  return mintMcpSession({ key, agent: { id: tenant.agent.id, handle: tenant.agent.handle, displayName: "Assistant" }, externalId });
}

function structured(result: Awaited<ReturnType<Client["callTool"]>>) {
  const r = result as CallToolResult;
  expect(r.isError ?? false).toBe(false);
  expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(r.structuredContent);
  return r.structuredContent as any;
}

function errorText(result: Awaited<ReturnType<Client["callTool"]>>) {
  const r = result as CallToolResult;
  expect(r.isError).toBe(true);
  return (r.content[0] as { text: string }).text;
}

/** Runs every tool once, happy path; returns what each answered. */
async function runAllTools(client: Client) {
  const out: Record<string, any> = {};
  out.connect = structured(await client.callTool({ name: "service_connect", arguments: {} }));
  out.remember = structured(await client.callTool({ name: "service_profile_remember", arguments: { text: "I live in Leeds", box: "identity" } }));
  out.read = structured(await client.callTool({ name: "service_profile_read", arguments: {} }));
  out.readSections = structured(await client.callTool({ name: "service_profile_read", arguments: { sections: ["summary"] } }));
  out.search = structured(await client.callTool({ name: "service_profile_search", arguments: { query: "Leeds", detail: true } }));
  out.importText = structured(await client.callTool({ name: "service_profile_import", arguments: { text: "I work as a nurse in Leeds." } }));
  out.forget = structured(await client.callTool({ name: "service_profile_forget", arguments: { match: "Leeds" } }));
  out.commit = structured(await client.callTool({ name: "service_profile_commit", arguments: { messages: [{ role: "user", content: "thanks" }], sync: true } }));
  return out;
}

describe("the developer MCP server", () => {
  it("lists service_connect and the six profile tools, each described", async () => {
    const client = await connect(keyHeaders(t, { "x-user-id": "user-live" }));
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe("object");
    }
    await client.close();
  });

  it("runs every tool for an approved user named by an MCP session", async () => {
    const minted = await sessionToken(t, "user-live");
    expect(minted.linked).toBe(true);
    const out = await runAllTools(await connect(keyHeaders(t, { authorization: `Bearer ${minted.session.token}` })));
    expect(out.connect).toMatchObject({ status: "import_ready", connect_url: expect.any(String) });
    expect(out.remember).toMatchObject({ saved: true, livemode: true });
    expect(out.read).toMatchObject({ linked: true, livemode: true });
    expect(Object.keys(out.readSections)).toContain("summary");
    expect(out.readSections.identity).toBeUndefined();
    expect(out.search.livemode).toBe(true);
    expect(out.importText.livemode).toBe(true);
    expect(out.forget.livemode).toBe(true);
    expect(out.commit).toMatchObject({ status: "completed", livemode: true });
  });

  it("runs every tool for a user named by X-User-Id, and by an agent token", async () => {
    const byId = await runAllTools(await connect(keyHeaders(t, { "x-user-id": "user-live" })));
    expect(byId.read).toMatchObject({ linked: true });
    const { token } = await issueAgentToken({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
    const byToken = await runAllTools(await connect(keyHeaders(t, { authorization: `Bearer ${token}` })));
    expect(byToken.read).toMatchObject({ linked: true });
    expect(byToken.commit.status).toBe("completed");
  });

  it("fails the personal tools closed for an unlinked session, while service_connect mints a link for its user id", async () => {
    const minted = await sessionToken(t, "user-unapproved");
    expect(minted.linked).toBe(false);
    const client = await connect(keyHeaders(t, { authorization: `Bearer ${minted.session.token}` }));
    expect((await client.listTools()).tools.map((x) => x.name)).toEqual(TOOL_NAMES);
    for (const name of TOOL_NAMES.slice(1)) {
      const args =
        name === "service_profile_remember" || name === "service_profile_import"
          ? { text: "x" }
          : name === "service_profile_forget"
            ? { match: "x" }
            : name === "service_profile_commit"
              ? { memories: ["x"] }
              : {};
      expect(errorText(await client.callTool({ name, arguments: args }))).toBe(MCP_CONNECT_FIRST_MESSAGE);
    }
    const link = structured(await client.callTool({ name: "service_connect", arguments: { purpose: "remember your preferences" } }));
    expect(link).toMatchObject({ status: "authorization_required", connect_url: expect.stringMatching(/^http/) });
    const row = await (
      await db()
    ).connectLink.findFirst({ where: { developerId: t.developer.id, agentId: t.agent.id, reason: "authorization_required" }, orderBy: { createdAt: "desc" } });
    expect(row?.userId).toBe(t.users.unapproved.id);
  });

  it("fails the personal tools closed with no user named, and once the user revokes the agent", async () => {
    const anonymous = await connect(keyHeaders(t));
    expect(errorText(await anonymous.callTool({ name: "service_profile_read", arguments: {} }))).toBe(MCP_CONNECT_FIRST_MESSAGE);
    expect(errorText(await anonymous.callTool({ name: "service_connect", arguments: {} }))).toContain("user_required");
    expect(structured(await anonymous.callTool({ name: "service_connect", arguments: { user_id: "someone-new" } })).status).toBe("authorization_required");

    const minted = await sessionToken(t, "user-live");
    const client = await connect(keyHeaders(t, { authorization: `Bearer ${minted.session.token}` }));
    structured(await client.callTool({ name: "service_profile_search", arguments: { query: "x" } }));
    await revokeApproval({ userId: t.users.live.id, agentId: t.agent.id });
    try {
      expect(errorText(await client.callTool({ name: "service_profile_search", arguments: { query: "x" } }))).toBe(MCP_CONNECT_FIRST_MESSAGE);
      expect(structured(await client.callTool({ name: "service_connect", arguments: {} })).status).toBe("authorization_required");
    } finally {
      await approveAgent({ userId: t.users.live.id, agentId: t.agent.id });
    }
  });

  it("answers a tool error in the /v1 error object for invalid arguments and service errors", async () => {
    const client = await connect(keyHeaders(t, { "x-user-id": "user-live" }));
    expect(JSON.parse(errorText(await client.callTool({ name: "service_profile_remember", arguments: {} }))).error).toMatchObject({ code: "invalid_request" });
    const missing = JSON.parse(errorText(await client.callTool({ name: "service_profile_forget", arguments: { id: "mem_000000000000000000000000", confirm: true } })));
    expect(missing.error.code).toMatch(/not_found|memory_not_owned/);
  });
});

describe("an OpenID Connect access token", () => {
  it("runs a personal tool within the token's scopes and answers a tool error insufficient_scope outside them", async () => {
    const { client_id: clientId } = await registerClient(t);
    const tokens = await exchange(clientId, t.users.live.id, { scope: "openid" });
    expect(tokens.access_token).toMatch(/^mcp_at_/);
    // Every access token is issued with all four profile scopes; the grant is narrowed to one of them.
    const prisma = await db();
    await prisma.oAuthGrant.updateMany({ where: { clientId }, data: { scopes: ["profile.search", "openid"] } });
    const memories = await prisma.memory.count({ where: { userId: t.users.live.id } });
    const client = await connect(keyHeaders(t, { authorization: `Bearer ${tokens.access_token}` }));

    expect(structured(await client.callTool({ name: "service_profile_search", arguments: { query: "Leeds" } })).livemode).toBe(true);
    expect(structured(await client.callTool({ name: "service_connect", arguments: {} })).status).toBe("import_ready");
    const refusals: [string, Record<string, unknown>, string, string][] = [
      ["service_profile_read", {}, "profile.read", "This access token does not carry the scope profile.read."],
      ["service_profile_remember", { text: "I live in York" }, "profile.remember", "This access token does not carry the scope profile.remember."],
      ["service_profile_import", { text: "I work as a nurse in York." }, "profile.remember", "This access token does not carry the scope profile.remember."],
      ["service_profile_forget", { match: "Leeds", confirm: true }, "profile.remember", "This access token does not carry the scope profile.remember."],
      ["service_profile_commit", { memories: ["I live in York"], sync: true }, "profile.commit", "This access token does not carry the scope profile.commit."],
    ];
    for (const [name, args, scope, message] of refusals) {
      expect(JSON.parse(errorText(await client.callTool({ name, arguments: args }))), name).toEqual({ error: { code: "insufficient_scope", message, scope } });
    }
    expect(await prisma.memory.count({ where: { userId: t.users.live.id } })).toBe(memories);
    await client.close();
  });
});

describe("limits", () => {
  it("answers a body over 2 MiB with 413 payload_too_large in the /v1 error shape, and writes nothing", async () => {
    const limit = 2 * 1024 * 1024;
    const prisma = await db();
    const memories = await prisma.memory.count({ where: { userId: t.users.live.id } });
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "service_profile_remember", arguments: { text: "I live in York", padding: "x".repeat(limit) } } };
    const headers = { ...keyHeaders(t, { "x-user-id": "user-live" }), "content-type": "application/json", accept: "application/json, text/event-stream" };
    const bytes = new TextEncoder().encode(JSON.stringify(call));
    const declared = new Request(MCP_URL, { method: "POST", headers: { ...headers, "content-length": String(bytes.byteLength) }, body: bytes });
    const streamed = new Request(MCP_URL, { method: "POST", headers, body: new Blob([bytes]).stream(), duplex: "half" } as RequestInit);
    for (const req of [declared, streamed]) {
      const res = await POST(req);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        error: { code: "payload_too_large", message: MESSAGES.payloadTooLarge, limit_bytes: limit },
        request_id: res.headers.get("x-request-id"),
      });
    }
    expect(await prisma.memory.count({ where: { userId: t.users.live.id } })).toBe(memories);
  });

  it(`answers service_connect past ${CONNECT_MINTS_PER_MINUTE} links a minute per account with a tool error rate_limited`, async () => {
    const fresh = await createTenant(undefined, "limited-agent");
    const client = await connect(keyHeaders(fresh, { "x-user-id": "user-live" }));
    for (let i = 0; i < CONNECT_MINTS_PER_MINUTE; i++) {
      expect(structured(await client.callTool({ name: "service_connect", arguments: {} })).status).toBe("import_ready");
    }
    const limited = JSON.parse(errorText(await client.callTool({ name: "service_connect", arguments: {} })));
    expect(limited).toEqual({ error: { code: "rate_limited", message: MESSAGES.rateLimited, retry_after: expect.any(Number) } });
    expect(limited.error.retry_after).toBeGreaterThan(0);
    await client.close();
    // The limit is the account's: another developer still mints.
    const unaffected = await connect(keyHeaders(other, { "x-user-id": "user-live" }));
    expect(structured(await unaffected.callTool({ name: "service_connect", arguments: {} })).status).toBe("import_ready");
    await unaffected.close();
  });
});

describe("credentials", () => {
  async function refused(headers: Record<string, string>) {
    const answers: Response[] = [];
    const client = new Client({ name: "mcp-server-test", version: "1.0.0" });
    await expect(client.connect(transportFor(headers, answers))).rejects.toThrow();
    const res = answers[0]!;
    return { status: res.status, body: await res.json() };
  }

  it("refuses a bad key, a publishable key and a bad agent before any MCP handling", async () => {
    const bad = await refused(keyHeaders(t, { "x-api-key": "sk_live_nope" }));
    expect(bad.status).toBe(401);
    expect(bad.body.error).toMatchObject({ code: "invalid_api_key", message: MESSAGES.invalidApiKey });
    expect(bad.body.request_id).toEqual(expect.any(String));
    expect((await refused(keyHeaders(t, { "x-api-key": t.keys.revoked }))).status).toBe(401);
    expect((await refused(keyHeaders(t, { "x-api-key": t.keys.pk }))).body.error.code).toBe("secret_key_required");
    expect((await refused({ "x-api-key": t.keys.sk })).status).toBe(400);
    expect((await refused(keyHeaders(t, { "x-agent": "nobody" }))).status).toBe(404);
    const junk = await refused(keyHeaders(t, { authorization: "Bearer junk" }));
    expect(junk.status).toBe(401);
    expect(junk.body.error.code).toBe("invalid_access_token");
  });

  it("answers an expired session with 401 and suggested_action reauthenticate", async () => {
    const minted = await sessionToken(t, "user-live");
    advanceClockForTests((MCP_SESSION_TTL_SECONDS + 1) * 1000);
    const res = await refused(keyHeaders(t, { authorization: `Bearer ${minted.session.token}` }));
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ code: "mcp_session_expired", message: MCP_SESSION_MESSAGES.expired, suggested_action: "reauthenticate" });
    expect(res.body.error).toEqual({ code: mcpSessionExpiredError().code, message: mcpSessionExpiredError().message, ...mcpSessionExpiredError().extras });
  });

  it("refuses a session of another developer, another plane or another agent", async () => {
    const foreign = await sessionToken(other, "user-live");
    const res = await refused(keyHeaders(t, { authorization: `Bearer ${foreign.session.token}` }));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_access_token");
    const live = await sessionToken(t, "user-live");
    expect((await refused(keyHeaders(t, { "x-api-key": t.keys.skTest, authorization: `Bearer ${live.session.token}` }))).status).toBe(401);
    const second = await createAgent({ developerId: t.developer.id, handle: "second", displayName: "Second" });
    await approveAgent({ userId: t.users.live.id, agentId: second.id });
    expect((await refused(keyHeaders(t, { "x-agent": "second", authorization: `Bearer ${live.session.token}` }))).status).toBe(401);
  });

  it("answers GET and DELETE with 405 and Allow: POST", async () => {
    for (const res of [await GET(), await DELETE()]) {
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });
});

describe("the commit gate", () => {
  async function ageObligation(minutes: number) {
    await (
      await db()
    ).readObligation.updateMany({
      where: { userId: t.users.live.id, agentId: t.agent.id },
      data: { openedAt: new Date(Date.now() - minutes * 60_000) },
    });
  }

  it("refuses reads with JSON-RPC error -32009 after 30 minutes without a commit, until service_profile_commit", async () => {
    const client = await connect(keyHeaders(t, { "x-user-id": "user-live" }));
    structured(await client.callTool({ name: "service_profile_read", arguments: {} }));
    await ageObligation(31);
    for (const name of ["service_profile_read", "service_profile_search"]) {
      const err = await client.callTool({ name, arguments: {} }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(MCP_COMMIT_REQUIRED_CODE);
      expect((err as McpError).message).toContain("commit_required");
      expect((err as McpError).data).toMatchObject({ code: "commit_required", suggested_action: "commit" });
    }
    structured(await client.callTool({ name: "service_profile_commit", arguments: { messages: [{ role: "user", content: "thanks" }] } }));
    structured(await client.callTool({ name: "service_profile_read", arguments: {} }));
  });
});

describe("protocol versions", () => {
  it("initializes a client speaking 2025-03-26", async () => {
    const transport = transportFor(keyHeaders(t, { "x-user-id": "user-live" }));
    const answers: JSONRPCMessage[] = [];
    transport.onmessage = (m) => answers.push(m);
    await transport.start();
    await transport.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "old-client", version: "0.1.0" } },
    });
    expect(answers[0]).toMatchObject({ id: 1, result: { protocolVersion: "2025-03-26", serverInfo: { name: "profile-service" } } });
    await transport.close();
  });
});
