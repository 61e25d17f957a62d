// POST /v1/profile/link: an OpenID Connect user linked to the developer's own user id, then read
// with X-API-Key, X-Agent and X-User-Id alone; every row of the Linking error table.
import { beforeEach, describe, expect, it } from "vitest";
import { POST as linkRoute } from "@/app/v1/profile/link/route";
import { GET as profileRoute } from "@/app/v1/profile/route";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { MESSAGES } from "@/lib/http/errors";
import { LINK_MESSAGES } from "@/lib/oidc/link";
import { ACCESS_TOKEN_TTL_SECONDS } from "@/lib/oidc/tokens";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { createUser } from "@/lib/users/users";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { exchange, registerClient, revokeCall } from "../helpers/oauth";

let t: Tenant;
let clientId: string;
beforeEach(async () => {
  resetClockForTests();
  t = await createTenant();
  clientId = (await registerClient(t)).client_id;
});

const link = (headers: Record<string, string | undefined>, body?: unknown) =>
  call(linkRoute, { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, ...headers }, body: body ?? {} });

describe("POST /v1/profile/link", () => {
  it("links the signed-in user to the developer's id; the profile is then read with X-User-Id alone", async () => {
    const person = await createUser({ plane: "live", name: "Signed In" });
    const tokens = await exchange(clientId, person.id);
    const before = await call(profileRoute, { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "acct-42" } });
    expect(before.status).toBe(404);
    const res = await link({ "x-user-id": "acct-42", authorization: `Bearer ${tokens.access_token}` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ linked: true, user_id: "acct-42", sub: person.id });
    const after = await call(profileRoute, { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "acct-42" } });
    expect(after.status).toBe(200);
  });

  it("takes the access token in the body too", async () => {
    const tokens = await exchange(clientId, t.users.live.id);
    const res = await link({ "x-user-id": "acct-body" }, { access_token: tokens.access_token });
    expect(res.status).toBe(200);
  });

  it("400 link_requires_external_user without X-User-Id", async () => {
    const tokens = await exchange(clientId, t.users.live.id);
    const res = await link({ authorization: `Bearer ${tokens.access_token}` });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "link_requires_external_user", message: LINK_MESSAGES.externalUserRequired });
  });

  it("400 agent_token_not_allowed for an agent token", async () => {
    const { token } = await issueAgentToken({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
    const res = await link({ "x-user-id": "acct-1", authorization: `Bearer ${token}` });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "agent_token_not_allowed", message: LINK_MESSAGES.agentTokenNotAllowed });
  });

  it("401 invalid_access_token for an unknown, expired, revoked, missing or other-plane token", async () => {
    const tokens = await exchange(clientId, t.users.live.id);
    for (const bad of ["mcp_at_unknown", "not-a-token"]) {
      const res = await link({ "x-user-id": "acct-1", authorization: `Bearer ${bad}` });
      expect(res.status, bad).toBe(401);
      expect(res.body.error).toEqual({ code: "invalid_access_token", message: MESSAGES.invalidAccessToken });
    }
    const missing = await link({ "x-user-id": "acct-1" });
    expect(missing.status).toBe(401);
    expect(missing.body.error).toEqual({ code: "invalid_access_token", message: LINK_MESSAGES.accessTokenRequired });

    const testClient = (await registerClient(t, { pk: t.keys.pkTest })).client_id;
    const testTokens = await exchange(testClient, t.users.test.id);
    expect((await link({ "x-user-id": "acct-1", authorization: `Bearer ${testTokens.access_token}` })).status).toBe(401);
    expect(
      (
        await call(linkRoute, {
          headers: { "x-api-key": t.keys.skTest, "x-agent": t.agent.handle, "x-user-id": "acct-t", authorization: `Bearer ${testTokens.access_token}` },
          body: {},
        })
      ).status,
    ).toBe(200);

    advanceClockForTests(ACCESS_TOKEN_TTL_SECONDS * 1000 - 5_000);
    expect((await link({ "x-user-id": "acct-1", authorization: `Bearer ${tokens.access_token}` })).status).toBe(200);
    advanceClockForTests(10_000);
    const expired = await link({ "x-user-id": "acct-1", authorization: `Bearer ${tokens.access_token}` });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe("invalid_access_token");
    resetClockForTests();

    const fresh = await exchange(clientId, t.users.live.id);
    await revokeCall(fresh.access_token);
    expect((await link({ "x-user-id": "acct-1", authorization: `Bearer ${fresh.access_token}` })).status).toBe(401);
  });

  it("403 client_not_owned when another developer's client issued the token", async () => {
    const other = await createTenant();
    const otherClient = (await registerClient(other)).client_id;
    const tokens = await exchange(otherClient, t.users.live.id);
    const res = await link({ "x-user-id": "acct-1", authorization: `Bearer ${tokens.access_token}` });
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: "client_not_owned", message: LINK_MESSAGES.clientNotOwned });
  });

  it("needs the secret key and the agent like every server-side route", async () => {
    const tokens = await exchange(clientId, t.users.live.id);
    const noKey = await call(linkRoute, { headers: { "x-agent": t.agent.handle, "x-user-id": "a", authorization: `Bearer ${tokens.access_token}` }, body: {} });
    expect(noKey.status).toBe(401);
    const publishable = await call(linkRoute, {
      headers: { "x-api-key": t.keys.pk, "x-agent": t.agent.handle, "x-user-id": "a", authorization: `Bearer ${tokens.access_token}` },
      body: {},
    });
    expect(publishable.status).toBe(401);
  });
});
