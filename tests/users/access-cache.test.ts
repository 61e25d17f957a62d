// The user lookups behind X-User-Id and Bearer tokens are cached ≤ 1 s; changes still take effect.
import { describe, expect, it } from "vitest";
import { GET as profile } from "@/app/v1/profile/route";
import { db } from "@/lib/platform/db";
import { MESSAGES } from "@/lib/http/errors";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { approveAgent, revokeApproval } from "@/lib/users/approvals";
import { createUser, linkExternalId } from "@/lib/users/users";
import { createTenant, liveHeaders } from "../helpers/fixtures";
import { call } from "../helpers/http";

describe("user access lookups", () => {
  it("answers 403 at once after a revocation in this process, and 200 again after re-approval", async () => {
    const t = await createTenant();
    expect((await call(profile, { headers: liveHeaders(t) })).status).toBe(200);
    await revokeApproval({ userId: t.users.live.id, agentId: t.agent.id });
    const denied = await call(profile, { headers: liveHeaders(t) });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: "agent_not_approved", message: MESSAGES.agentNotApproved });
    await approveAgent({ userId: t.users.live.id, agentId: t.agent.id });
    expect((await call(profile, { headers: liveHeaders(t) })).status).toBe(200);
  });

  it("sees a revocation made behind the cache's back (another instance) within one second", async () => {
    const t = await createTenant();
    const { token } = await issueAgentToken({ userId: t.users.live.id, agentId: t.agent.id, agent: t.agent.handle, developerId: t.developer.id, plane: "live" });
    const bearer = { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, authorization: `Bearer ${token}` };
    expect((await call(profile, { headers: liveHeaders(t) })).status).toBe(200);
    expect((await call(profile, { headers: bearer })).status).toBe(200);
    await (await db()).agentApproval.updateMany({ where: { userId: t.users.live.id, agentId: t.agent.id }, data: { revokedAt: new Date() } });
    await new Promise((r) => setTimeout(r, 1050));
    expect((await call(profile, { headers: liveHeaders(t) })).status).toBe(403);
    expect((await call(profile, { headers: bearer })).status).toBe(403);
  });

  it("resolves a developer's user id as soon as it is linked, even after a miss was cached", async () => {
    const t = await createTenant();
    const missing = await call(profile, { headers: liveHeaders(t, { "x-user-id": "late-user" }) });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("unknown_user");
    const user = await createUser({ plane: "live" });
    await approveAgent({ userId: user.id, agentId: t.agent.id });
    await linkExternalId({ developerId: t.developer.id, plane: "live", externalId: "late-user", userId: user.id });
    expect((await call(profile, { headers: liveHeaders(t, { "x-user-id": "late-user" }) })).status).toBe(200);
  });
});

describe("TtlCache", () => {
  it("does not keep a value loaded across a clear (a revocation in this process wins)", async () => {
    const { TtlCache } = await import("@/lib/platform/cache");
    const cache = new TtlCache<string>(`test-${Math.random()}`);
    let finish: (v: string) => void = () => undefined;
    const loading = cache.through("k", () => new Promise<string>((resolve) => (finish = resolve)));
    cache.clear();
    finish("old row");
    expect(await loading).toBe("old row");
    expect(cache.get("k")).toBeUndefined();
    expect(await cache.through("k", async () => "new row")).toBe("new row");
    expect(cache.get("k")).toBe("new row");
  });
});

describe("the Authorization header", () => {
  it("is a 401 when present but not a Bearer token, rather than ignored", async () => {
    const t = await createTenant();
    for (const authorization of ["Basic dXNlcjpwYXNz", "Bearer", "Bearer two parts"]) {
      const res = await call(profile, { headers: liveHeaders(t, { authorization }) });
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: "invalid_access_token", message: MESSAGES.invalidAccessToken });
    }
  });
});
