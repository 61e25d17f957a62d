// What the budget benchmarks on PostgreSQL (sign-in.ts, mcp.ts) share: seeding in parallel, probe
// requests, timed autocannon runs on an idle machine with their CPU shares and the server's own
// latencies from its request log, and the plain-text table they print.
import { readFileSync } from "node:fs";
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { percentile, runVaried, type RequestSpec, type VariedFigures } from "./load";
import { closeDatabase } from "../lib/platform/db";
import { cpuSample, cpuShare, other, OTHER_WARNING, quietMachine, type CpuShare } from "./proc";
import { machine } from "./report";
import { cleanUpAll, createDatabase, startService, type BenchDatabase, type DbKind, type Service } from "./server";

/** Seeding calls in flight at once (the bench's own database pool). */
const SEED_PARALLEL = 16;

/** Runs `fn` for 0…n-1, SEED_PARALLEL at a time; the results in order. */
export async function inParallel<T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(n);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) out[i] = await fn(i);
  };
  await Promise.all(Array.from({ length: Math.min(SEED_PARALLEL, n) }, worker));
  return out;
}

// ─── The server's own latency: the request log's latency_ms (handler start → answer built) ──────

interface LogLine {
  route?: string;
  latency_ms?: number;
  time?: string;
}

/** latency_ms of the log's requests to `route` written between `from` and `to` (epoch ms), ascending. */
export function serverLatencies(logFile: string, route: string, from: number, to: number): number[] {
  const out: number[] = [];
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    if (!line.includes(route)) continue;
    try {
      const entry = JSON.parse(line) as LogLine;
      const at = entry.time ? Date.parse(entry.time) : NaN;
      if (entry.route === route && typeof entry.latency_ms === "number" && at >= from && at <= to) out.push(entry.latency_ms);
    } catch {
      // not a log line of ours
    }
  }
  return out.sort((a, b) => a - b);
}

// ─── One request at a time: probes and page loads ───────────────────────────────────────────────

/** Keep-alive sockets for the one-at-a-time requests and the probes. */
export const oneAtATime = new http.Agent({ keepAlive: true, maxSockets: 1 });

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

