// What the developer dashboard reads from the request log, always for one developer (and one plane):
// a request found by its id, the recent requests a page at a time with filters, and usage per day and
// per route with error rates and latency percentiles. Every statement starts from the
// (developer_id, plane, at) index; another developer's rows are never reached.
import { z } from "zod";
import { now as clockNow } from "../platform/clock";
import { database } from "../platform/db";
import type { Plane } from "../platform/db/generated/enums";
import { PREFIX } from "../platform/ids";
import { flushRequestLog } from "./record";

const DAY_MS = 86_400_000;
/** Days the usage covers unless asked otherwise (the dashboard's 30), and at most. */
export const USAGE_DAYS = 30;
const MAX_USAGE_DAYS = 400;
/** Requests on one page of the log unless asked otherwise, and at most. */
export const REQUEST_LOG_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 200;

/** Status classes a listing may be filtered by; "error" is every answer of 400 or more. */
export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx", "error"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];
const STATUS_RANGE: Readonly<Record<StatusClass, readonly [number, number]>> = {
  "2xx": [200, 299],
  "3xx": [300, 399],
  "4xx": [400, 499],
  "5xx": [500, 599],
  error: [400, 999],
};

const REQUEST_ID = new RegExp(`^${PREFIX.request}[A-Za-z0-9]{1,64}$`);
const plane = z.enum(["live", "test"]);
const developerId = z.string().uuid();
/** A route pattern as recorded: "/v1/profile/commit/[commitId]", or "/mcp" (printable ASCII from "/"). */
export const routePatternSchema = z
  .string()
  .trim()
  .regex(/^\/[\x21-\x7e]{0,199}$/);
const route = routePatternSchema;

/** The filters of a listing, as a form or query string gives them (empty values read as absent). */
export const requestLogFilterSchema = z.object({
  route: z.preprocess((v) => (v === "" ? undefined : v), route.optional()),
  status: z.preprocess((v) => (v === "" ? undefined : v), z.enum(STATUS_CLASSES).optional()),
  agentId: z.preprocess((v) => (v === "" ? undefined : v), z.string().uuid().optional()),
  before: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(100).optional()),
  take: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(REQUEST_LOG_PAGE_SIZE),
});
export type RequestLogFilter = z.input<typeof requestLogFilterSchema>;

const scopeSchema = z.object({ developerId, plane });
const usageSchema = scopeSchema.extend({
  days: z.number().int().min(1).max(MAX_USAGE_DAYS).default(USAGE_DAYS),
  /** Only this route (per day), when given; and only this method of it. */
  route: route.optional(),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]).optional(),
});

/** One request as the dashboard shows it. */
export interface RequestLogRow {
  requestId: string;
  at: string;
  plane: Plane;
  /** The agent named by X-Agent, when it resolved; its handle and name as they are now (null once deleted). */
  agentId: string | null;
  agent: { handle: string; displayName: string } | null;
  method: string;
  route: string;
  status: number;
  errorCode: string | null;
  latencyMs: number;
}

interface StoredRow extends Record<string, unknown> {
  id: string;
  at: Date;
  plane: Plane;
  agent_id: string | null;
  agent_handle: string | null;
  agent_name: string | null;
  method: string;
  route: string;
  status: number;
  error_code: string | null;
  latency_ms: number;
}

/** The columns of a row, with its agent's handle and name (only an agent of the same developer). */
const SELECT_ROW = `SELECT r.id, r.at, r.plane::text AS plane, r.agent_id, a.handle AS agent_handle, a.display_name AS agent_name,
    r.method, r.route, r.status, r.error_code, r.latency_ms
  FROM request_log r LEFT JOIN agents a ON a.id = r.agent_id AND a.developer_id = r.developer_id`;

function rowOf(r: StoredRow): RequestLogRow {
  return {
    requestId: r.id,
    at: new Date(r.at).toISOString(),
    plane: r.plane,
    agentId: r.agent_id,
    agent: r.agent_handle !== null && r.agent_name !== null ? { handle: r.agent_handle, displayName: r.agent_name } : null,
    method: r.method,
    route: r.route,
    status: r.status,
    errorCode: r.error_code,
    latencyMs: r.latency_ms,
  };
}

