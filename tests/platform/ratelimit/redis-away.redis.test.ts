// Redis away never slows a request (lib/platform/ratelimit): refused, dropped or hanging, each limit
// decides in this process's memory within milliseconds, still limiting; when Redis answers again the
// counts go back to it. Redis is the machine's own, behind a local TCP proxy the test stops, pauses and
// starts again (*.redis.test.ts runs where TEST_REDIS_URL is set).
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { closeRateLimitStore, createLimiter, limitStore, REDIS_CIRCUIT_OPEN_MS, REDIS_COMMAND_TIMEOUT_MS } from "@/lib/platform/ratelimit";
import { resetEnvForTests } from "@/lib/env";
import { startTcpProxy, type TcpProxy } from "../../helpers/tcp-proxy";

const target = new URL(process.env.TEST_REDIS_URL!);
let proxy: TcpProxy;
let direct: Redis;
let n = 0;

beforeAll(async () => {
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  direct = new Redis(process.env.TEST_REDIS_URL!);
});
afterAll(async () => {
  await closeRateLimitStore();
  await proxy.close();
  direct.disconnect();
});

/** A fresh limit of `points` a minute, counted through the proxy. */
async function freshLimit(points: number) {
  await closeRateLimitStore();
  process.env.REDIS_URL = `redis://127.0.0.1:${proxy.port}`;
  resetEnvForTests();
  const name = `away-${process.pid}-${(n += 1)}`;
  return { limiter: createLimiter({ name, points, durationSeconds: 60 }), redisKey: `${process.env.RATE_LIMIT_PREFIX ?? "rl"}:${name}:k` };
}

/** Milliseconds one consume takes, and its answer. */
async function timed(consume: () => Promise<{ allowed: boolean }>) {
  const started = performance.now();
  const result = await consume();
  return { ms: performance.now() - started, allowed: result.allowed };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

afterEach(async () => {
  proxy.resume();
  await proxy.start();
});

describe("rate limits while Redis is away", () => {
  it("count in Redis while it answers, shared by every instance", async () => {
    const { limiter, redisKey } = await freshLimit(3);
    expect((await limiter.consume("k")).allowed).toBe(true);
    expect(limitStore()).toBe("redis");
    expect(Number(await direct.get(redisKey))).toBe(1);
  });

  it("decide in memory within milliseconds once Redis refuses connections, still limiting, and go back to Redis when it returns", async () => {
    const { limiter, redisKey } = await freshLimit(3);
    await limiter.consume("k");
    await proxy.stop();
    expect(await until(() => limitStore() === "memory", 1_000)).toBe(true);
    const answers = [];
    for (let i = 0; i < 20; i += 1) answers.push(await timed(() => limiter.consume("k")));
    // Every answer from memory at once; the limit of 3 still holds there.
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(25);
    expect(answers.slice(0, 3).every((a) => a.allowed)).toBe(true);
    expect(answers.slice(3).every((a) => !a.allowed)).toBe(true);

    await proxy.start();
    // The client reconnects by itself, in the background.
    expect(await until(() => limitStore() === "redis", 5_000)).toBe(true);
    await limiter.consume("k");
    expect(Number(await direct.get(redisKey))).toBe(2);
  });

  it("stop waiting for a Redis that hangs: one request waits the command timeout, then the circuit sends the rest to memory until Redis is tried again", async () => {
    const { limiter, redisKey } = await freshLimit(100);
    await limiter.consume("k");
    expect(limitStore()).toBe("redis");
    proxy.pause();
    const first = await timed(() => limiter.consume("k"));
    expect(first.allowed).toBe(true);
    expect(first.ms).toBeGreaterThanOrEqual(REDIS_COMMAND_TIMEOUT_MS - 5);
    expect(first.ms).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS + 300);
    expect(limitStore()).toBe("memory");
    const rest = [];
    for (let i = 0; i < 50; i += 1) rest.push(await timed(() => limiter.consume("k")));
    expect(Math.max(...rest.map((a) => a.ms))).toBeLessThan(25);

    proxy.resume();
    await new Promise((resolve) => setTimeout(resolve, REDIS_CIRCUIT_OPEN_MS + 50));
    expect(limitStore()).toBe("redis");
    const before = Number(await direct.get(redisKey));
    await limiter.consume("k");
    expect(Number(await direct.get(redisKey))).toBe(before + 1);
  });

  it("never wait at start-up for a Redis that is not there", async () => {
    const { limiter } = await freshLimit(2);
    await proxy.stop();
    await closeRateLimitStore();
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await timed(() => limiter.consume("k")));
    // The first waits for the refused connection (a round trip on this machine), the rest not at all.
    expect(answers[0]!.ms).toBeLessThan(250);
    expect(Math.max(...answers.slice(1).map((a) => a.ms))).toBeLessThan(25);
    expect(answers.map((a) => a.allowed)).toEqual([true, true, false, false, false]);
  });
});
