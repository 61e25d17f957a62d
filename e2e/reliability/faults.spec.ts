// Two instances and a worker behind HAProxy on PostgreSQL and Redis (cluster.ts), under faults: an
// instance killed outright, PostgreSQL cut off, Redis away, SIGTERM under load, two refreshes of one
// token racing on both instances, and a sign-in whose steps land on both. Run by
// playwright.reliability.config.ts on the PostgreSQL leg of npm test (it needs TEST_DATABASE_URL,
// TEST_REDIS_URL and HAProxy).
import { execFileSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, test } from "@playwright/test";
import { Redis } from "ioredis";
import { startRelyingParty, type RelyingParty } from "../support/rp";
import { SHUTDOWN_TIMEOUT_MS, startCluster, type Cluster } from "./cluster";
import { inRequestLog, kept, settle, statuses, underLoad, type Kept, type Outcome, type Writer } from "./load";

test.describe.configure({ mode: "serial" });

let cluster: Cluster;
let writer: Writer;
let sandbox: { secret_key: string; publishable_key: string; agent: { handle: string }; user: { id: string; external_id: string; phone: string; verification_code: string } };
let rp: RelyingParty;
const CONCURRENCY = 6;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  cluster = await startCluster(process.env.TEST_DATABASE_URL!, process.env.TEST_REDIS_URL!);
  const res = await fetch(`${cluster.url}/v1/sandbox/provision`, { method: "POST" });
  expect(res.status).toBe(201);
  sandbox = (await res.json()) as typeof sandbox;
  writer = { url: cluster.url, secretKey: sandbox.secret_key, agent: sandbox.agent.handle, userId: sandbox.user.id, externalId: sandbox.user.external_id };
  rp = await startRelyingParty({ issuer: cluster.url, publishableKey: sandbox.publishable_key, secretKey: sandbox.secret_key, agent: sandbox.agent.handle });
});

test.afterAll(async () => {
  await rp?.close();
  await cluster?.close();
});

// eslint-disable-next-line no-empty-pattern -- Playwright reads a hook's fixtures from this pattern; this one needs none
test.afterEach(async ({}, info) => {
  if (info.status !== info.expectedStatus) await info.attach("processes", { body: cluster.logs(), contentType: "text/plain" });
});

const keptNow = () => kept(cluster.db, writer.userId);
const count = (k: Kept) => [...k.byText.values()].reduce((n, ids) => n + ids.length, 0);

/**
 * What every experiment asserts of its writes: each acknowledged write kept once, under the id it was
 * answered with; no write kept twice; a refused write kept only when the database was cut off while it
 * committed (its outcome unknown to the server, which answered 503), and then sending it again answers
 * the memory kept, never a second one; every refusal a 503 with Retry-After (or,
 * where `lostInFlight` allows, for a request an instance died while answering, HAProxy's 502 or the
 * connection closed without an answer: a write is not sent twice, its client decides); the
 * access log counts each kept write; the request log holds each acknowledged request, but for those
 * `mayMissLog` excuses.
 */
