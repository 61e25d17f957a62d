// The per-IP limit on POST /v1/sandbox/provision: 429 rate_limited with retry_after and Retry-After.
import { describe, expect, it } from "vitest";

process.env.SANDBOX_PROVISION_PER_HOUR = "2";

describe("sandbox provision rate limit", () => {
  it("allows SANDBOX_PROVISION_PER_HOUR per IP, then answers 429", async () => {
    const { POST } = await import("@/app/v1/sandbox/provision/route");
    const { call } = await import("../helpers/http");
    const { db } = await import("@/lib/platform/db");
    // Random addresses: with Redis the counters outlive a test run.
    const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250)).join(".")}`;
    const ip = randomIp();
    const headers = { "x-service-client-ip": ip };
    expect((await call(POST, { headers })).status).toBe(201);
    expect((await call(POST, { headers })).status).toBe(201);
    const before = await (await db()).developer.count();
    const limited = await call(POST, { headers });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(limited.body.error.retry_after).toBeGreaterThan(0);
    expect(limited.body.error.retry_after).toBeLessThanOrEqual(3600);
    expect(limited.headers.get("retry-after")).toBe(String(limited.body.error.retry_after));
    expect(await (await db()).developer.count()).toBe(before);
    // Another address has its own allowance.
    expect((await call(POST, { headers: { "x-service-client-ip": randomIp() } })).status).toBe(201);
  });
});
