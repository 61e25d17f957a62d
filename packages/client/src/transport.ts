// One request to the service: credentials, a time limit per try, and retries with backoff for the
// errors that may pass (rate limits, 5xx, time-outs, network failures), honouring Retry-After.
import { ServiceError, errorFromAnswer } from "./errors.js";

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** How the library retries a request that failed with a retryable error. */
export interface RetryOptions {
  /** Tries after the first one (default 2). 0 turns retries off. */
  retries?: number;
  /** The first backoff in milliseconds, doubled each try, with jitter (default 250). */
  baseDelayMs?: number;
  /** The longest backoff in milliseconds (default 5,000). */
  maxDelayMs?: number;
  /** The longest Retry-After the library waits for, in seconds (default 30); a longer one is thrown at once. */
  maxRetryAfterSeconds?: number;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey?: string;
  agent?: string;
  fetch?: FetchLike;
  /** Time limit of each try in milliseconds (default 10,000). */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Called before each wait between tries. */
  onRetry?: (info: { attempt: number; delayMs: number; error: ServiceError }) => void;
}

export interface RequestSpec {
  method: "GET" | "POST" | "DELETE";
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  headers?: Record<string, string | undefined>;
  /** Send X-API-Key (default true). */
  key?: boolean;
  /** Per-call time limit and signal. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class Transport {
  readonly baseUrl: string;
  private readonly fetchFn: FetchLike;

  constructor(readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  url(path: string, query?: RequestSpec["query"]): string {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    return url.toString();
  }

  /** Sends the request, retrying retryable failures; resolves to the parsed JSON answer. */
  async request<T>(spec: RequestSpec): Promise<T> {
    const retry = this.options.retry ?? {};
    const retries = Math.max(0, retry.retries ?? 2);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once<T>(spec);
      } catch (err) {
        if (!(err instanceof ServiceError) || !err.retryable || attempt >= retries || spec.signal?.aborted) throw err;
        const delayMs = this.delay(err, attempt, retry);
        if (delayMs === null) throw err;
        this.options.onRetry?.({ attempt: attempt + 1, delayMs, error: err });
        await sleep(delayMs);
      }
    }
  }

  private delay(err: ServiceError, attempt: number, retry: RetryOptions): number | null {
    if (err.retryAfter !== null) return err.retryAfter > (retry.maxRetryAfterSeconds ?? 30) ? null : err.retryAfter * 1000;
    const base = (retry.baseDelayMs ?? 250) * 2 ** attempt;
    return Math.min(retry.maxDelayMs ?? 5_000, base / 2 + Math.random() * (base / 2));
  }

  private async once<T>(spec: RequestSpec): Promise<T> {
    const headers: Record<string, string> = { accept: "application/json", ...this.options.headers };
    if (spec.key !== false) {
      if (!this.options.apiKey) {
        throw new ServiceError({
          code: "API_KEY_MISSING",
          type: "client",
          message: "No API key: pass apiKey (a secret key, sk_… or sk_test_…) to the client.",
          baseUrl: this.baseUrl,
        });
      }
      headers["x-api-key"] = this.options.apiKey;
    }
    if (this.options.agent) headers["x-agent"] = this.options.agent;
    for (const [k, v] of Object.entries(spec.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers["content-type"] = "application/json";
    }
    const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs ?? 10_000;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    spec.signal?.addEventListener("abort", onAbort, { once: true });
    const url = this.url(spec.path, spec.query);
    try {
      const res = await this.race(this.fetchFn(url, { method: spec.method, headers, body, signal: controller.signal }), controller.signal);
      const text = await this.race(res.text(), controller.signal);
      let parsed: unknown = undefined;
      if (text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      if (res.status >= 400) throw errorFromAnswer({ status: res.status, body: parsed, headers: res.headers, baseUrl: this.baseUrl });
      return parsed as T;
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      if (timedOut) {
        throw new ServiceError({
          code: "TIMEOUT",
          type: "timeout",
          message: `${spec.method} ${spec.path} got no answer within ${timeoutMs} ms.`,
          cause: err,
          baseUrl: this.baseUrl,
        });
      }
      const reason = err instanceof Error ? err.message : String(err);
      throw new ServiceError({
        code: "NETWORK_ERROR",
        type: "network_error",
        message: `${spec.method} ${spec.path} failed before an answer: ${reason}`,
        cause: err,
        baseUrl: this.baseUrl,
      });
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Settles with the promise, or rejects when the signal aborts (for a fetch that ignores its signal). */
  private race<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(new Error("aborted"));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(new Error("aborted"));
      signal.addEventListener("abort", onAbort, { once: true });
      promise.then(
        (v) => {
          signal.removeEventListener("abort", onAbort);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(e instanceof Error ? e : new Error(String(e)));
        },
      );
    });
  }
}