async function expectWritesKept(outcomes: Outcome[], before: Kept, opts: { lostInFlight?: boolean; mayMissLog?: (o: Outcome) => boolean } = {}) {
  const acknowledged = outcomes.filter((o) => o.status === 201);
  expect(acknowledged.length, JSON.stringify(statuses(outcomes))).toBeGreaterThan(20);
  for (const o of acknowledged) expect(o.memoryId, o.text).toMatch(/^mem_/);
  const refused = outcomes.filter((o) => o.status !== 201);
  for (const o of refused) {
    if (o.status === 503) expect(o.retryAfter, `503 without Retry-After: ${o.text}`).toMatch(/^\d+$/);
    else if ((o.status === 502 || o.status === 0) && opts.lostInFlight) continue;
    else throw new Error(`unexpected answer ${o.status} ${o.error ?? ""} (${JSON.stringify(statuses(outcomes))})`);
  }
  if (opts.lostInFlight) expect(refused.filter((o) => o.status === 502 || o.status === 0).length).toBeLessThanOrEqual(CONCURRENCY);

  // The logs are written in batches after the answers (and retried while the database was away).
  const excused = opts.mayMissLog ? acknowledged.filter((o) => opts.mayMissLog!(o)).length : 0;
  const refused503 = refused.filter((r) => r.status === 503);
  const keptAfterRefusal = (k: Kept) => refused503.filter((o) => k.byText.has(o.text));
  const after = await settle(keptNow, (k) => k.accessLogOk - before.accessLogOk >= count(k) - count(before) - excused - keptAfterRefusal(k).length, 20_000);
  for (const o of acknowledged) expect(after.byText.get(o.text), `acknowledged write lost: ${o.text}`).toEqual([o.memoryId]);
  for (const [text, ids] of after.byText) expect(ids.length, `kept twice: ${text}`).toBe(1);
  // Only a write in flight when the connection was cut can have committed unanswered: one per agent at most.
  const unknown = keptAfterRefusal(after);
  expect(unknown.length, "refused writes kept").toBeLessThanOrEqual(CONCURRENCY);
  for (const o of unknown) {
    const again = await fetch(`${writer.url}/v1/profile/remember`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": writer.secretKey, "x-agent": writer.agent, "x-user-id": writer.externalId },
      body: JSON.stringify({ text: o.text }),
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ saved: false, memory: { id: after.byText.get(o.text)![0] } });
  }
  const written = count(after) - count(before);
  const logged = after.accessLogOk - before.accessLogOk;
  const wanted = acknowledged.filter((o) => !opts.mayMissLog?.(o)).map((o) => o.requestId!);
  const inLog = await settle(
    () => inRequestLog(cluster.db, wanted),
    (s) => s.size === wanted.length,
    20_000,
  );
  const missing = wanted.filter((id) => !inLog.has(id));
  expect(missing, "acknowledged requests missing from the request log").toEqual([]);
  // Each write sent again above was a call that succeeded, and the access log records it too: waited
  // for here, so its line is not counted in the next experiment.
  if (unknown.length) {
    const resent = await settle(keptNow, (k) => k.accessLogOk >= after.accessLogOk + unknown.length, 20_000);
    expect(resent.accessLogOk, "the access log's lines for the writes sent again").toBe(after.accessLogOk + unknown.length);
  }
  if (opts.mayMissLog) {
    expect(logged).toBeGreaterThanOrEqual(written - excused);
  } else {
    // A write kept after its refusal ended, as far as the service knew, in the refusal.
    expect(logged, "the access log's successful writes against the writes kept").toBeLessThanOrEqual(written);
    expect(logged, "the access log's successful writes against the writes kept").toBeGreaterThanOrEqual(written - unknown.length);
  }
  return { acknowledged: acknowledged.length, keptAfterRefusal: unknown.length, statuses: statuses(outcomes), slowestMs: Math.round(Math.max(...outcomes.map((o) => o.ms))) };
}

