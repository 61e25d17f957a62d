// POST /v1/profile/mcp-session and the MCP session token: a fresh 15 minutes per mint, continued only
// for the same user, agent, developer and plane, unlinked rather than refused, never stored, and ended
// by its expiry or by revoking or rotating the key that minted it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { decodeJwt } from "jose";
import * as mcp from "@/app/mcp/route";
import { MCP_COMMIT_REQUIRED_CODE } from "@/lib/mcp/server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as route from "@/app/v1/profile/mcp-session/route";
import { createAgent } from "@/lib/agents/agents";
import { issueApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import { MCP_SESSION_MESSAGES, MCP_SESSION_TTL_SECONDS, MCP_SESSION_TOKEN_USE, mcpSessionExpiredError, readMcpSession } from "@/lib/bearer-tokens/mcp-session";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { advanceClockForTests, now, resetClockForTests } from "@/lib/platform/clock";
import { database } from "@/lib/platform/db";
import { errorBody, MESSAGES } from "@/lib/http/errors";
import { MCP_SERVER_NAME, MCP_SESSION_MINT_MESSAGES } from "@/lib/profile/mcp-session";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

const MCP_URL = "http://localhost:3000/mcp";

let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  a = await createTenant();
  b = await createTenant(undefined, "other-agent");
});
afterEach(() => resetClockForTests());

function headers(t: Tenant, extra: Record<string, string | undefined> = {}) {
  return { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "user-live", ...extra };
}

async function mint(h: Record<string, string | undefined>, body: Record<string, unknown> = {}) {
  return call(route.POST, { headers: h, body });
}

