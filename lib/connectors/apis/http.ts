// Requests to a provider's REST API (Gmail, Calendar, Drive, Microsoft Graph, Notion) with a
// connection's access token, and the provider's answers read as four kinds of failure: the token is
// refused (401), the grant lacks a scope or permission (403), the provider is rate limiting (429, or
// Google's 403 rate-limit reasons), and anything else. Base addresses come from configuration, so the
// tests point them at local servers speaking the same wire format.
import { now as clockNow } from "../../platform/clock";
import { ProviderWireError, sendToProvider, type ProviderWireAnswer } from "./transport";

/** How long one provider request may take. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/** The provider refused the access token (expired or revoked): refresh once, then reconnect. */
export class ProviderAuthError extends Error {
  constructor(
    readonly app: string,
    detail: string,
  ) {
    super(`${app}: the provider refused the access token (${detail})`);
    this.name = "ProviderAuthError";
  }
}

/** The grant lacks the scope or permission this call needs. */
export class ProviderScopeError extends Error {
  constructor(
    readonly app: string,
    detail: string,
  ) {
    super(`${app}: the grant lacks a permission (${detail})`);
    this.name = "ProviderScopeError";
  }
}

/** The provider is rate limiting: try again after `retryAfter` seconds. */
export class ProviderRateLimited extends Error {
  constructor(
    readonly app: string,
    readonly retryAfter: number,
  ) {
    super(`${app}: the provider is rate limiting; retry after ${retryAfter} s`);
    this.name = "ProviderRateLimited";
  }
}

/**
 * Any other failure. `ambiguous` when the request may have taken effect without our hearing of it
 * (a time-out, a dropped connection, a 5xx): an action is then not retried blindly.
 */
export class ProviderFailure extends Error {
  constructor(
    readonly app: string,
    readonly status: number,
    detail: string,
    readonly ambiguous: boolean,
  ) {
    super(`${app}: ${detail}`);
    this.name = "ProviderFailure";
  }
}

export type ProviderError = ProviderAuthError | ProviderScopeError | ProviderRateLimited | ProviderFailure;

export function isProviderError(err: unknown): err is ProviderError {
  return err instanceof ProviderAuthError || err instanceof ProviderScopeError || err instanceof ProviderRateLimited || err instanceof ProviderFailure;
}

/** Reasons Google gives with a 403 that mean "slow down", not "not allowed". */
const GOOGLE_RATE_REASONS: ReadonlySet<string> = new Set(["rateLimitExceeded", "userRateLimitExceeded", "dailyLimitExceeded", "quotaExceeded"]);

function retryAfterSeconds(header: string | null): number {
  if (!header) return 1;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const at = Date.parse(header);
  return Number.isNaN(at) ? 1 : Math.max(1, Math.ceil((at - clockNow().getTime()) / 1000));
}

/** The reasons in a Google error body ({ error: { errors: [{ reason }], details: [{ reason }] } }). */
function googleReasons(body: unknown): string[] {
  const error = (body as { error?: { errors?: Array<{ reason?: unknown }>; details?: Array<{ reason?: unknown }> } } | null)?.error;
  if (!error || typeof error !== "object") return [];
  return [...(error.errors ?? []), ...(error.details ?? [])].map((e) => e.reason).filter((r): r is string => typeof r === "string");
}

/** A provider's body as JSON: undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface ProviderRequest {
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  url: string | URL;
  /** A JSON body; or `raw` for another content type. */
  json?: unknown;
  raw?: { body: string; contentType: string };
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Reads a 2xx answer that is not one JSON value (a batch's multipart body, lib/connectors/apis/google-batch.ts);
   * it may throw the errors above, which count as the request's own (a token refused inside a batch is refreshed as one refused outside).
   */
  readAnswer?: (answer: ProviderWireAnswer) => unknown;
}

/**
 * The error for a provider's answer that is not 2xx: 401 refused token, 429 or Google's 403 rate-limit
 * reasons, any other 403 a missing permission, the rest a failure (ambiguous for a 5xx to a request
 * other than a GET). `body` is the answer's parsed JSON, undefined when it was none.
 */
export function answerError(app: string, method: string, status: number, body: unknown, retryAfter: string | null): ProviderError {
  const detail = `HTTP ${status}`;
  if (status === 401) return new ProviderAuthError(app, detail);
  if (status === 429) return new ProviderRateLimited(app, retryAfterSeconds(retryAfter));
  if (status === 403) {
    if (googleReasons(body).some((r) => GOOGLE_RATE_REASONS.has(r))) return new ProviderRateLimited(app, retryAfterSeconds(retryAfter));
    return new ProviderScopeError(app, detail);
  }
  return new ProviderFailure(app, status, `the provider answered ${detail}`, status >= 500 && method !== "GET");
}

/**
 * One request with a bearer token. Answers the parsed JSON body (null for 202/204 or an empty body);
 * throws one of the provider errors above.
 */
export async function providerFetch<T>(app: string, token: string, request: ProviderRequest): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json", ...request.headers };
  let body: string | undefined;
  if (request.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(request.json);
  } else if (request.raw) {
    headers["content-type"] = request.raw.contentType;
    body = request.raw.body;
  }
  const signals = [AbortSignal.timeout(PROVIDER_TIMEOUT_MS), ...(request.signal ? [request.signal] : [])];
  const method = request.method ?? "GET";
  let res: ProviderWireAnswer;
  try {
    res = await sendToProvider(new URL(request.url), { method, headers, body, signal: AbortSignal.any(signals) });
  } catch (err) {
    const timedOut = err instanceof ProviderWireError && (err.reason === "timeout" || err.reason === "aborted");
    const detail = timedOut
      ? "the provider did not answer in time"
      : err instanceof ProviderWireError && err.reason === "too_large"
        ? err.message
        : "the provider could not be reached";
    // A request that left may have been acted on: only a GET is plainly safe to try again.
    throw new ProviderFailure(app, 0, detail, method !== "GET");
  }
  // Redirects are not followed: a provider API answers where it is asked.
  if (res.status >= 200 && res.status < 300) {
    if (request.readAnswer) return request.readAnswer(res) as T;
    return (res.text === "" ? null : (parseJson(res.text) ?? null)) as T;
  }
  throw answerError(app, method, res.status, parseJson(res.text), res.header("retry-after"));
}
