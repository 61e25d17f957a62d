// The developer request log's rows: what a real request records (exactly), what it never stores,
// which requests are left out, how rows wait and are written in batches, and the retention sweep.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as mcp } from "@/app/mcp/route";
import { GET as profile } from "@/app/v1/profile/route";
import { GET as commitStatus } from "@/app/v1/profile/commit/[commitId]/route";
import { POST as provision } from "@/app/v1/sandbox/provision/route";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { database, db } from "@/lib/platform/db";
import { resetEnvForTests } from "@/lib/env";
import { sweepExpired } from "@/lib/maintenance/sweep";
import { settleService } from "@/lib/startup";
import { flushRequestLog, recordRequest, REQUEST_LOG_BATCH, REQUEST_LOG_MAX_PENDING, sweepRequestLog, type RequestLogRecord } from "@/lib/request-log/record";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { requestLogRow } from "../helpers/request-log";
import { call } from "../helpers/http";

const DAY_MS = 86_400_000;
let t: Tenant;

beforeAll(async () => {
  t = await createTenant();
});

afterEach(() => {
  resetClockForTests();
  delete process.env.REQUEST_LOG_RETENTION_DAYS;
  resetEnvForTests();
});

/** The stored row of a request id, every column, as the database holds it. */
async function stored(id: string) {
  await flushRequestLog();
  const { sql } = await database();
  const rows = await sql.query(`SELECT *, plane::text AS plane FROM request_log WHERE id = $1`, [id]);
  return rows[0];
}

