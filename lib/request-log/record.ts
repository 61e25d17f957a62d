// The developer's request log: one row per authenticated /v1 request (and developer MCP call) with
// its request id, plane, agent, method, route pattern, status, error code and latency — never a body,
// a header, a user or a credential. Rows wait in memory and are written in batches after the answer,
// so a request never waits on them; the dashboard reads them (lib/request-log/queries.ts).
import { now as clockNow } from "../platform/clock";
import { database } from "../platform/db";
import { copyElse } from "../platform/db/copy";
import type { Plane } from "../platform/db/generated/enums";
import { env } from "../env";
import { batchedWriter } from "../platform/log/batched-writer";

/** Rows written in one statement at most. */
export const REQUEST_LOG_BATCH = 500;
/** How long a row may wait for others before its batch is written. */
export const REQUEST_LOG_FLUSH_AFTER_MS = 250;
/**
 * Rows held at most while the database is slow or away: beyond it new rows are dropped (and counted
 * in a warning, lib/platform/log/batched-writer.ts), so an outage cannot grow the process without bound.
 */
export const REQUEST_LOG_MAX_PENDING = 20_000;
/** Rows deleted per statement by the retention sweep, so no one statement holds locks for long. */
const SWEEP_BATCH = 10_000;

export interface RequestLogRecord {
  /** The request id the answer carried (X-Request-Id). */
  id: string;
  developerId: string;
  plane: Plane;
  agentId: string | null;
  method: string;
  /** The route's pattern (/v1/profile/commit/[commitId]), never the path with its ids. */
  route: string;
  status: number;
  /** The /v1 error code of an error answer; null below 400. */
  errorCode: string | null;
  latencyMs: number;
  at: Date;
}

const COLUMNS = ["id", "developer_id", "plane", "agent_id", "method", "route", "status", "error_code", "latency_ms", "at"] as const;
/**
 * The fallback for a batch COPY refused: one statement, its columns as arrays. Rows of a developer
 * deleted meanwhile are left out (their log goes with them), and a request id seen twice is written once.
 */
const INSERT = `INSERT INTO request_log (${COLUMNS.join(", ")})
  SELECT u.id, u.developer_id, u.plane::"Plane", u.agent_id, u.method, u.route, u.status, u.error_code, u.latency_ms, u.at
  FROM unnest($1::text[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::text[], $7::int[], $8::text[], $9::int[], $10::timestamptz[])
    AS u(id, developer_id, plane, agent_id, method, route, status, error_code, latency_ms, at)
  WHERE EXISTS (SELECT 1 FROM developers d WHERE d.id = u.developer_id)
  ON CONFLICT (id) DO NOTHING`;

async function insert(rows: RequestLogRecord[]): Promise<void> {
  const { sql } = await database();
  await sql.query(INSERT, [
    rows.map((r) => r.id),
    rows.map((r) => r.developerId),
    rows.map((r) => r.plane),
    rows.map((r) => r.agentId),
    rows.map((r) => r.method),
    rows.map((r) => r.route),
    rows.map((r) => r.status),
    rows.map((r) => r.errorCode),
    rows.map((r) => r.latencyMs),
    rows.map((r) => r.at),
  ]);
}

/** A batch as COPY loads it: the table, its columns, and each row's values in their order. */
export function requestLogCopy(rows: RequestLogRecord[]) {
  const values = rows.map((r) => [r.id, r.developerId, r.plane, r.agentId, r.method, r.route, r.status, r.errorCode, r.latencyMs, r.at]);
  return { table: "request_log", columns: COLUMNS, rows: values };
}

/** A batch in one COPY (every request adds a row; COPY takes a fraction of the INSERT's CPU), else the INSERT. */
async function write(rows: RequestLogRecord[]): Promise<void> {
  const { sql } = await database();
  await copyElse(sql, requestLogCopy(rows), () => insert(rows));
}

const writer = batchedWriter<RequestLogRecord>({
  name: "request log",
  write,
  batchSize: REQUEST_LOG_BATCH,
  flushAfterMs: REQUEST_LOG_FLUSH_AFTER_MS,
  maxPending: REQUEST_LOG_MAX_PENDING,
});

/** Writes every row waiting now, in batches; resolves when they are written (reads, tests; shutdown writes every log). */
export function flushRequestLog(): Promise<void> {
  return writer.flush();
}

/** Records one answered request; written within REQUEST_LOG_FLUSH_AFTER_MS (sooner when a batch fills). */
export function recordRequest(row: RequestLogRecord): void {
  writer.add(row);
}

/** How many days rows are kept (REQUEST_LOG_RETENTION_DAYS). */
export function requestLogRetentionDays(): number {
  return env().REQUEST_LOG_RETENTION_DAYS;
}

/** Deletes rows older than the retention at `at`, a batch at a time; answers how many. */
export async function sweepRequestLog(at: Date = clockNow()): Promise<number> {
  const cutoff = new Date(at.getTime() - requestLogRetentionDays() * 86_400_000);
  const { sql } = await database();
  let deleted = 0;
  for (;;) {
    const rows = await sql.query<{ n: number }>(
      `WITH d AS (DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE at < $1 LIMIT ${SWEEP_BATCH}) RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [cutoff],
    );
    const n = rows[0]?.n ?? 0;
    deleted += n;
    if (n < SWEEP_BATCH) return deleted;
  }
}
