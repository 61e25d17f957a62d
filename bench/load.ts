// The scenarios and one autocannon run of a scenario, reduced to the figures the benchmark prints.
import autocannon, { type Result } from "autocannon";

export const SCENARIOS = ["health", "profile"] as const;
export type ScenarioName = (typeof SCENARIOS)[number];
/** What a run measures: a scenario of the service, or the ceiling server beside it (bench/ceiling-server.mjs). */
export type RunName = ScenarioName | "ceiling";

export interface Scenario {
  name: RunName;
  path: string;
  headers: Record<string, string>;
}

/** What POST /v1/sandbox/provision answers (the fields the benchmark uses). */
export interface Sandbox {
  secret_key: string;
  agent: { handle: string };
  user: { id: string; external_id: string };
}

export interface LoadFigures {
  scenario: RunName;
  connections: number;
  requests: number;
  /** Mean of the per-second request counts. */
  rps: number;
  /** Latency percentiles in ms (autocannon records whole milliseconds, 2xx responses only). */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  /** Socket errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
}

export async function provisionSandbox(baseUrl: string): Promise<Sandbox> {
  const res = await fetch(`${baseUrl}/v1/sandbox/provision`, { method: "POST" });
  const body = await res.text();
  if (res.status !== 201) throw new Error(`POST /v1/sandbox/provision answered ${res.status}: ${body}`);
  return JSON.parse(body) as Sandbox;
}

export function scenario(name: ScenarioName, sandbox: Sandbox): Scenario {
  if (name === "health") return { name, path: "/api/health", headers: {} };
  return {
    name,
    path: "/v1/profile",
    headers: { "X-API-Key": sandbox.secret_key, "X-Agent": sandbox.agent.handle, "X-User-Id": sandbox.user.external_id },
  };
}

export async function runLoad(opts: { baseUrl: string; scenario: Scenario; connections: number; duration: number }): Promise<LoadFigures> {
  const r = await autocannon({
    url: `${opts.baseUrl}${opts.scenario.path}`,
    headers: opts.scenario.headers,
    connections: opts.connections,
    duration: opts.duration,
  });
  return {
    scenario: opts.scenario.name,
    connections: opts.connections,
    requests: r.requests.total ?? 0,
    rps: r.requests.mean,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

export function failures(f: LoadFigures): number {
  return f.non2xx + f.errors;
}

// Runs whose every request differs (another user, query or fact): autocannon's `requests` with
// `setupRequest`, and each response's latency as autocannon measured it (fractional ms).
declare module "autocannon" {
  interface RequestOptions {
    method?: "GET" | "POST";
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (req: RequestOptions, context: unknown) => RequestOptions;
  }
  interface Options {
    requests?: RequestOptions[];
  }
}

/** One request of a varied run. */
export interface RequestSpec {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface VariedFigures {
  connections: number;
  requests: number;
  /** Mean of the per-second request counts. */
  rps: number;
  /** Latencies of the 2xx responses in ms, ascending. */
  latencies: number[];
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

type Tracker = Promise<Result> & { on(event: "response", fn: (client: unknown, status: number, bytes: number, ms: number) => void): void };

/** A load run in which `next()` builds every request afresh. */
export async function runVaried(opts: { baseUrl: string; next: () => RequestSpec; connections: number; duration: number }): Promise<VariedFigures> {
  const latencies: number[] = [];
  const tracker = autocannon({
    url: opts.baseUrl,
    connections: opts.connections,
    duration: opts.duration,
    // Spread over autocannon's defaults (host, port) so the Host header stays right.
    requests: [{ setupRequest: (req) => ({ ...req, ...opts.next() }) }],
  }) as unknown as Tracker;
  tracker.on("response", (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const r = await tracker;
  return {
    connections: opts.connections,
    requests: r.requests.total ?? 0,
    rps: r.requests.mean,
    latencies: latencies.sort((a, b) => a - b),
    non2xx: r.non2xx,
    errors: r.errors,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

/** Nearest-rank percentile of ascending values; NaN when there are none. */
export function percentile(ascending: readonly number[], p: number): number {
  if (!ascending.length) return NaN;
  return ascending[Math.min(ascending.length - 1, Math.max(0, Math.ceil((p / 100) * ascending.length) - 1))]!;
}