async function count(where = "TRUE", params: unknown[] = []): Promise<number> {
  await flushRequestLog();
  const { sql } = await database();
  return (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM request_log WHERE ${where}`, params))[0]!.n;
}

function row(overrides: Partial<RequestLogRecord> = {}): RequestLogRecord {
  return requestLogRow(t, { latencyMs: 3, ...overrides });
}

describe("what a request records", () => {
  it("records an authenticated /v1 request exactly: its id, developer, plane, agent, method, route, status and latency", async () => {
    const before = Date.now();
    const res = await call(profile, { headers: liveHeaders(t) });
    expect(res.status).toBe(200);
    const id = res.headers.get("x-request-id")!;
    const entry = await stored(id);
    expect(entry).toEqual({
      id,
      developer_id: t.developer.id,
      plane: "live",
      agent_id: t.agent.id,
      method: "GET",
      route: "/v1/profile",
      status: 200,
      error_code: null,
      latency_ms: expect.any(Number),
      at: expect.any(Date),
    });
    expect(entry!.latency_ms).toBeGreaterThanOrEqual(0);
    expect((entry!.at as Date).getTime()).toBeGreaterThanOrEqual(before - 1);
    expect((entry!.at as Date).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("records the route's pattern, never the path with its ids, and the error code of an error answer", async () => {
    const res = await call(commitStatus, { path: "/v1/profile/commit/cmt_doesnotexist", params: { commitId: "cmt_doesnotexist" }, headers: liveHeaders(t) });
    expect(res.status).toBe(404);
    expect(await stored(res.headers.get("x-request-id")!)).toMatchObject({ route: "/v1/profile/commit/[commitId]", status: 404, error_code: "not_found" });
  });

  it("records the test plane, and a request whose agent did not resolve without an agent", async () => {
    const test = await call(profile, { headers: { ...liveHeaders(t), "x-api-key": t.keys.skTest, "x-user-id": "user-test" } });
    expect(test.status).toBe(200);
    expect(await stored(test.headers.get("x-request-id")!)).toMatchObject({ plane: "test", agent_id: t.agent.id });

    const unknownAgent = await call(profile, { headers: liveHeaders(t, { "x-agent": "nobody-here" }) });
    expect(unknownAgent.status).toBe(404);
    expect(await stored(unknownAgent.headers.get("x-request-id")!)).toMatchObject({ agent_id: null, status: 404, error_code: "unknown_agent" });
  });

  it("leaves out requests without a developer: a bad or revoked key, no key, an unauthenticated route", async () => {
    const revoked = await call(profile, { headers: liveHeaders(t, { "x-api-key": t.keys.revoked }) });
    const wrong = await call(profile, { headers: liveHeaders(t, { "x-api-key": "sk_live_notakeyatall" }) });
    const none = await call(profile, { headers: { "x-agent": t.agent.handle, "x-user-id": "user-live" } });
    const open = await call(provision, { headers: { "x-service-client-ip": "10.9.8.7" } });
    expect([revoked.status, wrong.status, none.status, open.status]).toEqual([401, 401, 401, 201]);
    for (const res of [revoked, wrong, none, open]) expect(await stored(res.headers.get("x-request-id")!)).toBeUndefined();
  });

  it("stores nothing sensitive: no key, token, user id, external id, phone, header or body", async () => {
    const res = await call(profile, { headers: liveHeaders(t, { "x-user-id": "user-live", "x-custom-secret": "hdr-secret-value" }), query: { sections: "identity" } });
    const entry = await stored(res.headers.get("x-request-id")!);
    const text = JSON.stringify(entry);
    for (const secret of [t.keys.sk, t.keys.sk.slice(0, 16), "user-live", t.users.live.id, "hdr-secret-value", "identity", "Live Person"]) {
      expect(text).not.toContain(secret);
    }
    expect(Object.keys(entry!).sort()).toEqual(["agent_id", "at", "developer_id", "error_code", "id", "latency_ms", "method", "plane", "route", "status"]);
  });

  it("records a developer MCP call as POST /mcp, and leaves out one with a bad key", async () => {
    const ping = (key: string) =>
      mcp(
        new Request("http://localhost:3000/mcp", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "x-api-key": key,
            "x-agent": t.agent.handle,
            "x-service-client-ip": "127.0.0.1",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
        }),
      );
    const ok = await ping(t.keys.sk);
    expect(ok.status).toBe(200);
    expect(await stored(ok.headers.get("x-request-id")!)).toMatchObject({
      developer_id: t.developer.id,
      plane: "live",
      agent_id: t.agent.id,
      method: "POST",
      route: "/mcp",
      status: 200,
      error_code: null,
    });
    const bad = await ping(t.keys.revoked);
    expect(bad.status).toBe(401);
    expect(await stored(bad.headers.get("x-request-id")!)).toBeUndefined();
  });
});

describe("batching", () => {
  it("keeps rows in memory until the batch is written: nothing reaches the database before", async () => {
    const first = row();
    recordRequest(first);
    const { sql } = await database();
    expect(await sql.query(`SELECT 1 FROM request_log WHERE id = $1`, [first.id])).toHaveLength(0);
    await flushRequestLog();
    expect(await sql.query(`SELECT 1 FROM request_log WHERE id = $1`, [first.id])).toHaveLength(1);
  });

  it("writes on its own within the flush interval", async () => {
    const r = row();
    recordRequest(r);
    const { sql } = await database();
    await expect.poll(async () => (await sql.query(`SELECT 1 FROM request_log WHERE id = $1`, [r.id])).length, { timeout: 3000, interval: 50 }).toBe(1);
  });

  it("writes a full batch at once, and many batches whole", async () => {
    const marker = `/v1/batch-${Date.now()}`;
    const rows = Array.from({ length: REQUEST_LOG_BATCH * 2 + 7 }, () => row({ route: marker }));
    for (const r of rows) recordRequest(r);
    await flushRequestLog();
    expect(await count(`route = $1`, [marker])).toBe(rows.length);
  });

  it("writes a request id once, and leaves out the rows of a developer deleted meanwhile without losing the others", async () => {
    const gone = await createTenant();
    const dup = row();
    const lost = row({ developerId: gone.developer.id, agentId: gone.agent.id });
    const kept = row();
    recordRequest(dup);
    recordRequest({ ...dup, status: 500 });
    recordRequest(lost);
    recordRequest(kept);
    await (await db()).developer.delete({ where: { id: gone.developer.id } });
    await flushRequestLog();
    expect(await count(`id = $1`, [dup.id])).toBe(1);
    expect(await stored(lost.id)).toBeUndefined();
    expect(await stored(kept.id)).toBeDefined();
  });

  it("holds at most REQUEST_LOG_MAX_PENDING rows: beyond, new rows are dropped", async () => {
    const marker = `/v1/cap-${Date.now()}`;
    for (let i = 0; i < REQUEST_LOG_MAX_PENDING + 50; i++) {
      // Row by row the batches would be written as they fill; the cap is about rows not yet written.
      recordRequest(row({ route: marker }));
    }
    await flushRequestLog();
    expect(await count(`route = $1`, [marker])).toBe(REQUEST_LOG_MAX_PENDING);
  });

  it("writes what waits when the service settles for shutdown (the job workers stopped first)", async () => {
    const r = row();
    recordRequest(r);
    await settleService();
    const { sql } = await database();
    expect(await sql.query(`SELECT 1 FROM request_log WHERE id = $1`, [r.id])).toHaveLength(1);
  });
});

describe("retention", () => {
  it("the sweep deletes rows older than REQUEST_LOG_RETENTION_DAYS (30 by default) and keeps the rest", async () => {
    const now = new Date();
    const old = row({ at: new Date(now.getTime() - 30 * DAY_MS - 60_000) });
    const recent = row({ at: new Date(now.getTime() - 29 * DAY_MS) });
    recordRequest(old);
    recordRequest(recent);
    await flushRequestLog();
    const deleted = await sweepExpired(now);
    expect(deleted.request_log).toBeGreaterThanOrEqual(1);
    expect(await stored(old.id)).toBeUndefined();
    expect(await stored(recent.id)).toBeDefined();
  });

  it("follows the setting, and deletes in batches until none is left", async () => {
    process.env.REQUEST_LOG_RETENTION_DAYS = "7";
    resetEnvForTests();
    const marker = `/v1/retention-${Date.now()}`;
    const now = new Date();
    const rows = Array.from({ length: 25 }, (_, i) => row({ route: marker, at: new Date(now.getTime() - (i < 20 ? 8 : 6) * DAY_MS) }));
    for (const r of rows) recordRequest(r);
    await flushRequestLog();
    // Other tests' rows older than 7 days go too.
    expect(await sweepRequestLog(now)).toBeGreaterThanOrEqual(20);
    expect(await count(`route = $1`, [marker])).toBe(5);
    // Against the service's clock when no time is given.
    advanceClockForTests(2 * DAY_MS);
    expect(await sweepRequestLog()).toBeGreaterThanOrEqual(5);
    expect(await count(`route = $1`, [marker])).toBe(0);
  });
});
