// An MCP session token as the whole credential on the developer MCP server: what an LLM API's
// remote-MCP parameter sends (Anthropic's mcp_servers authorization_token, OpenAI's tools[type=mcp]
// headers) is `Authorization: Bearer <token>` and nothing else. Driven by the official MCP SDK client
// over real HTTP against the API's own server (lib/http/node-dispatch.ts): the tools, a profile read
// for the session's person, and the ends of a session — its key revoked (at once here, within the key
// cache's second elsewhere), its key rotated, its agent deactivated.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as mcpRoute from "@/app/mcp/route";
import * as agentsRoute from "@/app/v1/agents/route";
import * as profileRoute from "@/app/v1/profile/route";
import * as rememberRoute from "@/app/v1/profile/remember/route";
import * as sessionRoute from "@/app/v1/profile/mcp-session/route";
import { setAgentActive } from "@/lib/agents/agents";
import { issueApiKey, revokeApiKey, rotateApiKey } from "@/lib/api-keys/api-keys";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { MCP_SESSION_MESSAGES, MCP_SESSION_TTL_SECONDS } from "@/lib/bearer-tokens/mcp-session";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { database } from "@/lib/platform/db";
import { env } from "@/lib/env";
import { MESSAGES } from "@/lib/http/errors";
import { ApiRouter, dispatch } from "@/lib/http/node-dispatch";
import { MCP_CONNECT_FIRST_MESSAGE } from "@/lib/mcp/server";
import { MCP_SERVER_NAME } from "@/lib/profile/mcp-session";
import { createTenant, type Tenant } from "../helpers/fixtures";

const TOOL_NAMES = [
  "service_connect",
  "service_profile_read",
  "service_profile_search",
  "service_profile_remember",
  "service_profile_forget",
  "service_profile_commit",
  "service_profile_import",
];

