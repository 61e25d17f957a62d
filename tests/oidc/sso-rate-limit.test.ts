// /oauth/* and /v1/sso/* share a per-IP limit of OAUTH_REQUESTS_PER_MINUTE (100 by default).
import { describe, expect, it } from "vitest";

process.env.OAUTH_REQUESTS_PER_MINUTE = "3";

describe("the /oauth and /v1/sso rate limit", () => {
  it("counts client and origin requests together per IP, then answers 429", async () => {
    const { POST: client } = await import("@/app/v1/sso/client/route");
    const { POST: origins } = await import("@/app/v1/sso/origins/route");
    const { call } = await import("../helpers/http");
    const { createTenant } = await import("../helpers/fixtures");
    const t = await createTenant();
    // Random addresses: with Redis the counters outlive a test run.
    const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250)).join(".")}`;
    const ip = randomIp();
    const body = { publishable_key: t.keys.pk, redirect_uri: "http://localhost/cb" };
    expect((await call(client, { headers: { "x-service-client-ip": ip }, body })).status).toBe(201);
    expect((await call(origins, { headers: { "x-service-client-ip": ip, "x-api-key": t.keys.sk, "x-agent": t.agent.handle }, body: { origin: "https://a.example" } })).status).toBe(
      200,
    );
    expect((await call(client, { headers: { "x-service-client-ip": ip }, body })).status).toBe(200);
    const limited = await call(client, { headers: { "x-service-client-ip": ip }, body });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(limited.headers.get("retry-after")).toBe(String(limited.body.error.retry_after));
    expect(limited.body.error.retry_after).toBeLessThanOrEqual(60);
    expect((await call(client, { headers: { "x-service-client-ip": randomIp() }, body })).status).toBe(200);
    // Requests with a wrong key count too: the limit is checked before the key.
    const other = randomIp();
    const wrongKey = { "x-service-client-ip": other, "x-api-key": "sk_" + "x".repeat(32), "x-agent": t.agent.handle };
    for (let i = 0; i < 3; i++) expect((await call(origins, { headers: wrongKey, body: { origin: "https://a.example" } })).status).toBe(401);
    expect((await call(origins, { headers: wrongKey, body: { origin: "https://a.example" } })).status).toBe(429);
  });

  it("counts /oauth/* requests in the same budget, answering 429 in the OAuth error shape", async () => {
    const { GET: authorize } = await import("@/app/oauth/authorize/route");
    const { POST: token } = await import("@/app/oauth/token/route");
    const { POST: revoke } = await import("@/app/oauth/revoke/route");
    const { GET: userinfo } = await import("@/app/oauth/userinfo/route");
    const { call } = await import("../helpers/http");
    const ip = `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250)).join(".")}`;
    const form = { "x-service-client-ip": ip, "content-type": "application/x-www-form-urlencoded" };
    expect((await call(authorize, { headers: { "x-service-client-ip": ip }, query: { client_id: "oc_x" } })).status).toBe(400);
    expect((await call(token, { headers: form, rawBody: "grant_type=refresh_token" })).status).toBe(400);
    expect((await call(revoke, { headers: form, rawBody: "token=x" })).status).toBe(200);
    for (const res of [
      await call(userinfo, { headers: { "x-service-client-ip": ip, authorization: "Bearer mcp_at_x" } }),
      await call(token, { headers: form, rawBody: "grant_type=refresh_token" }),
    ]) {
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ error: "rate_limited", error_description: expect.any(String) });
      expect(res.headers.get("retry-after")).toBeTruthy();
    }
  });
});
