// Prometheus metrics (lib/platform/metrics.ts): requests by route pattern and status with their
// latency, rate limits counted in memory while Redis is away, text messages and e-mails by outcome,
// the job queues, and shutdown, in Prometheus's text format.
import { describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as ready } from "@/app/api/ready/route";
import { metricsText } from "@/lib/platform/metrics";
import { database } from "@/lib/platform/db";
import { resetEnvForTests } from "@/lib/env";

const scrape = async () => (await metricsText()).body;
/** The value of one sample line, 0 when absent. */
const sample = (text: string, line: string) =>
  Number(
    text
      .split("\n")
      .find((l) => l.startsWith(`${line} `))
      ?.slice(line.length + 1) ?? 0,
  );

describe("GET /metrics's text", () => {
  it("counts requests by route pattern, method and status, with their latency", async () => {
    const before = await scrape();
    await health(new Request("http://localhost:3000/api/health"));
    await health(new Request("http://localhost:3000/api/health"));
    await ready(new Request("http://localhost:3000/api/ready"));
    const after = await scrape();
    const count = 'service_http_requests_total{route="/api/health",method="GET",status="200"}';
    expect(sample(after, count) - sample(before, count)).toBe(2);
    const latency = 'service_http_request_duration_seconds_count{route="/api/health",method="GET"}';
    expect(sample(after, latency) - sample(before, latency)).toBe(2);
    expect(after).toContain("# TYPE service_http_request_duration_seconds histogram");
    expect((await metricsText()).contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it("reads the job queues at each scrape", async () => {
    const { startService } = await import("@/lib/startup");
    await database();
    await startService();
    // The job system made its queues (each process that runs jobs does at start).
    await (await import("@/lib/platform/jobs")).jobs();
    expect(await scrape()).toMatch(/^service_job_queue_ready\{queue="import-jobs"\} \d+$/m);
  });

  it("counts sends by outcome", async () => {
    const { smsDriver } = await import("@/lib/sms");
    const before = await scrape();
    await smsDriver().send({ to: "+15555550123", body: "Your code is 123456" });
    const line = 'service_sms_sent_total{outcome="sent"}';
    expect(sample(await scrape(), line) - sample(before, line)).toBe(1);
  });

  it("counts each rate-limit decision made in memory because Redis is away", async () => {
    const saved = { ...process.env };
    // Port 9 (discard) on loopback: nothing listens, so Redis is away from the start.
    process.env.REDIS_URL = "redis://127.0.0.1:9";
    resetEnvForTests();
    const { closeRateLimitStore, connectRateLimitStore, createLimiter } = await import("@/lib/platform/ratelimit");
    try {
      await closeRateLimitStore();
      await connectRateLimitStore();
      const limiter = createLimiter({ name: "metrics-test", points: 10, durationSeconds: 60 });
      const before = sample(await scrape(), "service_rate_limit_memory_total");
      await limiter.consume("ip:203.0.113.9");
      await limiter.consume("ip:203.0.113.9");
      expect(sample(await scrape(), "service_rate_limit_memory_total") - before).toBe(2);
    } finally {
      await closeRateLimitStore();
      process.env = saved;
      resetEnvForTests();
    }
  });

  it("says when the process began to shut down", async () => {
    expect(sample(await scrape(), "service_shutting_down")).toBe(0);
    const { beginShutdown } = await import("@/lib/platform/health");
    beginShutdown();
    expect(sample(await scrape(), "service_shutting_down")).toBe(1);
  });
});
