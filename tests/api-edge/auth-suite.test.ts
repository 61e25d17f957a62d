// The shared auth and tenancy suite: it runs over every registered /v1 route, so a new route joins it
// by existing, and over the two MCP surfaces. 401 = bad key, 403 = user has not approved the agent, and no data crosses a plane or a tenant.
import { beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "@/lib/http/errors";
import type { RouteHandler } from "@/lib/http/define-route";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { createTenant, type Tenant } from "../helpers/fixtures";
import fc from "fast-check";
import { inputSchemaOf, valid } from "../helpers/contract-arbitraries";
import { call } from "../helpers/http";
import { samplePath, v1Routes } from "../helpers/routes";
import { exchange, registerClient } from "../helpers/oauth";
import * as developerMcp from "@/app/mcp/route";
import * as personalMcp from "@/app/personal-mcp/route";
import { GET as meRoute } from "@/app/v1/me/route";
import { resolveApiKey } from "@/lib/api-keys/api-keys";
import { env } from "@/lib/env";
import { mintMcpSession } from "@/lib/profile/mcp-session";

const routes = v1Routes();
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  a = await createTenant("tenant-a");
  b = await createTenant("tenant-b", "other-agent");
});

describe("route registry", () => {
  it("finds the /v1 routes", () => {
    expect(routes.length).toBeGreaterThanOrEqual(5);
  });

  it.each(routes.map((r) => [`${r.exportName} ${r.filePath}`, r] as const))("%s is declared with defineRoute", (_, r) => {
    const meta = (r.handler as RouteHandler).meta;
    expect(meta, "every /v1 handler must be made by defineRoute").toBeDefined();
    expect(meta.method).toBe(r.exportName);
    expect(meta.path).toBe(r.filePath);
  });
});

const keyed = routes.filter((r) => (r.handler as RouteHandler).meta?.auth.key !== "none");

describe.each(keyed.map((r) => [`${r.exportName} ${r.filePath}`, r.handler as RouteHandler] as const))("%s", (_, handler) => {
  const { auth } = handler.meta;
  const { path, params } = samplePath(handler.meta.path);
  const send = (headers: Record<string, string | undefined>) => call(handler, { path, params, headers, body: handler.meta.method === "GET" ? undefined : {} });
  const base = () => ({ "x-agent": a.agent.handle, "x-user-id": auth.testPlaneOnly ? "user-test" : "user-live" });

  it("answers 401 api_key_required without a key", async () => {
    const res = await send({ ...base() });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("api_key_required");
    expect(res.body.error.message).toBe(MESSAGES.apiKeyRequired);
    expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
  });

  it.each([
    ["an unknown well-formed key", () => `sk_${"A".repeat(32)}`],
    ["a malformed key", () => "not-a-key"],
    ["a revoked key", () => a.keys.revoked],
  ])("answers 401 invalid_api_key for %s", async (_, key) => {
    const res = await send({ ...base(), "x-api-key": key() });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: "invalid_api_key", message: MESSAGES.invalidApiKey });
  });

  if (auth.key === "secret") {
    it("refuses publishable keys with 401 secret_key_required", async () => {
      const res = await send({ ...base(), "x-api-key": auth.testPlaneOnly ? a.keys.pkTest : a.keys.pk });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("secret_key_required");
    });
  }

  if (auth.testPlaneOnly) {
    it("refuses live keys with 403 sandbox_requires_test_key", async () => {
      const res = await send({ ...base(), "x-api-key": a.keys.sk });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: "sandbox_requires_test_key", message: MESSAGES.sandboxRequiresTestKey });
    });
  }

  const ownKey = () => (auth.testPlaneOnly ? a.keys.skTest : a.keys.sk);

  if (auth.agent) {
    it("needs X-Agent (400), an agent of this developer (404)", async () => {
      const missing = await send({ "x-api-key": ownKey(), "x-user-id": "user-live" });
      expect(missing.status).toBe(400);
      expect(missing.body.error.code).toBe("agent_required");
      const foreign = await send({ "x-api-key": ownKey(), "x-agent": b.agent.handle, "x-user-id": "user-live" });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe("unknown_agent");
    });
  }

  if (auth.user === "token") {
    // The person is resolved once the inputs are valid: a body the contract takes, when sampling finds one
    // (a tool's own refinements may refuse every sample; its request is then refused either way).
    const body = fc.sample(valid(inputSchemaOf(handler.meta.body)), { seed: 1, numRuns: 300 }).find((v) => handler.meta.body!.safeParse(v).success);
    const refused = async (headers: Record<string, string | undefined>, status: number, code: string) => {
      const res = await call(handler, { path, params, headers, body: body ?? {} });
      if (body === undefined && res.body.error.code === "invalid_request") return;
      expect([res.status, res.body.error.code]).toEqual([status, code]);
    };

    it("takes the person by Bearer token only: X-User-Id, or no token, is 400 user_token_required", async () => {
      await refused({ "x-api-key": ownKey(), "x-agent": a.agent.handle, "x-user-id": "user-live" }, 400, "user_token_required");
      await refused({ "x-api-key": ownKey(), "x-agent": a.agent.handle }, 400, "user_token_required");
    });

    it("never resolves a token across key planes or from another developer", async () => {
      const liveToken = await issueAgentToken({ userId: a.users.live.id, developerId: a.developer.id, agentId: a.agent.id, agent: a.agent.handle, plane: "live" });
      await refused({ "x-api-key": a.keys.skTest, "x-agent": a.agent.handle, authorization: `Bearer ${liveToken.token}` }, 401, "invalid_access_token");
      const bToken = await issueAgentToken({ userId: b.users.live.id, developerId: b.developer.id, agentId: b.agent.id, agent: b.agent.handle, plane: "live" });
      await refused({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, authorization: `Bearer ${bToken.token}` }, 401, "invalid_access_token");
    });
  }

  if (auth.user === "required" || auth.user === "optional") {
    it("never resolves a user across key planes", async () => {
      const testSeesLive = await send({ "x-api-key": a.keys.skTest, "x-agent": a.agent.handle, "x-user-id": "user-live" });
      expect(testSeesLive.status).toBe(404);
      expect(testSeesLive.body.error.code).toBe("unknown_user");
      const liveSeesTest = await send({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, "x-user-id": "user-test" });
      expect(liveSeesTest.status).toBe(404);
      const liveToken = await issueAgentToken({ userId: a.users.live.id, developerId: a.developer.id, agentId: a.agent.id, agent: a.agent.handle, plane: "live" });
      const tokenAcrossPlanes = await send({ "x-api-key": a.keys.skTest, "x-agent": a.agent.handle, authorization: `Bearer ${liveToken.token}` });
      expect(tokenAcrossPlanes.status).toBe(401);
      expect(tokenAcrossPlanes.body.error.code).toBe("invalid_access_token");
    });

    it("never resolves another developer's user", async () => {
      const onlyB = await send({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, "x-user-id": "b-only" });
      expect(onlyB.status).toBe(404);
      const bToken = await issueAgentToken({ userId: b.users.live.id, developerId: b.developer.id, agentId: b.agent.id, agent: b.agent.handle, plane: "live" });
      const withBToken = await send({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, authorization: `Bearer ${bToken.token}` });
      expect(withBToken.status).toBe(401);
      expect(withBToken.body.error.code).toBe("invalid_access_token");
    });

    it("answers 403 agent_not_approved for a user who has not approved the agent", async () => {
      const res = await send({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, "x-user-id": "user-unapproved" });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: "agent_not_approved", message: MESSAGES.agentNotApproved });
    });

    if (auth.user === "required") {
      it("answers 400 user_required when no user is named", async () => {
        const res = await send({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("user_required");
      });
    }
  }
});

