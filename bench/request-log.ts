// The request log's own costs, in one process on a fresh database (no HTTP, no server):
// - what recordRequest costs the request that calls it (main-thread time per call);
// - what writing a batch costs (wall time and main-thread CPU per 500 rows);
// - what the dashboard's reads take on a seeded month (one developer, --rows rows over 30 days).
// Usage: npx tsx bench/request-log.ts [--db postgres|pglite] [--rows 200000] [--postgres-url …]
import { randomBytes, randomUUID } from "node:crypto";
import { benchOptions } from "./options";
import { createDatabase } from "./server";

const opts = benchOptions({ db: "postgres" }, { rows: "200000" });
const rows = Number(opts.extra.rows);
const db = createDatabase(opts.db, opts.postgresUrl);
Object.assign(process.env, { NODE_ENV: "production", LOG_LEVEL: "silent", ...db.env });

const { database, closeDatabase } = await import("../lib/platform/db");
const { createDeveloper } = await import("../lib/developers/developers");
const { flushRequestLog, recordRequest, REQUEST_LOG_BATCH } = await import("../lib/request-log/record");
const queries = await import("../lib/request-log/queries");

const ROUTES = [
  ["GET", "/v1/profile"],
  ["GET", "/v1/profile/search"],
  ["POST", "/v1/profile/remember"],
  ["POST", "/v1/profile/commit"],
  ["GET", "/v1/profile/commit/[commitId]"],
  ["POST", "/mcp"],
] as const;
const DAY_MS = 86_400_000;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main() {
  const started = Date.now();
  await database();
  const developer = await createDeveloper({ name: `bench-${randomBytes(3).toString("hex")}` });
  const agentId = randomUUID();
  let serial = 0;
  const row = (at: Date) => {
    const [method, route] = ROUTES[serial % ROUTES.length]!;
    const status = serial % 97 === 0 ? 500 : serial % 23 === 0 ? 404 : 200;
    serial++;
    return {
      id: `req_${randomBytes(15).toString("base64url").replace(/[-_]/g, "x")}`,
      developerId: developer.id,
      plane: "live" as const,
      agentId,
      method,
      route,
      status,
      errorCode: status === 500 ? "internal_error" : status === 404 ? "not_found" : null,
      latencyMs: 1 + (serial % 40),
      at,
    };
  };

  // The caller's cost: a batch's worth of calls, timed synchronously (the write they start is async).
  const perCall: number[] = [];
  for (let round = 0; round < 20; round++) {
    const made = Array.from({ length: REQUEST_LOG_BATCH }, () => row(new Date()));
    const t0 = process.hrtime.bigint();
    for (const r of made) recordRequest(r);
    perCall.push(Number(process.hrtime.bigint() - t0) / REQUEST_LOG_BATCH);
    await flushRequestLog();
  }

  // A batch's write: wall time and this process's CPU time for 500 rows.
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < 40; round++) {
    for (let i = 0; i < REQUEST_LOG_BATCH - 1; i++) recordRequest(row(new Date()));
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    recordRequest(row(new Date())); // the 500th starts the write
    await flushRequestLog();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }

  // A month for the reads: `rows` rows spread over the last 30 days.
  const seedStart = performance.now();
  const now = Date.now();
  for (let i = 0; i < rows; i++) {
    recordRequest(row(new Date(now - Math.floor((i / rows) * 30 * DAY_MS))));
    if (i % REQUEST_LOG_BATCH === REQUEST_LOG_BATCH - 1) await flushRequestLog();
  }
  await flushRequestLog();
  const seedMs = performance.now() - seedStart;
  const { sql } = await database();
  await sql.query(`ANALYZE request_log`);
  const stored = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM request_log`))[0]!.n;

  const scope = { developerId: developer.id, plane: "live" as const };
  const some = (await queries.recentRequests({ ...scope, take: 1 })).requests[0]!;
  const reads: Array<[string, () => Promise<unknown>]> = [
    ["findRequest", () => queries.findRequest({ developerId: developer.id, requestId: some.requestId })],
    ["recentRequests (50)", () => queries.recentRequests(scope)],
    ["recentRequests status=error (50)", () => queries.recentRequests({ ...scope, status: "error" })],
    ["usagePerDay (30 days)", () => queries.usagePerDay(scope)],
    ["usagePerRoute (30 days)", () => queries.usagePerRoute(scope)],
  ];
  const readTimes: Array<[string, number]> = [];
  for (const [name, read] of reads) {
    await read();
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await read();
      times.push(performance.now() - t0);
    }
    readTimes.push([name, median(times)]);
  }

  console.log(`request log · db ${opts.db} · ${stored.toLocaleString("en")} rows stored · ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`recordRequest: median ${median(perCall).toFixed(0)} ns per call (20 rounds of ${REQUEST_LOG_BATCH})`);
  console.log(`batch write of ${REQUEST_LOG_BATCH} rows: median ${median(wall).toFixed(1)} ms wall, ${median(cpu).toFixed(1)} ms CPU of this process (40 batches)`);
  console.log(`seeding ${rows.toLocaleString("en")} rows: ${(seedMs / 1000).toFixed(1)} s (${Math.round(rows / (seedMs / 1000)).toLocaleString("en")} rows/s)`);
  for (const [name, ms] of readTimes) console.log(`${name.padEnd(34)} median ${ms.toFixed(1)} ms (5 runs)`);
}

try {
  await main();
} finally {
  await closeDatabase();
  await db.drop();
}
