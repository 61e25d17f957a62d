// The person's access log as a file to keep: CSV or JSON, every entry still held, newest first,
// streamed in batches. Served only to the signed-in person, for their own entries, by their session
// cookie alone: an API key or a Bearer token reaches nothing here.
import { sessionUserFromRequest } from "../person-auth/session";
import { now as clockNow } from "../platform/clock";
import { env } from "../env";
import { ACCESS_LOG_RETENTION_DAYS, type AccessLogRow } from "./access-log";
import { accessLogBatches } from "./pages";

export type AccessLogFormat = "csv" | "json";

/** The columns, in order: the CSV's header row and each JSON entry's fields. */
export const ACCESS_LOG_COLUMNS = [
  "at",
  "agent",
  "developer",
  "action",
  "surface",
  "outcome",
  "livemode",
  "conversation",
  "turn",
] as const satisfies readonly (keyof AccessLogRow)[];

/**
 * One CSV field (RFC 4180). Text a spreadsheet would run as a formula (starting with = + - @, or a
 * tab or carriage return that hides one) is prefixed with an apostrophe; a field holding a comma,
 * quote or line break is quoted, its quotes doubled.
 */
export function csvField(value: string | boolean): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(fields: readonly (string | boolean)[]): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}

/** The file's text, piece by piece: what is written first, then each batch of entries. */
async function* pieces(userId: string, format: AccessLogFormat): AsyncGenerator<string, void> {
  if (format === "csv") {
    yield csvLine(ACCESS_LOG_COLUMNS);
    for await (const rows of accessLogBatches(userId)) yield rows.map((r) => csvLine(ACCESS_LOG_COLUMNS.map((c) => r[c] ?? ""))).join("");
    return;
  }
  yield `{"exported_at":${JSON.stringify(clockNow().toISOString())},"retention_days":${ACCESS_LOG_RETENTION_DAYS},"entries":[`;
  let first = true;
  for await (const rows of accessLogBatches(userId)) {
    const entries = rows.map((r) => JSON.stringify(Object.fromEntries(ACCESS_LOG_COLUMNS.map((c) => [c, r[c] ?? null]))));
    yield (first ? "" : ",") + entries.join(",");
    first = false;
  }
  yield "]}\n";
}

function stream(source: AsyncGenerator<string, void>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await source.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}

const CONTENT_TYPES: Record<AccessLogFormat, string> = { csv: "text/csv; charset=utf-8", json: "application/json; charset=utf-8" };

/** The download of a person's access log: an attachment, never cached. */
export function accessLogDownload(userId: string, format: AccessLogFormat): Response {
  const day = clockNow().toISOString().slice(0, 10);
  return new Response(stream(pieces(userId, format)), {
    status: 200,
    headers: {
      "Content-Type": CONTENT_TYPES[format],
      "Content-Disposition": `attachment; filename="access-log-${day}.${format}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/**
 * GET /account/access-log.<format>: the signed-in person's own log. Without a session (whatever
 * other credential the request carries) the browser goes to the account page, which offers signing in.
 */
export function accessLogExportRoute(format: AccessLogFormat): (req: Request) => Promise<Response> {
  return async (req) => {
    const userId = await sessionUserFromRequest(req);
    if (!userId) return new Response(null, { status: 303, headers: { Location: new URL("/account", env().BASE_URL).href, "Cache-Control": "no-store" } });
    return accessLogDownload(userId, format);
  };
}
