// /oauth/* and /v1/sso/* share a per-IP limit of OAUTH_REQUESTS_PER_MINUTE (100 by default).
import { describe, expect, it } from "vitest";

process.env.OAUTH_REQUESTS_PER_MINUTE = "3";

describe("the /v1/sso rate limit", () => {
  it("counts client and origin requests together per IP, then answers 429", async () => {
    const { POST: client } = await import("@/app/v1/sso/client/route");
    const { POST: origins } = await import("@/app/v1/sso/origins/route");
    const { call } = await import("./helpers/http");
    const { createTenant } = await import("./helpers/fixtures");
    const t = await createTenant();
    // Random addresses: with Redis the counters outlive a test run.
    const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250)).join(".")}`;
    const ip = randomIp();
    const body = { publishable_key: t.keys.pk, redirect_uri: "http://localhost/cb" };
    expect((await call(client, { headers: { "x-forwarded-for": ip }, body })).status).toBe(201);
    expect((await call(origins, { headers: { "x-forwarded-for": ip, "x-api-key": t.keys.sk, "x-agent": t.agent.handle }, body: { origin: "https://a.example" } })).status).toBe(200);
    expect((await call(client, { headers: { "x-forwarded-for": ip }, body })).status).toBe(200);
    const limited = await call(client, { headers: { "x-forwarded-for": ip }, body });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(limited.headers.get("retry-after")).toBe(String(limited.body.error.retry_after));
    expect(limited.body.error.retry_after).toBeLessThanOrEqual(60);
    expect((await call(client, { headers: { "x-forwarded-for": randomIp() }, body })).status).toBe(200);
    // Requests with a wrong key count too: the limit is checked before the key.
    const other = randomIp();
    const wrongKey = { "x-forwarded-for": other, "x-api-key": "sk_" + "x".repeat(32), "x-agent": t.agent.handle };
    for (let i = 0; i < 3; i++) expect((await call(origins, { headers: wrongKey, body: { origin: "https://a.example" } })).status).toBe(401);
    expect((await call(origins, { headers: wrongKey, body: { origin: "https://a.example" } })).status).toBe(429);
  });
});
