// GET /v1/me: the endpoint for user-scoped tokens only. The person's own OpenID Connect access token
// answers who it names and what it is; agent tokens, MCP session tokens, X-User-Id and a key alone do not.
import { beforeEach, describe, expect, it } from "vitest";
import { GET as meRoute } from "@/app/v1/me/route";
import { GET as userinfoRoute } from "@/app/oauth/userinfo/route";
import { resolveApiKey } from "@/lib/api-keys/api-keys";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { MESSAGES } from "@/lib/http/errors";
import { ME_MESSAGES } from "@/lib/oidc/me";
import { meResponse } from "@/lib/oidc/schemas";
import { ACCESS_TOKEN_TTL_SECONDS } from "@/lib/oidc/tokens";
import { mintMcpSession } from "@/lib/profile/mcp-session";
import { revokeApproval } from "@/lib/users/approvals";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { exchange, registerClient, revokeCall } from "../helpers/oauth";

let t: Tenant;
let pub: string;
beforeEach(async () => {
  resetClockForTests();
  t = await createTenant();
  pub = (await registerClient(t)).client_id;
});

const me = (headers: Record<string, string>) => call(meRoute, { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, ...headers } });

describe("GET /v1/me", () => {
  it("answers the person the access token names: the same sub as the ID token and userinfo, the token's client, agent, scopes and expiry, and its scoped claims", async () => {
    const tokens = await exchange(pub, t.users.live.id);
    const res = await me({ authorization: `Bearer ${tokens.access_token}` });
    expect(res.status).toBe(200);
    expect(meResponse.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({
      sub: t.users.live.id,
      token_use: "user",
      client_id: pub,
      agent: t.agent.handle,
      scope: tokens.scope,
      name: "Live Person",
      livemode: true,
    });
    expect(new Date(res.body.expires_at).getTime() - Date.now()).toBeGreaterThan((ACCESS_TOKEN_TTL_SECONDS - 60) * 1000);
    expect((await call(userinfoRoute, { headers: { authorization: `Bearer ${tokens.access_token}` } })).body.sub).toBe(res.body.sub);
    // Without the profile scope, no profile claims.
    const narrow = await exchange(pub, t.users.live.id, { scope: "openid" });
    const bare = await me({ authorization: `Bearer ${narrow.access_token}` });
    expect(bare.status).toBe(200);
    expect(bare.body).not.toHaveProperty("name");
  });

  it("refuses an agent token, an MCP session token, X-User-Id and the key alone", async () => {
    const agentToken = await issueAgentToken({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
    const byAgentToken = await me({ authorization: `Bearer ${agentToken.token}` });
    expect(byAgentToken.status).toBe(400);
    expect(byAgentToken.body.error).toEqual({ code: "agent_token_not_allowed", message: ME_MESSAGES.agentTokenNotAllowed });
    const key = (await resolveApiKey(t.keys.sk))!;
    const session = await mintMcpSession({ key, agent: { id: t.agent.id, handle: t.agent.handle, displayName: "Assistant" }, externalId: "user-live" });
    const bySession = await me({ authorization: `Bearer ${session.session.token}` });
    expect(bySession.status).toBe(401);
    expect(bySession.body.error).toEqual({ code: "invalid_access_token", message: MESSAGES.invalidAccessToken });
    for (const headers of [{ "x-user-id": "user-live" }, {}] as Array<Record<string, string>>) {
      const res = await me(headers);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: "user_token_required", message: ME_MESSAGES.accessTokenRequired });
    }
    const tokens = await exchange(pub, t.users.live.id);
    const both = await me({ authorization: `Bearer ${tokens.access_token}`, "x-user-id": "user-live" });
    expect(both.body.error.code).toBe("user_token_required");
  });

  it("answers 401 for a revoked or expired token and 403 once the person revokes the agent", async () => {
    const revoked = await exchange(pub, t.users.live.id);
    await revokeCall(revoked.access_token);
    expect((await me({ authorization: `Bearer ${revoked.access_token}` })).body.error.code).toBe("invalid_access_token");
    const tokens = await exchange(pub, t.users.live.id);
    advanceClockForTests(ACCESS_TOKEN_TTL_SECONDS * 1000 + 1_000);
    expect((await me({ authorization: `Bearer ${tokens.access_token}` })).status).toBe(401);
    resetClockForTests();
    const fresh = await exchange(pub, t.users.live.id);
    await revokeApproval({ userId: t.users.live.id, agentId: t.agent.id });
    const denied = await me({ authorization: `Bearer ${fresh.access_token}` });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toEqual({ code: "agent_not_approved", message: MESSAGES.agentNotApproved });
  });
});