const router = new ApiRouter([
  { file: "app/mcp/route.ts", module: mcpRoute },
  { file: "app/v1/agents/route.ts", module: agentsRoute },
  { file: "app/v1/profile/route.ts", module: profileRoute },
  { file: "app/v1/profile/remember/route.ts", module: rememberRoute },
  { file: "app/v1/profile/mcp-session/route.ts", module: sessionRoute },
]);

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    void dispatch(router, req, res).then((served) => {
      if (!served) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => resetClockForTests());

async function http(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** POST /v1/profile/mcp-session over HTTP, as a developer's server mints a session for one conversation. */
async function mint(t: Tenant, opts: { key?: string; externalId?: string } = {}) {
  return http("/v1/profile/mcp-session", {
    headers: { "x-api-key": opts.key ?? t.keys.sk, "x-agent": t.agent.handle, "x-user-id": opts.externalId ?? "user-live" },
    body: {},
  });
}

/** The server's URL in mcp_servers is {BASE_URL}/mcp; the test server stands at another address, same path. */
function serverUrl(entry: { url: string }): URL {
  return new URL(new URL(entry.url).pathname, base);
}

/** The official SDK client, configured as a remote-MCP parameter configures it: the token in Authorization, nothing else. */
async function remoteClient(entry: { url: string; authorization_token: string }) {
  const client = new Client({ name: "remote-mcp-parameter", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(serverUrl(entry), { requestInit: { headers: { Authorization: `Bearer ${entry.authorization_token}` } } }));
  return client;
}

/** One JSON-RPC tools/list POST with only these headers: the HTTP answer. */
async function rawList(headers: Record<string, string>) {
  return http("/mcp", {
    headers: { accept: "application/json, text/event-stream", ...headers },
    body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
  });
}

function structured(result: Awaited<ReturnType<Client["callTool"]>>) {
  const r = result as CallToolResult;
  expect(r.isError ?? false).toBe(false);
  return r.structuredContent as any;
}

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

describe("mcp_servers, passed to an LLM API unchanged", () => {
  it("connects with Authorization: Bearer <authorization_token> alone: tools/list and the session's person's profile", async () => {
    // Something only this person's profile holds, written the ordinary way.
    const fact = `I keep bees in Hexham ${Date.now()}`;
    const remembered = await http("/v1/profile/remember", {
      headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "user-live" },
      body: { text: fact, box: "identity" },
    });
    expect(remembered.status).toBe(201);

    const minted = await mint(t);
    expect(minted.status).toBe(200);
    const [entry] = minted.body.mcp_servers;
    expect(entry).toMatchObject({ type: "url", name: MCP_SERVER_NAME, authorization_token: minted.body.session.token });
    expect(new URL(entry.url).pathname).toBe("/mcp");

    const client = await remoteClient(entry);
    const listed = (await client.listTools()).tools.map((x) => x.name);
    expect(listed.slice(0, TOOL_NAMES.length)).toEqual(TOOL_NAMES);
    // The same surface as the keyed way with the same session: a linked session adds the connector tools.
    const keyed = await rawList({ "x-api-key": t.keys.sk, "x-agent": t.agent.handle, authorization: `Bearer ${entry.authorization_token}` });
    expect(listed).toEqual(keyed.body.result.tools.map((x: { name: string }) => x.name));
    expect(listed).toContain("service_gmail_search");
    const read = structured(await client.callTool({ name: "service_profile_read", arguments: {} }));
    expect(read).toMatchObject({ linked: true, livemode: true });
    expect(read.identity.name).toBe(t.users.live.name);
    const found = structured(await client.callTool({ name: "service_profile_search", arguments: { query: "bees Hexham" } }));
    expect(JSON.stringify(found)).toContain(fact);
    const rest = await http("/v1/profile", { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "user-live" } });
    expect(read.identity).toEqual(rest.body.identity);
    await client.close();
  });

  it("an unlinked session alone runs only the connect tool", async () => {
    const minted = await mint(t, { externalId: "user-unapproved" });
    expect(minted.body.linked).toBe(false);
    const client = await remoteClient(minted.body.mcp_servers[0]);
    const read = (await client.callTool({ name: "service_profile_read", arguments: {} })) as CallToolResult;
    expect(read.isError).toBe(true);
    expect((read.content[0] as { text: string }).text).toBe(MCP_CONNECT_FIRST_MESSAGE);
    expect(structured(await client.callTool({ name: "service_connect", arguments: {} })).status).toBe("authorization_required");
    await client.close();
  });

  it("ends within the key cache's second when the key is revoked on another instance, and at once in this one", async () => {
    const tenant = await createTenant();
    const extra = await issueApiKey({ developerId: tenant.developer.id, kind: "secret", plane: "live" });
    const minted = await mint(tenant, { key: extra.key });
    const token = minted.body.session.token;
    const client = await remoteClient(minted.body.mcp_servers[0]);
    structured(await client.callTool({ name: "service_profile_read", arguments: {} }));

    // Another instance revokes the key: nothing clears this process's cache, which holds the key ≤ KEY_CACHE_TTL_MS.
    await (await database()).sql.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [extra.record.id]);
    expect(env().KEY_CACHE_TTL_MS).toBeLessThanOrEqual(1000);
    await new Promise((resolve) => setTimeout(resolve, env().KEY_CACHE_TTL_MS + 50));
    const refused = await rawList({ authorization: `Bearer ${token}` });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toEqual({ code: "invalid_access_token", message: MCP_SESSION_MESSAGES.invalid });
    await expect(client.listTools()).rejects.toThrow(/invalid_access_token/);

    // Revoked in this process: the cache is cleared, so the very next call is refused.
    const other = await issueApiKey({ developerId: tenant.developer.id, kind: "secret", plane: "live" });
    const second = (await mint(tenant, { key: other.key })).body.session.token;
    expect((await rawList({ authorization: `Bearer ${second}` })).status).toBe(200);
    await revokeApiKey({ developerId: tenant.developer.id, idOrPrefix: other.record.id });
    expect((await rawList({ authorization: `Bearer ${second}` })).status).toBe(401);
    // Sessions of the developer's other keys stand.
    expect((await rawList({ authorization: `Bearer ${(await mint(tenant)).body.session.token}` })).status).toBe(200);
  });

  it("ends when the session's agent is deactivated, and works again once it is reactivated", async () => {
    const tenant = await createTenant();
    const token = (await mint(tenant)).body.session.token;
    await setAgentActive({ developerId: tenant.developer.id, handle: tenant.agent.handle, active: false });
    try {
      const refused = await rawList({ authorization: `Bearer ${token}` });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toEqual({ code: "agent_inactive", message: MESSAGES.agentInactive, agent: tenant.agent.handle });
    } finally {
      await setAgentActive({ developerId: tenant.developer.id, handle: tenant.agent.handle, active: true });
    }
    expect((await rawList({ authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it("answers an expired session alone with 401 mcp_session_expired, and an altered one with 401 invalid_access_token", async () => {
    const token = (await mint(t)).body.session.token;
    const [head, body, sig] = token.split(".");
    const payload = JSON.parse(Buffer.from(body, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, sub: "someone-else" })).toString("base64url");
    const altered = await rawList({ authorization: `Bearer ${head}.${forged}.${sig}` });
    expect(altered.status).toBe(401);
    expect(altered.body.error).toEqual({ code: "invalid_access_token", message: MCP_SESSION_MESSAGES.invalid });

    advanceClockForTests((MCP_SESSION_TTL_SECONDS + 1) * 1000);
    const expired = await rawList({ authorization: `Bearer ${token}` });
    expect(expired.status).toBe(401);
    expect(expired.body.error).toEqual({ code: "mcp_session_expired", message: MCP_SESSION_MESSAGES.expired, suggested_action: "reauthenticate" });
  });

  it("takes an X-Agent beside the session only when it names the session's agent", async () => {
    const token = (await mint(t)).body.session.token;
    expect((await rawList({ authorization: `Bearer ${token}`, "x-agent": t.agent.handle })).status).toBe(200);
    const mismatch = await rawList({ authorization: `Bearer ${token}`, "x-agent": "someone-else" });
    expect(mismatch.status).toBe(401);
    expect(mismatch.body.error.code).toBe("invalid_access_token");
  });

  it("still needs the key for everything else: no credential, an agent token, an access token, a non-Bearer header", async () => {
    const { token: agentToken } = await issueAgentToken({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Bearer ${agentToken}` },
      { authorization: "Bearer mcp_at_notatoken" },
      { authorization: "Basic dXNlcjpwYXNz" },
    ]) {
      const res = await rawList(headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body.error).toEqual({ code: "api_key_required", message: MESSAGES.apiKeyRequired });
    }
  });

  it("keeps the keyed way: X-API-Key, X-Agent and the session as Bearer, or X-User-Id", async () => {
    const token = (await mint(t)).body.session.token;
    const res = await rawList({ "x-api-key": t.keys.sk, "x-agent": t.agent.handle, authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(res.body.result.tools.map((x: { name: string }) => x.name).slice(0, TOOL_NAMES.length)).toEqual(TOOL_NAMES);
    const byId = await rawList({ "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "user-live" });
    expect(byId.body.result.tools.map((x: { name: string }) => x.name)).toEqual(TOOL_NAMES);
  });
});

describe("key rotation and MCP sessions", () => {
  it("rotating a key stops its MCP sessions at once and it mints no more, while it keeps its overlap on the API; its replacement mints sessions", async () => {
    const tenant = await createTenant();
    const old = await issueApiKey({ developerId: tenant.developer.id, kind: "secret", plane: "live" });
    const minted = await mint(tenant, { key: old.key });
    const token = minted.body.session.token;
    const keyed = { "x-api-key": tenant.keys.sk, "x-agent": tenant.agent.handle, authorization: `Bearer ${token}` };
    expect((await rawList({ authorization: `Bearer ${token}` })).status).toBe(200);

    const rotated = (await rotateApiKey({ developerId: tenant.developer.id, keyId: old.record.id }))!;
    expect(rotated.oldKeyStopsAt.getTime()).toBeGreaterThan(Date.now());

    // The session minted with the rotated key ends, alone or beside another key.
    const alone = await rawList({ authorization: `Bearer ${token}` });
    expect(alone.status).toBe(401);
    expect(alone.body.error).toEqual({ code: "invalid_access_token", message: MCP_SESSION_MESSAGES.invalid });
    expect((await rawList(keyed)).status).toBe(401);

    // The rotated key mints no session, and says why.
    const refused = await mint(tenant, { key: old.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toEqual({ code: "invalid_api_key", message: MCP_SESSION_MESSAGES.rotatedKey });

    // It still works on the API during its overlap, the MCP server's keyed way included.
    expect((await http("/v1/agents", { headers: { "x-api-key": old.key } })).status).toBe(200);
    expect((await rawList({ "x-api-key": old.key, "x-agent": tenant.agent.handle, "x-user-id": "user-live" })).status).toBe(200);

    // The replacement mints sessions that work alone; a continuation from the ended one starts afresh.
    const next = await http("/v1/profile/mcp-session", {
      headers: { "x-api-key": rotated.key, "x-agent": tenant.agent.handle, "x-user-id": "user-live" },
      body: { previous_token: token },
    });
    expect(next.status).toBe(200);
    expect(next.body.continued).toBe(false);
    const client = await remoteClient(next.body.mcp_servers[0]);
    expect(structured(await client.callTool({ name: "service_profile_read", arguments: {} })).linked).toBe(true);
    await client.close();

    // Revoking the replacement ends its sessions and the key at once.
    await revokeApiKey({ developerId: tenant.developer.id, idOrPrefix: rotated.record.id });
    expect((await rawList({ authorization: `Bearer ${next.body.session.token}` })).status).toBe(401);
    expect((await http("/v1/agents", { headers: { "x-api-key": rotated.key } })).status).toBe(401);
  });
});
