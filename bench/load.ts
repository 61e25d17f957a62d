// The scenarios and one autocannon run of a scenario, reduced to the figures the benchmark prints.
import autocannon from "autocannon";

export const SCENARIOS = ["health", "profile"] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface Scenario {
  name: ScenarioName;
  path: string;
  headers: Record<string, string>;
}

/** What POST /v1/sandbox/provision answers (the fields the benchmark uses). */
export interface Sandbox {
  secret_key: string;
  agent: { handle: string };
  user: { external_id: string };
}

export interface LoadFigures {
  scenario: ScenarioName;
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