// GET /v1/me takes user-scoped tokens only: the person's OpenID Connect access token, within the key's
// developer, plane and agent. An agent token never validates there, nor another tenant's access token.
describe("GET /v1/me", () => {
  const me = (headers: Record<string, string>) => call(meRoute, { headers });

  it("answers a token of this developer, plane and agent, and refuses every other tenant's, plane's or agent's", async () => {
    const { client_id } = await registerClient(a);
    const own = await exchange(client_id, a.users.live.id);
    const ok = await me({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, authorization: `Bearer ${own.access_token}` });
    expect(ok.status).toBe(200);
    expect(ok.body.sub).toBe(a.users.live.id);
    for (const headers of [
      { "x-api-key": b.keys.sk, "x-agent": b.agent.handle },
      { "x-api-key": a.keys.skTest, "x-agent": a.agent.handle },
    ]) {
      const res = await me({ ...headers, authorization: `Bearer ${own.access_token}` });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("invalid_access_token");
    }
    const { client_id: bClient } = await registerClient(b);
    const bToken = await exchange(bClient, b.users.live.id);
    expect((await me({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, authorization: `Bearer ${bToken.access_token}` })).status).toBe(401);
  });

  it("never validates an agent token, the key alone, or X-User-Id", async () => {
    const agentToken = await issueAgentToken({ userId: a.users.live.id, developerId: a.developer.id, agentId: a.agent.id, agent: a.agent.handle, plane: "live" });
    const byAgent = await me({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, authorization: `Bearer ${agentToken.token}` });
    expect(byAgent.status).toBe(400);
    expect(byAgent.body.error.code).toBe("agent_token_not_allowed");
    expect((await me({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle })).body.error.code).toBe("user_token_required");
    expect((await me({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, "x-user-id": "user-live" })).body.error.code).toBe("user_token_required");
    // A token alone, with no key: the key is checked first.
    const { client_id } = await registerClient(a);
    const own = await exchange(client_id, a.users.live.id);
    expect((await me({ authorization: `Bearer ${own.access_token}` })).body.error.code).toBe("api_key_required");
  });
});