/**
 * The developer's request of this id (X-Request-Id, surrounding space ignored), in either plane; null
 * for an id that is not one, unknown, past retention, or another developer's.
 */
export async function findRequest(input: { developerId: string; requestId: string }): Promise<RequestLogRow | null> {
  const id = input.requestId.trim();
  if (!REQUEST_ID.test(id) || !developerId.safeParse(input.developerId).success) return null;
  await flushRequestLog();
  const { sql } = await database();
  const rows = await sql.query<StoredRow>(`${SELECT_ROW} WHERE r.id = $1 AND r.developer_id = $2`, [id, input.developerId]);
  return rows[0] ? rowOf(rows[0]) : null;
}

/** A page's cursor: the last row's time in milliseconds and its id (rows of one millisecond are neither skipped nor repeated). */
const CURSOR = new RegExp(`^(\\d{1,15})_(${PREFIX.request}[A-Za-z0-9]{1,64})$`);

/** Whether a value is a listing's cursor (a page's `older`). */
export function isRequestLogCursor(value: string): boolean {
  return CURSOR.test(value);
}

function parseCursor(value: string | undefined): { at: Date; id: string } | null {
  const m = value ? CURSOR.exec(value) : null;
  return m ? { at: new Date(Number(m[1])), id: m[2]! } : null;
}

export interface RequestLogPage {
  requests: RequestLogRow[];
  /** The cursor (`before`) of the next, older page; null on the last. */
  older: string | null;
}

/**
 * The developer's requests in one plane, newest first, a page at a time: filtered by route pattern,
 * status class and agent; `before` (a page's `older`) continues the listing. A malformed cursor reads
 * as none. Throws a ZodError for filters that are not filters.
 */
export async function recentRequests(input: { developerId: string; plane: Plane } & RequestLogFilter): Promise<RequestLogPage> {
  const scope = scopeSchema.parse(input);
  const filter = requestLogFilterSchema.parse(input);
  const where = ["r.developer_id = $1", 'r.plane = $2::"Plane"'];
  const params: unknown[] = [scope.developerId, scope.plane];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (filter.route) where.push(`r.route = ${param(filter.route)}`);
  if (filter.status) {
    const [low, high] = STATUS_RANGE[filter.status];
    where.push(`r.status BETWEEN ${param(low)} AND ${param(high)}`);
  }
  if (filter.agentId) where.push(`r.agent_id = ${param(filter.agentId)}`);
  const cursor = parseCursor(filter.before);
  if (cursor) where.push(`(r.at, r.id) < (${param(cursor.at)}::timestamptz, ${param(cursor.id)})`);
  await flushRequestLog();
  const { sql } = await database();
  const rows = await sql.query<StoredRow>(`${SELECT_ROW} WHERE ${where.join(" AND ")} ORDER BY r.at DESC, r.id DESC LIMIT ${param(filter.take + 1)}`, params);
  const page = rows.slice(0, filter.take).map(rowOf);
  const last = page.at(-1);
  return { requests: page, older: rows.length > filter.take && last ? `${Date.parse(last.at)}_${last.requestId}` : null };
}

