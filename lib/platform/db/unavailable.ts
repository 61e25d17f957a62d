// Whether an error means the database cannot be reached right now — refused, cut, shutting down,
// restarting, or no connection free in time — rather than a fault of the request or of the code. Such a
// request is answered 503 with Retry-After (lib/http/define-route.ts, lib/oidc/errors.ts): retrying it
// soon is right, and nothing about it needs a stack trace.
import { logger } from "../log";

/** Socket errors of a connection that could not be made or was lost. */
const SOCKET_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
/**
 * PostgreSQL's SQLSTATEs for the same: class 08 (connection exception), admin_shutdown, crash_shutdown,
 * cannot_connect_now (starting up or shutting down), too_many_connections.
 */
const SQLSTATES: ReadonlySet<string> = new Set(["57P01", "57P02", "57P03", "53300"]);
/** Prisma's codes: server unreachable, timed out, closed the connection, connection pool timeout. */
const PRISMA_CODES: ReadonlySet<string> = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
/** The driver adapter's kinds of the same (Prisma's DriverAdapterError cause). */
const ADAPTER_KINDS: ReadonlySet<string> = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** What node-postgres says when a connection ends under it or none comes in time. */
const MESSAGES = [/^Connection terminated/, /timeout exceeded when trying to connect/, /Client has encountered a connection error and is not queryable/, /Connection closed/];

function oneIsUnavailable(err: Record<string, unknown>): boolean {
  const code = typeof err.code === "string" ? err.code : undefined;
  if (code && (SOCKET_CODES.has(code) || SQLSTATES.has(code) || code.startsWith("08") || PRISMA_CODES.has(code))) return true;
  if (typeof err.kind === "string" && ADAPTER_KINDS.has(err.kind)) return true;
  const message = typeof err.message === "string" ? err.message : "";
  return MESSAGES.some((m) => m.test(message));
}

/** True when `err`, or an error it wraps (cause, AggregateError, Prisma's adapter error), says the database is away. */
export function databaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length) {
    const next = queue.shift();
    if (!next || typeof next !== "object" || seen.has(next)) continue;
    seen.add(next);
    const e = next as Record<string, unknown>;
    if (oneIsUnavailable(e)) return true;
    queue.push(e.cause);
    if (Array.isArray(e.errors)) queue.push(...(e.errors as unknown[]));
    const meta = e.meta as Record<string, unknown> | undefined;
    if (meta && typeof meta === "object") queue.push(meta.driverAdapterError);
  }
  return false;
}

/** The one log line of a request the database could not serve: a warning with the driver's message, no stack. */
export function logDatabaseUnavailable(err: unknown, fields: Record<string, unknown> = {}): void {
  logger().warn({ ...fields, err: err instanceof Error ? err.message : String(err) }, "database unavailable");
}