// The MCP surfaces take the same credentials before any MCP handling: the developer server a secret
// key, X-Agent and the person's token; the personal endpoint only tokens issued to its own clients.
describe("the MCP surfaces", () => {
  const listTools = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  const rpc = (handler: (req: Request) => Promise<Response>, url: string, headers: Record<string, string>) =>
    handler(new Request(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: listTools }));
  const developer = (headers: Record<string, string>) => rpc(developerMcp.POST, "http://localhost:3000/mcp", headers);
  const personal = (headers: Record<string, string>) => rpc(personalMcp.POST, env().MCP_URL, headers);
  const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

  it("developer server: 401 without a key, for a bad or revoked key, and for a publishable key", async () => {
    expect(await codeOf(await developer({ "x-agent": a.agent.handle }))).toBe("api_key_required");
    for (const key of [`sk_${"A".repeat(32)}`, a.keys.revoked]) {
      const res = await developer({ "x-api-key": key, "x-agent": a.agent.handle });
      expect(res.status).toBe(401);
      expect(await codeOf(res)).toBe("invalid_api_key");
    }
    const pk = await developer({ "x-api-key": a.keys.pk, "x-agent": a.agent.handle });
    expect(pk.status).toBe(401);
    expect(await codeOf(pk)).toBe("secret_key_required");
  });

  it("developer server: another developer's agent is 404, their person's token and session 401, across planes 401", async () => {
    const foreignAgent = await developer({ "x-api-key": a.keys.sk, "x-agent": b.agent.handle });
    expect(foreignAgent.status).toBe(404);
    const bToken = await issueAgentToken({ userId: b.users.live.id, developerId: b.developer.id, agentId: b.agent.id, agent: b.agent.handle, plane: "live" });
    const withB = await developer({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, authorization: `Bearer ${bToken.token}` });
    expect(withB.status).toBe(401);
    expect(await codeOf(withB)).toBe("invalid_access_token");
    const bKey = (await resolveApiKey(b.keys.sk))!;
    const bSession = await mintMcpSession({ key: bKey, agent: { id: b.agent.id, handle: b.agent.handle, displayName: "Other" }, externalId: "user-live" });
    expect((await developer({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, authorization: `Bearer ${bSession.session.token}` })).status).toBe(401);
    const aKey = (await resolveApiKey(a.keys.sk))!;
    const liveSession = await mintMcpSession({ key: aKey, agent: { id: a.agent.id, handle: a.agent.handle, displayName: "Assistant" }, externalId: "user-live" });
    expect((await developer({ "x-api-key": a.keys.skTest, "x-agent": a.agent.handle, authorization: `Bearer ${liveSession.session.token}` })).status).toBe(401);
    expect((await developer({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, authorization: `Bearer ${liveSession.session.token}` })).status).toBe(200);
  });

  it("developer server: a session alone acts only as the developer, plane and agent that minted it", async () => {
    const bKey = (await resolveApiKey(b.keys.sk))!;
    const bSession = await mintMcpSession({ key: bKey, agent: { id: b.agent.id, handle: b.agent.handle, displayName: "Other" }, externalId: "user-live" });
    const alone = await developer({ authorization: `Bearer ${bSession.session.token}` });
    expect(alone.status).toBe(200);
    // Naming another developer's agent beside it, or calling with another developer's key, is refused.
    const otherAgent = await developer({ "x-agent": a.agent.handle, authorization: `Bearer ${bSession.session.token}` });
    expect(otherAgent.status).toBe(401);
    expect(await codeOf(otherAgent)).toBe("invalid_access_token");
    expect((await developer({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle, authorization: `Bearer ${bSession.session.token}` })).status).toBe(401);
  });

  it("personal endpoint: a developer's agent token, session or access token is refused with 401 invalid_token", async () => {
    const token = await issueAgentToken({ userId: a.users.live.id, developerId: a.developer.id, agentId: a.agent.id, agent: a.agent.handle, plane: "live" });
    const aKey = (await resolveApiKey(a.keys.sk))!;
    const session = await mintMcpSession({ key: aKey, agent: { id: a.agent.id, handle: a.agent.handle, displayName: "Assistant" }, externalId: "user-live" });
    const { client_id } = await registerClient(a);
    const access = await exchange(client_id, a.users.live.id);
    for (const bearer of [token.token, session.session.token, access.access_token, "mcp_at_unknown"]) {
      const res = await personal({ authorization: `Bearer ${bearer}` });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
    }
    // An API key opens nothing here either: without a token, only the listing of service_connect.
    const keyed = await personal({ "x-api-key": a.keys.sk, "x-agent": a.agent.handle });
    expect(((await keyed.json()) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name)).toEqual(["service_connect"]);
  });
});