/** Counts and latency of a set of requests. */
export interface UsageFigures {
  requests: number;
  /** Answers of 400 or more. */
  errors: number;
  /** Answers of 500 or more (also counted in errors). */
  serverErrors: number;
  /** errors / requests, 0 without requests. */
  errorRate: number;
  /** Latency percentiles in milliseconds (nearest rank); null without requests. */
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface DayUsage extends UsageFigures {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
}

export interface RouteUsage extends UsageFigures {
  method: string;
  route: string;
}

interface StoredFigures extends Record<string, unknown> {
  requests: number;
  errors: number;
  server_errors: number;
  p50: number | null;
  p95: number | null;
}

const FIGURES = `count(*)::int AS requests,
    count(*) FILTER (WHERE r.status >= 400)::int AS errors,
    count(*) FILTER (WHERE r.status >= 500)::int AS server_errors,
    percentile_disc(0.5) WITHIN GROUP (ORDER BY r.latency_ms) AS p50,
    percentile_disc(0.95) WITHIN GROUP (ORDER BY r.latency_ms) AS p95`;

function figuresOf(r: StoredFigures | undefined): UsageFigures {
  if (!r || !r.requests) return { requests: 0, errors: 0, serverErrors: 0, errorRate: 0, p50Ms: null, p95Ms: null };
  return { requests: r.requests, errors: r.errors, serverErrors: r.server_errors, errorRate: r.errors / r.requests, p50Ms: r.p50, p95Ms: r.p95 };
}

/** From the start of the UTC day `days - 1` days before `at`'s to the end of `at`'s, and the days' names. */
function window(at: Date, days: number): { from: Date; to: Date; names: string[] } {
  const today = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const from = today - (days - 1) * DAY_MS;
  const names = Array.from({ length: days }, (_, i) => new Date(from + i * DAY_MS).toISOString().slice(0, 10));
  return { from: new Date(from), to: new Date(today + DAY_MS), names };
}

/**
 * Usage per UTC day over the last `days` days (30), today included, oldest first and every day
 * present (days without requests at zero), for one developer and plane, optionally one route (and
 * one method of it).
 */
export async function usagePerDay(input: { developerId: string; plane: Plane; days?: number; route?: string; method?: string; at?: Date }): Promise<DayUsage[]> {
  const q = usageSchema.parse(input);
  const { from, to, names } = window(input.at ?? clockNow(), q.days);
  const params: unknown[] = [q.developerId, q.plane, from, to];
  const byRoute = (q.route ? `AND r.route = $${params.push(q.route)} ` : "") + (q.route && q.method ? `AND r.method = $${params.push(q.method)}` : "");
  await flushRequestLog();
  const { sql } = await database();
  const rows = await sql.query<StoredFigures & { day: string }>(
    `SELECT to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, ${FIGURES}
       FROM request_log r WHERE r.developer_id = $1 AND r.plane = $2::"Plane" AND r.at >= $3 AND r.at < $4 ${byRoute}
       GROUP BY 1`,
    params,
  );
  const byDay: ReadonlyMap<string, StoredFigures> = new Map(rows.map((r) => [r.day, r]));
  return names.map((day) => ({ day, ...figuresOf(byDay.get(day)) }));
}

/**
 * Usage per route (method and pattern) over the last `days` days (30), today included, for one
 * developer and plane: the busiest route first.
 */
export async function usagePerRoute(input: { developerId: string; plane: Plane; days?: number; at?: Date }): Promise<RouteUsage[]> {
  const q = usageSchema.parse(input);
  const { from, to } = window(input.at ?? clockNow(), q.days);
  await flushRequestLog();
  const { sql } = await database();
  const rows = await sql.query<StoredFigures & { method: string; route: string }>(
    `SELECT r.method, r.route, ${FIGURES}
       FROM request_log r WHERE r.developer_id = $1 AND r.plane = $2::"Plane" AND r.at >= $3 AND r.at < $4
       GROUP BY r.method, r.route ORDER BY requests DESC, r.route, r.method`,
    [q.developerId, q.plane, from, to],
  );
  return rows.map((r) => ({ method: r.method, route: r.route, ...figuresOf(r) }));
}

/**
 * The plane of the developer's most recent request in the log, or null with none kept: the plane the
 * dashboard's log and usage open on (a new developer's first requests are often test-plane ones).
 */
export async function latestPlane(input: { developerId: string }): Promise<Plane | null> {
  if (!developerId.safeParse(input.developerId).success) return null;
  await flushRequestLog();
  const { sql } = await database();
  // One indexed look per plane ((developer_id, plane, at)), rather than a sort over both.
  const rows = await sql.query<{ plane: Plane; at: Date }>(
    `(SELECT 'live' AS plane, at FROM request_log WHERE developer_id = $1 AND plane = 'live' ORDER BY at DESC LIMIT 1)
     UNION ALL
     (SELECT 'test' AS plane, at FROM request_log WHERE developer_id = $1 AND plane = 'test' ORDER BY at DESC LIMIT 1)`,
    [input.developerId],
  );
  const newest = rows.sort((a, b) => new Date(b.at).getTime() - new Date(a.at).getTime())[0];
  return newest?.plane ?? null;
}