describe("POST /v1/profile/mcp-session", () => {
  it("mints a linked session for an approved user, in the shape a remote-MCP parameter takes", async () => {
    const res = await mint(headers(a));
    expect(res.status).toBe(200);
    const { token, expires_at } = res.body.session;
    expect(res.body).toEqual({
      ok: true,
      linked: true,
      continued: false,
      session: { token, expires_at },
      mcp_url: MCP_URL,
      mcp_servers: [{ type: "url", url: MCP_URL, name: MCP_SERVER_NAME, authorization_token: token }],
      livemode: true,
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("signs the user, agent, developer, plane, session id and minting key into a 15-minute token", async () => {
    const res = await mint(headers(a));
    const claims = decodeJwt(res.body.session.token);
    expect(claims).toMatchObject({
      token_use: MCP_SESSION_TOKEN_USE,
      sub: a.users.live.id,
      ext: "user-live",
      dev: a.developer.id,
      aid: a.agent.id,
      agent: a.agent.handle,
      pln: "live",
      aud: "mcp-session",
      iss: "http://localhost:3000",
    });
    expect(claims.sid).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(claims.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.exp! - claims.iat!).toBe(MCP_SESSION_TTL_SECONDS);
    expect(new Date(res.body.session.expires_at).getTime()).toBe(claims.exp! * 1000);
    const read = await readMcpSession(res.body.session.token);
    expect(read).toEqual({
      state: "valid",
      claims: {
        sessionId: claims.sid,
        developerId: a.developer.id,
        agentId: a.agent.id,
        agent: a.agent.handle,
        plane: "live",
        keyId: claims.key,
        userId: a.users.live.id,
        externalId: "user-live",
      },
    });
  });

  it("rule 1: a session lasts 15 minutes, and each mint is a fresh 15 minutes, continued or not", async () => {
    const first = await mint(headers(a));
    advanceClockForTests((MCP_SESSION_TTL_SECONDS - 60) * 1000);
    expect((await readMcpSession(first.body.session.token)).state).toBe("valid");
    const second = await mint(headers(a), { previous_token: first.body.session.token });
    expect(second.body.continued).toBe(true);
    const expiresAt = new Date(second.body.session.expires_at).getTime();
    expect(Math.abs(expiresAt - (now().getTime() + MCP_SESSION_TTL_SECONDS * 1000))).toBeLessThan(2_000);
    advanceClockForTests(60_000);
    expect(await readMcpSession(first.body.session.token)).toEqual({ state: "expired" });
    expect((await readMcpSession(second.body.session.token)).state).toBe("valid");
    advanceClockForTests((MCP_SESSION_TTL_SECONDS - 60) * 1000);
    expect(await readMcpSession(second.body.session.token)).toEqual({ state: "expired" });
  });

  it("rule 2: a valid previous token of the same user, agent, developer and plane keeps its sid", async () => {
    const first = await mint(headers(a));
    advanceClockForTests(1_000);
    const second = await mint(headers(a), { previous_token: first.body.session.token });
    expect(second.status).toBe(200);
    expect(second.body.continued).toBe(true);
    expect(decodeJwt(second.body.session.token).sid).toBe(decodeJwt(first.body.session.token).sid);
    expect(second.body.session.token).not.toBe(first.body.session.token);
    const fresh = await mint(headers(a));
    expect(decodeJwt(fresh.body.session.token).sid).not.toBe(decodeJwt(first.body.session.token).sid);
  });

  it("rule 2: a session minted before the user approved continues once they have, under the same id", async () => {
    const unlinked = await mint(headers(a, { "x-user-id": "user-unapproved" }));
    expect(unlinked.body.linked).toBe(false);
    const { approveAgent, revokeApproval } = await import("@/lib/users/approvals");
    await approveAgent({ userId: a.users.unapproved.id, agentId: a.agent.id });
    try {
      const linked = await mint(headers(a, { "x-user-id": "user-unapproved" }), { previous_token: unlinked.body.session.token });
      expect(linked.body).toMatchObject({ linked: true, continued: true });
      expect(decodeJwt(linked.body.session.token).sid).toBe(decodeJwt(unlinked.body.session.token).sid);
    } finally {
      await revokeApproval({ userId: a.users.unapproved.id, agentId: a.agent.id });
    }
  });

  it("rule 3: an expired or unreadable previous token is no error: a fresh session, continued false", async () => {
    const old = await mint(headers(a));
    advanceClockForTests(MCP_SESSION_TTL_SECONDS * 1000 + 1_000);
    const agentToken = await issueAgentToken({ userId: a.users.live.id, developerId: a.developer.id, agentId: a.agent.id, agent: a.agent.handle, plane: "live" });
    const [head, body] = old.body.session.token.split(".");
    for (const previous of [old.body.session.token, "not-a-token", "a.b.c", agentToken.token, `${head}.${body}.AAAA`, ""]) {
      const res = await mint(headers(a), { previous_token: previous });
      expect(res.status, previous).toBe(200);
      expect(res.body.continued).toBe(false);
      expect(decodeJwt(res.body.session.token).sid).not.toBe(decodeJwt(old.body.session.token).sid);
    }
  });

  it("rule 4: a valid previous token of another user, agent or developer answers 400", async () => {
    const mine = await mint(headers(a));
    const otherUser = await mint(headers(a, { "x-user-id": "user-unapproved" }), { previous_token: mine.body.session.token });
    expect(otherUser.status).toBe(400);
    expect(otherUser.body.error).toEqual({ code: "previous_token_mismatch", message: MCP_SESSION_MINT_MESSAGES.previousTokenMismatch });
    const noUser = await mint(headers(a, { "x-user-id": undefined }), { previous_token: mine.body.session.token });
    expect(noUser.status).toBe(400);

    const second = await createAgent({ developerId: a.developer.id, handle: `second-${Date.now()}`, displayName: "Second" });
    const otherAgent = await mint(headers(a, { "x-agent": second.handle }), { previous_token: mine.body.session.token });
    expect(otherAgent.status).toBe(400);
    expect(otherAgent.body.error.code).toBe("previous_token_mismatch");

    const theirs = await mint(headers(b));
    const otherDeveloper = await mint(headers(a), { previous_token: theirs.body.session.token });
    expect(otherDeveloper.status).toBe(400);
    expect(otherDeveloper.body.error.code).toBe("previous_token_mismatch");
  });

  it("rule 5: the session inherits the key plane; a live previous token with a test key answers 400", async () => {
    const test = await mint(headers(a, { "x-api-key": a.keys.skTest, "x-user-id": "user-test" }));
    expect(test.body).toMatchObject({ linked: true, livemode: false });
    expect(decodeJwt(test.body.session.token)).toMatchObject({ pln: "test", sub: a.users.test.id });
    const testSeesLive = await mint(headers(a, { "x-api-key": a.keys.skTest, "x-user-id": "user-live" }));
    expect(testSeesLive.body.linked).toBe(false);
    expect(decodeJwt(testSeesLive.body.session.token).sub).toBeUndefined();
    const liveSeesTest = await mint(headers(a, { "x-user-id": "user-test" }));
    expect(liveSeesTest.body.linked).toBe(false);

    const live = await mint(headers(a));
    const mixed = await mint(headers(a, { "x-api-key": a.keys.skTest }), { previous_token: live.body.session.token });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.code).toBe("previous_token_mismatch");
  });

  it("rules 6 and 8: a user who has not approved, is unknown or is not named gets an unlinked session carrying no user", async () => {
    for (const userId of ["user-unapproved", "nobody-by-this-id", undefined]) {
      const res = await mint(headers(a, { "x-user-id": userId }));
      expect(res.status, String(userId)).toBe(200);
      expect(res.body).toMatchObject({ ok: true, linked: false, continued: false });
      const claims = decodeJwt(res.body.session.token);
      expect(claims.sub).toBeUndefined();
      expect(claims.ext).toBe(userId);
      const read = await readMcpSession(res.body.session.token);
      expect(read.state === "valid" && read.claims.userId).toBe(undefined);
    }
  });

  it("refuses an X-User-Id too long to carry", async () => {
    const res = await mint(headers(a, { "x-user-id": "u".repeat(257) }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_request", message: MCP_SESSION_MINT_MESSAGES.externalIdTooLong });
  });

  it("refuses publishable keys (401 secret_key_required) and revoked keys (401 invalid_api_key)", async () => {
    for (const pk of [a.keys.pk, a.keys.pkTest]) {
      const res = await mint(headers(a, { "x-api-key": pk }));
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: "secret_key_required", message: MESSAGES.secretKeyRequired });
    }
    const revoked = await mint(headers(a, { "x-api-key": a.keys.revoked }));
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toEqual({ code: "invalid_api_key", message: MESSAGES.invalidApiKey });
  });

  it("answers 400 invalid_request for a previous_token that is not a string", async () => {
    const res = await mint(headers(a), { previous_token: 42 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });

  it("writes nothing to the database", async () => {
    const sql = (await database()).sql;
    const tables = ["users", "agent_approvals", "external_user_ids", "api_keys", "agents", "memories", "commits"];
    const count = async () =>
      Object.fromEntries(await Promise.all(tables.map(async (t) => [t, Number((await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${t}"`))[0]!.n)] as const)));
    const before = await count();
    const first = await mint(headers(a));
    await mint(headers(a), { previous_token: first.body.session.token });
    await mint(headers(a, { "x-user-id": "someone-new" }));
    expect(await count()).toEqual(before);
  });
});

describe("rule 7: the commit cadence applies to sessions", () => {
  it("a continued session keeps the read obligation of the one before: -32009 after 30 minutes without a commit, cleared by the commit", async () => {
    const t = await createTenant();
    const sessionClient = async (token: string) => {
      const client = new Client({ name: "session-cadence", version: "1.0.0" });
      const fetchRoute = async (url: string | URL, init?: RequestInit) => mcp.POST(new Request(url, init));
      await client.connect(
        new StreamableHTTPClientTransport(new URL(MCP_URL), {
          requestInit: { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, authorization: `Bearer ${token}` } },
          fetch: fetchRoute,
        }),
      );
      return client;
    };
    const first = await mint(headers(t));
    const one = await sessionClient(first.body.session.token);
    expect((await one.callTool({ name: "service_profile_read", arguments: {} })).isError ?? false).toBe(false);
    await one.close();
    // 31 minutes on: the first session has expired; its continuation carries the same obligation.
    advanceClockForTests(31 * 60_000);
    await (await database()).sql.query(`UPDATE read_obligations SET opened_at = now() - interval '31 minutes' WHERE user_id = $1 AND agent_id = $2`, [t.users.live.id, t.agent.id]);
    const second = await mint(headers(t), { previous_token: first.body.session.token });
    expect(second.body.continued).toBe(false);
    const continued = await mint(headers(t), { previous_token: second.body.session.token });
    expect(continued.body.continued).toBe(true);
    const two = await sessionClient(continued.body.session.token);
    const refused = await two.callTool({ name: "service_profile_read", arguments: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(MCP_COMMIT_REQUIRED_CODE);
    expect((await two.callTool({ name: "service_profile_commit", arguments: { messages: [{ role: "user", content: "thanks" }] } })).isError ?? false).toBe(false);
    expect((await two.callTool({ name: "service_profile_read", arguments: {} })).isError ?? false).toBe(false);
    await two.close();
  });
});

describe("the MCP session token", () => {
  it("ends for every session a secret key minted when the key is revoked; a continuation starts afresh", async () => {
    const t = await createTenant();
    const rotated = await issueApiKey({ developerId: t.developer.id, kind: "secret", plane: "live" });
    const res = await mint(headers(t, { "x-api-key": rotated.key }));
    const other = await mint(headers(t));
    expect((await readMcpSession(res.body.session.token)).state).toBe("valid");
    await revokeApiKey({ developerId: t.developer.id, idOrPrefix: rotated.record.id });
    expect(await readMcpSession(res.body.session.token)).toEqual({ state: "invalid" });
    expect((await readMcpSession(other.body.session.token)).state).toBe("valid");
    const next = await mint(headers(t), { previous_token: res.body.session.token });
    expect(next.body.continued).toBe(false);
  });

  it("is invalid when altered, re-signed for another audience, or another kind of token", async () => {
    const res = await mint(headers(a));
    const [head, body, sig] = res.body.session.token.split(".");
    const payload = JSON.parse(Buffer.from(body, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, sub: b.users.live.id })).toString("base64url");
    const noneHead = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const agentToken = await issueAgentToken({ userId: a.users.live.id, developerId: a.developer.id, agentId: a.agent.id, agent: a.agent.handle, plane: "live" });
    for (const token of [`${head}.${forged}.${sig}`, `${noneHead}.${body}.`, `${head}.${body}`, agentToken.token, "x".repeat(5_000)]) {
      expect(await readMcpSession(token)).toEqual({ state: "invalid" });
    }
  });

  it("gives the expiry answer: 401 with suggested_action reauthenticate", () => {
    const err = mcpSessionExpiredError();
    expect(err.status).toBe(401);
    expect(errorBody(err, "req_x")).toEqual({
      error: { code: "mcp_session_expired", message: MCP_SESSION_MESSAGES.expired, suggested_action: "reauthenticate" },
      request_id: "req_x",
    });
  });
});