test("a sign-in whose steps land on both instances finishes, and the relying party reads the profile", async ({ page }) => {
  const servedBy = new Set<string>();
  page.on("response", (res) => {
    const type = res.request().resourceType();
    if (res.url().startsWith(cluster.url) && (type === "document" || type === "fetch")) {
      const server = res.headers()["x-served-by"];
      if (server) servedBy.add(server);
    }
  });
  await page.goto(`${rp.url}/login`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("Mobile number").fill(sandbox.user.phone);
  await page.getByRole("button", { name: "Text me a code" }).click();
  await page.getByLabel("Six-digit code").fill(sandbox.user.verification_code);
  await page.getByRole("button", { name: /^Continue to / }).click();
  await page.getByRole("button", { name: /^Return to / }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signed in");
  expect(await page.getByTestId("sub").innerText()).toBe(sandbox.user.id);
  expect(await page.getByTestId("profile-status").innerText()).toBe("200");
  expect([...servedBy].sort()).toEqual(["instance1", "instance2"]);
});

test("two refreshes of one token racing on both instances get the same successor, and the chain goes on", async () => {
  let refreshToken = rp.lastTokens()?.refresh_token;
  expect(refreshToken).toMatch(/^mcp_rt_/);
  const refresh = (instanceUrl: string, token: string) =>
    fetch(`${instanceUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: rp.clientId }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { access_token?: string; refresh_token?: string; error_description?: string } }));
  for (let round = 0; round < 10; round++) {
    const [a, b] = await Promise.all([refresh(cluster.instances[0]!.url, refreshToken!), refresh(cluster.instances[1]!.url, refreshToken!)]);
    expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
    expect(b.body.refresh_token).toBe(a.body.refresh_token);
    expect(b.body.access_token).toBe(a.body.access_token);
    refreshToken = a.body.refresh_token!;
  }
  // The last pair works: its access token reads the profile, through either instance.
  const last = await refresh(cluster.url, refreshToken!);
  expect(last.status).toBe(200);
  for (const instance of cluster.instances) {
    const profile = await fetch(`${instance.url}/v1/profile`, {
      headers: { "x-api-key": sandbox.secret_key, "x-agent": sandbox.agent.handle, authorization: `Bearer ${last.body.access_token}` },
    });
    expect(profile.status).toBe(200);
  }
});

test("an instance of two processes shares its port between them and serves the metrics of both", async () => {
  const instance = cluster.instances[1]!;
  expect(instance.output).toContain(`Service listening on http://localhost:${instance.port} (2 processes)`);
  // npm, scripts/start.mjs, the primary (scripts/server.mjs) and its two server processes, one group.
  const group = execFileSync("ps", ["-o", "args=", "-g", String(instance.child.pid)], { encoding: "utf8" });
  expect(group.split("\n").filter((l) => l.includes("scripts/server.mjs")).length).toBe(3);

  const line = 'service_http_requests_total{route="/v1/profile/remember",method="POST",status="201"}';
  const read = async () => {
    const text = await (await fetch(instance.metricsUrl)).text();
    return Number(
      text
        .split("\n")
        .find((l) => l.startsWith(`${line} `))
        ?.slice(line.length + 1) ?? 0,
    );
  };
  const before = await read();
  const outcomes = await underLoad(writer, "metrics", 2_000, []);
  const served = outcomes.filter((o) => o.status === 201 && o.servedBy === instance.server).length;
  expect(served).toBeGreaterThan(5);
  expect((await read()) - before).toBe(served);
  const text = await (await fetch(instance.metricsUrl)).text();
  expect(text).toMatch(/^service_db_pool_processes 2$/m);
  expect(text).toMatch(/^service_shutting_down 0$/m);
});

test("kill -9 of an instance under load: nothing acknowledged is lost, and it rejoins", async () => {
  const before = await keptNow();
  const [victim] = cluster.instances;
  let killedAt = 0;
  const outcomes = await underLoad(writer, "kill", 7_000, [
    [
      2_000,
      async () => {
        killedAt = performance.now();
        await victim!.kill9();
      },
    ],
    [4_000, () => void victim!.start()],
  ]);
  // What the instance held of its logs and had not yet written goes with it (docs/operations.md): at
  // most its last moments' rows. Every other acknowledged request is in the request log.
  const result = await expectWritesKept(outcomes, before, {
    lostInFlight: true,
    mayMissLog: (o) => o.servedBy === victim!.server && o.endedAt > killedAt - 1_000 && o.endedAt <= killedAt,
  });
  console.log(`kill -9: ${JSON.stringify(result)}`);
  await cluster.restart(victim!);
});

test("PostgreSQL cut off for 6 s under load: refusals are 503 with Retry-After, nothing acknowledged is lost, both logs complete", async () => {
  const before = await keptNow();
  let restoredAt = 0;
  const outcomes = await underLoad(writer, "postgres", 12_000, [
    [2_000, () => cluster.postgres.stop()],
    [
      8_000,
      async () => {
        await cluster.postgres.start();
        restoredAt = performance.now();
      },
    ],
  ]);
  const result = await expectWritesKept(outcomes, before);
  expect(result.statuses["503"] ?? 0, "the outage was seen").toBeGreaterThan(0);
  // Served again soon after PostgreSQL is back: the pools reconnect by themselves.
  const firstAfter = outcomes.filter((o) => o.status === 201 && o.startedAt > restoredAt).sort((a, b) => a.startedAt - b.startedAt)[0];
  expect(firstAfter, "a write succeeded after PostgreSQL came back").toBeDefined();
  console.log(`PostgreSQL cut off: ${JSON.stringify({ ...result, servedAgainAfterMs: Math.round(firstAfter!.endedAt - restoredAt) })}`);
});

test("Redis away under load: no request waits for it, limits still count, and the counts return to Redis", async () => {
  const redis = new Redis(process.env.TEST_REDIS_URL!, { lazyConnect: true });
  await redis.connect();
  /** The sum of this run's counters in Redis. */
  const counted = async () => {
    const keys = await redis.keys(`${cluster.rateLimitPrefix}:*`);
    const values = keys.length ? await redis.mget(keys) : [];
    return values.reduce((n, v) => n + Number(v ?? 0), 0);
  };
  // A rate-limited route (POST /oauth/token counts per address before anything else), called alongside the writes.
  const limited: Array<{ status: number; ms: number }> = [];
  let done = false;
  const tokenCalls = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${cluster.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "mcp_rt_unknown", client_id: rp.clientId }),
      });
      await res.arrayBuffer();
      limited.push({ status: res.status, ms: performance.now() - started });
    }
  })();
  try {
    const before = await keptNow();
    const countedBefore = await counted();
    expect(countedBefore).toBeGreaterThan(0);
    const outcomes = await underLoad(writer, "redis", 10_000, [[1_000, () => cluster.redis.stop()]]);
    done = true;
    await tokenCalls;
    const result = await expectWritesKept(outcomes, before);
    expect(result.statuses).toEqual({ "201": result.acknowledged });
    expect(limited.length).toBeGreaterThan(20);
    expect(new Set(limited.map((l) => l.status))).toEqual(new Set([400]));
    const slowest = Math.max(result.slowestMs, ...limited.map((l) => l.ms));
    expect(slowest, "the slowest request while Redis was away (ms)").toBeLessThan(1_000);

    // Back: the next counts land in Redis again.
    const whileAway = await counted();
    await cluster.redis.start();
    const restoredAt = performance.now();
    const back = await settle(
      async () => {
        await fetch(`${cluster.url}/oauth/token`, { method: "POST", body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "x", client_id: rp.clientId }) });
        return counted();
      },
      (n) => n > whileAway,
      15_000,
    );
    expect(back).toBeGreaterThan(whileAway);
    const countsBackAfterMs = Math.round(performance.now() - restoredAt);
    console.log(`Redis away: ${JSON.stringify({ ...result, limitedCalls: limited.length, slowestMs: Math.round(slowest), countsBackAfterMs })}`);
  } finally {
    done = true;
    await cluster.redis.start();
    redis.disconnect();
  }
});

