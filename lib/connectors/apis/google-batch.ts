// Google's batch endpoint (Gmail's POST /batch/gmail/v1): several GET calls in one multipart/mixed
// request, answered by one multipart/mixed body holding an HTTP answer per call, paired with its call
// by Content-ID ("<item-3>" is answered by "<response-item-3>"), in any order. A search that reads ten
// messages makes two requests instead of eleven. Each call still counts against the person's quota as
// one request, and each part has its own status: a part's 401, 429 or 403 is the batch's error, so a
// token refused inside a batch is refreshed and the batch sent again (lib/connectors/usable.ts).
import { randomBytes } from "node:crypto";
import { answerError, parseJson, ProviderFailure, type ProviderRequest } from "./http";
import type { ProviderWireAnswer } from "./transport";

/** Calls per batch request. Google takes up to 100 and advises no more than 50. */
export const GOOGLE_BATCH_MAX_CALLS = 50;

/** One part of a batch answer: the HTTP answer to one call. */
export interface BatchPart {
  contentId: string | null;
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** The request line of each call: a GET of `url`'s path and query on the batch endpoint's host. */
export function batchBody(urls: readonly URL[], boundary: string): string {
  const parts = urls.map((url, i) => `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <item-${i}>\r\n\r\nGET ${url.pathname}${url.search}\r\n\r\n`);
  return `${parts.join("")}--${boundary}--\r\n`;
}

function boundaryOf(contentType: string | null): string | null {
  if (!contentType || !/^\s*multipart\/mixed\s*;/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** Splits `text` at its first blank line (CRLF or LF): the header block and what follows. */
function splitHead(text: string): [head: string, rest: string] | null {
  const m = /\r?\n\r?\n/.exec(text);
  return m ? [text.slice(0, m.index), text.slice(m.index + m[0].length)] : null;
}

function headerLines(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * The parts of a multipart/mixed batch answer, each its Content-ID and the HTTP answer inside it;
 * null when the body is not a batch answer (no boundary, no closing delimiter, a part that is not an
 * HTTP answer).
 */
export function parseBatchAnswer(contentType: string | null, text: string): BatchPart[] | null {
  const boundary = boundaryOf(contentType);
  if (!boundary) return null;
  const delimiter = `--${boundary}`;
  const chunks = text.split(delimiter);
  // chunks[0] is the preamble; a chunk starting with "--" follows the closing delimiter.
  const closing = chunks.findIndex((c, i) => i > 0 && c.startsWith("--"));
  if (closing === -1) return null;
  const parts: BatchPart[] = [];
  for (const chunk of chunks.slice(1, closing)) {
    // A part: its MIME headers, a blank line, then the HTTP answer (status line, headers, blank line, body).
    const mime = splitHead(chunk.replace(/^[ \t]*\r?\n/, ""));
    if (!mime) return null;
    const message = splitHead(mime[1]);
    // The line break before the next delimiter belongs to the delimiter.
    const [statusLine = "", ...headLines] = (message ? message[0] : mime[1].replace(/\r?\n$/, "")).split(/\r?\n/);
    const status = /^HTTP\/\d(?:\.\d)? (\d{3})\b/.exec(statusLine);
    if (!status) return null;
    parts.push({
      contentId: headerLines(mime[0]).get("content-id") ?? null,
      status: Number(status[1]),
      headers: headerLines(headLines.join("\n")),
      body: message ? message[1].replace(/\r?\n$/, "") : "",
    });
  }
  return parts;
}

/**
 * A batch of GETs of `urls` (all on one Google API) as one provider request. Its answer reads as the
 * calls' JSON bodies in the calls' order, null for a call answered with a status in `absent` (404: a
 * message deleted since it was listed). Any other part that is not 2xx is the whole request's error:
 * 401 first (refreshed and sent again), then rate limits, then the rest.
 */
export function googleBatch(app: string, endpoint: URL, urls: readonly URL[], opts: { absent?: readonly number[] } = {}): ProviderRequest {
  if (urls.length === 0 || urls.length > GOOGLE_BATCH_MAX_CALLS) throw new RangeError(`a batch holds 1 to ${GOOGLE_BATCH_MAX_CALLS} calls, not ${urls.length}`);
  const boundary = `batch_${randomBytes(12).toString("hex")}`;
  return {
    method: "POST",
    url: endpoint,
    raw: { body: batchBody(urls, boundary), contentType: `multipart/mixed; boundary=${boundary}` },
    readAnswer: (answer: ProviderWireAnswer) => readBatch(app, answer, urls.length, opts.absent ?? []),
  };
}

function readBatch(app: string, answer: ProviderWireAnswer, calls: number, absent: readonly number[]): unknown[] {
  const parts = parseBatchAnswer(answer.header("content-type"), answer.text);
  if (!parts) throw new ProviderFailure(app, answer.status, "the provider's batch answer could not be read", false);
  const byCall = new Array<BatchPart | undefined>(calls);
  const numbered = parts.every((p) => p.contentId !== null);
  parts.forEach((part, i) => {
    const m = numbered ? /^<?response-item-(\d+)>?$/.exec(part.contentId!) : null;
    const index = numbered ? (m ? Number(m[1]) : -1) : i;
    if (index >= 0 && index < calls) byCall[index] = part;
  });
  // includes, not some: some skips the holes a missing answer leaves.
  if (byCall.includes(undefined)) throw new ProviderFailure(app, answer.status, "the provider's batch answer lacks a call's answer", false);
  const failed = (byCall as BatchPart[]).filter((p) => (p.status < 200 || p.status > 299) && !absent.includes(p.status));
  if (failed.length) {
    const errors = failed.map((p) => answerError(app, "GET", p.status, parseJson(p.body), p.headers.get("retry-after") ?? null));
    const rank = (e: Error) => {
      const i = ["ProviderAuthError", "ProviderRateLimited", "ProviderScopeError"].indexOf(e.name);
      return i === -1 ? 3 : i;
    };
    throw errors.sort((a, b) => rank(a) - rank(b))[0]!;
  }
  return (byCall as BatchPart[]).map((p) => (absent.includes(p.status) || p.body === "" ? null : (parseJson(p.body) ?? null)));
}