/** One request; `ms` runs from writing the request to reading the whole answer. */
export function send(url: URL, init: { method: "GET" | "POST"; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { agent: oneAtATime, method: init.method, headers: init.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ms: performance.now() - started }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

/** Sends one of a run's requests; anything but a 200 with a JSON body throws. */
export async function probe(baseUrl: string, spec: RequestSpec, what: string): Promise<Record<string, unknown>> {
  const answer = await send(new URL(spec.path, baseUrl), {
    method: spec.method,
    headers: { ...spec.headers, "content-length": String(Buffer.byteLength(spec.body ?? "")) },
    body: spec.body,
  });
  if (answer.status !== 200) throw new Error(`${what} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return JSON.parse(answer.body) as Record<string, unknown>;
}

// ─── Timed runs ─────────────────────────────────────────────────────────────────────────────────

export interface TimedRun {
  figures: VariedFigures;
  /** The server's own latency_ms for the run's requests, ascending. */
  server: number[];
  cpu: CpuShare;
  attempts: number;
  /** Failed requests in warm-ups and repeated runs. */
  otherFailures: number;
  ranOut?: boolean;
}

export const failures = (f: VariedFigures) => f.non2xx + f.errors;

/**
 * Per attempt: wait for an idle machine, `prepare()` the run's requests, warm up, then the timed run
 * with its CPU shares and the server's own latencies of `route`. A run in which other processes took
 * more than OTHER_WARNING % of a CPU is repeated, up to `retries` times.
 */
export async function timedRun(run: {
  baseUrl: string;
  serverPid: number;
  logFile: string;
  route: string;
  label: string;
  connections: number;
  warmup: number;
  duration: number;
  retries: number;
  prepare: () => Promise<{ next: () => RequestSpec; ranOut?: () => boolean }>;
}): Promise<TimedRun> {
  const { baseUrl, connections } = run;
  let otherFailures = 0;
  for (let attempt = 1; ; attempt++) {
    const { next, ranOut } = await run.prepare();
    await quietMachine();
    otherFailures += failures(await runVaried({ baseUrl, next, connections, duration: run.warmup }));
    const from = Date.now();
    const before = cpuSample(run.serverPid);
    const figures = await runVaried({ baseUrl, next, connections, duration: run.duration });
    const cpu = cpuShare(before, cpuSample(run.serverPid));
    const to = Date.now();
    await sleep(500); // the request log is written asynchronously
    const row: TimedRun = { figures, server: serverLatencies(run.logFile, run.route, from, to), cpu, attempts: attempt, otherFailures, ranOut: ranOut?.() };
    const line = `  ${run.label} · ${connections} conns: ${figures.rps.toFixed(0)} req/s, ${failures(figures)} failed`;
    if (other(cpu) <= OTHER_WARNING || attempt > run.retries) {
      console.log(line);
      return row;
    }
    console.log(`${line} · ${other(cpu).toFixed(0)} % of a CPU went to other processes: repeating`);
    otherFailures += failures(figures);
  }
}

// ─── Report ─────────────────────────────────────────────────────────────────────────────────────

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

export const ms = (v: number) => (Number.isNaN(v) ? "-" : v.toFixed(1));
export const pct = (list: number[], p: number) => ms(percentile(list, p));

export const LOAD_HEADER = [
  "request",
  "conns",
  "2xx",
  "req/s",
  "p50 ms",
  "p95 ms",
  "p99 ms",
  "max ms",
  "server p50",
  "server p99",
  "failures",
  "CPU % server",
  "postgres",
  "bench",
  "other",
  "runs",
];

/** A timed run's row under LOAD_HEADER. */
export function loadCells(label: string, r: TimedRun): string[] {
  return [
    label,
    String(r.figures.connections),
    String(r.figures.latencies.length),
    r.figures.rps.toFixed(0),
    pct(r.figures.latencies, 50),
    pct(r.figures.latencies, 95),
    pct(r.figures.latencies, 99),
    ms(r.figures.latencies.at(-1) ?? NaN),
    pct(r.server, 50),
    pct(r.server, 99),
    String(failures(r.figures) + r.otherFailures),
    r.cpu.server.toFixed(0),
    r.cpu.postgres.toFixed(0),
    r.cpu.bench.toFixed(0),
    other(r.cpu).toFixed(0),
    String(r.attempts),
  ];
}

export const LOAD_NOTE =
  "req/s: mean of autocannon's per-second counts · p50…max: autocannon's latency of each 2xx answer · server p50/p99: the server's own latency_ms from its request log (handler start → answer built; no socket or queueing time) · CPU: percent of one CPU during the timed run";

// ─── The whole benchmark: a fresh database, the service on it, the measurements, clean-up ──────

/**
 * Prints the header, creates the database, points this process at it (it seeds through the service's
 * own functions: the same database and secrets as the server, whose keys sign tokens and hash codes),
 * starts the service with `serverEnv` added, runs `measure` (it returns the failed requests), and exits
 * 1 if any failed. No server or database outlives it.
 */
export function runBench(
  name: string,
  opts: { db: DbKind; postgresUrl: string; root: string; duration: number; warmup: number; connections: number[]; retries: number },
  serverEnv: Record<string, string>,
  measure: (db: BenchDatabase, service: Service) => Promise<number>,
): void {
  const main = async (): Promise<number> => {
    console.log(`${name} bench · db ${opts.db} · ${machine()}`);
    console.log(
      `autocannon in this process, on the same CPUs as the server and PostgreSQL · ${opts.duration} s per run, ${opts.warmup} s warm-up · connections ${opts.connections.join(", ")}`,
    );
    console.log(`each run waits for an idle machine; a run in which other processes took > ${OTHER_WARNING} % of a CPU is repeated (at most ${opts.retries} times)\n`);
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.once(signal, () => void cleanUpAll().finally(() => process.exit(130)));
    }
    const db = createDatabase(opts.db, opts.postgresUrl);
    Object.assign(process.env, {
      DATABASE_URL: db.env.DATABASE_URL,
      SERVICE_SECRET: db.env.SERVICE_SECRET,
      AUTH_SECRET: db.env.AUTH_SECRET,
      DEVELOPMENT_MODE: db.env.DEVELOPMENT_MODE,
      LOG_LEVEL: "silent",
    });
    try {
      // The server logs requests as in production (info): the bench reads their latency_ms from its log.
      const service = await startService({ root: opts.root, db: { ...db, env: { ...db.env, ...serverEnv, LOG_LEVEL: "info" } } });
      const settings = Object.entries(serverEnv)
        .map(([k, v]) => `, ${k}=${v}`)
        .join("");
      console.log(`service started (cold start ${service.coldStartMs.toFixed(0)} ms)${settings}`);
      try {
        const failed = await measure(db, service);
        if (failed) console.error(`FAILED: ${failed} request(s) were not 2xx or errored.`);
        return failed ? 1 : 0;
      } finally {
        await closeDatabase();
        await service.stop();
      }
    } finally {
      await cleanUpAll();
      oneAtATime.destroy();
    }
  };
  main().then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(`${name} bench: ${err.message}`);
      void cleanUpAll().finally(() => process.exit(1));
    },
  );
}