test("SIGTERM to an instance under load: it stops within SHUTDOWN_TIMEOUT_MS, nothing in flight is lost, and the others serve on", async () => {
  const before = await keptNow();
  const victim = cluster.instances[1]!;
  let exit: { code: number | null; ms: number } | undefined;
  const outcomes = await underLoad(writer, "sigterm", 8_000, [
    [
      2_000,
      () => {
        const signalled = performance.now();
        victim.terminate();
        void victim.exited.then((code) => (exit = { code, ms: performance.now() - signalled }));
      },
    ],
  ]);
  await Promise.race([victim.exited, sleep(SHUTDOWN_TIMEOUT_MS + 5_000)]);
  expect(exit, "the instance exited").toBeDefined();
  expect(exit!.code).toBe(0);
  expect(exit!.ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
  const result = await expectWritesKept(outcomes, before);
  expect(result.statuses).toEqual({ "201": result.acknowledged });
  console.log(`SIGTERM: ${JSON.stringify({ ...result, exitMs: Math.round(exit!.ms) })}`);
  await cluster.restart(victim);
});

test("every line the instances and the worker wrote through the experiments is a JSON log line", () => {
  for (const proc of [...cluster.instances, cluster.worker]) expect(proc.notJson, proc.name).toEqual([]);
});
