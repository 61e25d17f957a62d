// The OpenID Connect token endpoint under load: refresh-token rotation and code exchanges (each
// signing an RS256 ID token) on the built service over PostgreSQL, then the same refresh chains on
// node-oidc-provider (bench/oidc-provider-server.mjs), with the ratio of the two.
// Usage: npx tsx bench/oidc.ts [--db postgres] [--duration 10] [--connections 32[,64]] [--warmup 3] [--retries 2]
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { cpus } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { parsePostgresUrl } from "../lib/platform/db/open";
import { randomBase62 } from "../lib/platform/crypto";
import { s256 } from "../lib/oidc/tokens";
import { hashToken } from "../lib/bearer-tokens/access-token";
import { percentile, provisionSandbox, type Sandbox } from "./load";
import { benchOptions } from "./options";
import { machine } from "./report";
import { machineBusyTicks, postgresPids, processTicks, TICKS_PER_SECOND } from "./proc";
import { processTree } from "./rss";
import { cleanUpAll, createDatabase, startService, type BenchDatabase, type Service } from "./server";

const REDIRECT_URI = "http://localhost:4000/callback";
/** The OAuth endpoints' per-IP limit for the run: every request comes from 127.0.0.1. */
const OAUTH_REQUESTS_PER_MINUTE = "100000000";
/** Codes seeded per second of a code-exchange run: more than the service exchanges on this machine. */
const CODES_PER_SECOND = 2_000;
const CODE_BATCH = 5_000;
const DEFAULT_CONNECTIONS = 32;
const BUDGETS = { refresh: 1_000, exchange: 500 };
/** Keycloak's sizing guide: refresh-token requests per second per vCPU. */
const KEYCLOAK_REFRESH_PER_VCPU = 120;
const PROVIDER_CLIENT_ID = "bench-client";
const PROVIDER_SCRIPT = fileURLToPath(new URL("./oidc-provider-server.mjs", import.meta.url));
/** More than this much of a CPU (%) going to other processes during a run means the machine was not idle: the run is repeated. */
const OTHER_WARNING = 15;
/** Seconds to wait at most for an idle machine before a run. */
const QUIET_WAIT_S = 120;
/** Linux reports process CPU times in USER_HZ ticks (100 per second). */

function options() {
  const { extra, ...opts } = benchOptions({ db: "postgres" }, { retries: "2" });
  if (opts.db !== "postgres") throw new Error("bench/oidc.ts measures PostgreSQL only (--db postgres): it seeds codes while the server runs.");
  // benchOptions defaults to 10 connections; this benchmark's budgets are set at 32 chains.
  const explicit = process.argv.some((a) => a === "--connections" || a.startsWith("--connections="));
  const retries = Number(extra.retries);
  if (!Number.isInteger(retries) || retries < 0) throw new Error(`--retries must be a whole number, not '${extra.retries}'.`);
  return { ...opts, retries, connections: explicit ? opts.connections : [DEFAULT_CONNECTIONS] };
}

type Options = ReturnType<typeof options>;

// ─── HTTP ───────────────────────────────────────────────────────────────────────────────────────

/** Keep-alive sockets: each worker keeps one request in flight, so at most one socket per worker. */
const agent = new http.Agent({ keepAlive: true });

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(url: URL, init: { method: "GET" | "POST"; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, method: init.method, headers: init.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

function postForm(url: URL, form: Record<string, string>): Promise<Answer> {
  const body = new URLSearchParams(form).toString();
  return send(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) }, body });
}

function postJson(url: URL, value: unknown): Promise<Answer> {
  const body = JSON.stringify(value);
  return send(url, { method: "POST", headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }, body });
}

interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token?: string;
}

function tokensOf(answer: Answer, what: string): Tokens {
  if (answer.status !== 200) throw new Error(`${what} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  const tokens = JSON.parse(answer.body) as Tokens;
  if (!tokens.refresh_token) throw new Error(`${what} answered without a refresh_token: ${answer.body.slice(0, 300)}`);
  return tokens;
}

/** The alg of a JWT's protected header. */
function jwtAlg(jwt: string): string {
  return (JSON.parse(Buffer.from(jwt.split(".")[0] ?? "", "base64url").toString("utf8")) as { alg?: string }).alg ?? "none";
}

// ─── CPU ────────────────────────────────────────────────────────────────────────────────────────

interface CpuSample {
  at: number;
  server: number;
  postgres: number;
  bench: number;
  machine: number;
}

/** Percent of one CPU over a run: the server's process tree, PostgreSQL's processes, this process, the whole machine. */
type CpuShare = Omit<CpuSample, "at">;

function cpuSample(serverPid: number): CpuSample {
  const sum = (pids: number[]) => pids.reduce((n, pid) => n + processTicks(pid), 0);
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    server: sum(processTree(serverPid)),
    postgres: sum(postgresPids()),
    bench: ((own.user + own.system) / 1e6) * TICKS_PER_SECOND,
    machine: machineBusyTicks(),
  };
}

function cpuShare(from: CpuSample, to: CpuSample): CpuShare {
  const seconds = (to.at - from.at) / 1000;
  const pct = (ticks: number) => (ticks / TICKS_PER_SECOND / seconds) * 100;
  return { server: pct(to.server - from.server), postgres: pct(to.postgres - from.postgres), bench: pct(to.bench - from.bench), machine: pct(to.machine - from.machine) };
}

// ─── The closed-loop load generator ─────────────────────────────────────────────────────────────

/** One request of a worker: the answer's status, or "done" when the worker has nothing left to send. */
type Step = () => Promise<number | "done">;

interface LoopFigures {
  connections: number;
  seconds: number;
  ok: number;
  /** Latencies of the 200 answers, ms, ascending. */
  latencies: number[];
  statuses: Record<string, number>;
  /** Socket errors and unreadable answers. */
  errors: number;
  firstError?: string;
  /** Workers that stopped because they had nothing left to send. */
  exhausted: number;
  cpu: CpuShare;
}

/**
 * N workers, each sending its next request only after the previous answer, for `seconds`. A worker
 * stops at its first answer other than 200: in a refresh chain that answer means the chain broke.
 */
async function closedLoop(steps: Step[], seconds: number, serverPid: number): Promise<LoopFigures> {
  const f: LoopFigures = {
    connections: steps.length,
    seconds: 0,
    ok: 0,
    latencies: [],
    statuses: {},
    errors: 0,
    exhausted: 0,
    cpu: { server: 0, postgres: 0, bench: 0, machine: 0 },
  };
  const before = cpuSample(serverPid);
  const end = before.at + seconds * 1000;
  const worker = async (step: Step) => {
    while (performance.now() < end) {
      const started = performance.now();
      let status: number | "done";
      try {
        status = await step();
      } catch (err) {
        f.errors++;
        f.firstError ??= (err as Error).message;
        return;
      }
      if (status === "done") {
        f.exhausted++;
        return;
      }
      f.statuses[status] = (f.statuses[status] ?? 0) + 1;
      if (status !== 200) return;
      f.ok++;
      f.latencies.push(performance.now() - started);
    }
  };
  await Promise.all(steps.map(worker));
  const after = cpuSample(serverPid);
  f.seconds = (after.at - before.at) / 1000;
  f.cpu = cpuShare(before, after);
  f.latencies.sort((a, b) => a - b);
  return f;
}

function failures(f: LoopFigures): number {
  return f.errors + Object.entries(f.statuses).reduce((n, [status, count]) => n + (status === "200" ? 0 : count), 0);
}

// ─── Steps ──────────────────────────────────────────────────────────────────────────────────────

/** One refresh-token chain: strictly sequential, always presenting the latest token. */
interface Chain {
  refreshToken: string;
}

function refreshStep(tokenUrl: URL, clientId: string, chain: Chain, extra: Record<string, string> = {}): Step {
  return async () => {
    const answer = await postForm(tokenUrl, { grant_type: "refresh_token", refresh_token: chain.refreshToken, client_id: clientId, ...extra });
    if (answer.status === 200) chain.refreshToken = (JSON.parse(answer.body) as Tokens).refresh_token;
    return answer.status;
  };
}

interface SeededCode {
  code: string;
  verifier: string;
}

function exchangeForm(clientId: string, c: SeededCode): Record<string, string> {
  return { grant_type: "authorization_code", code: c.code, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: c.verifier };
}

/** Hands out each code of the pool once, across warm-up and timed run. */
function cursor(pool: SeededCode[]): () => SeededCode | undefined {
  let next = 0;
  return () => pool[next++];
}

/** Every worker takes the next unused code of the shared pool. */
function exchangeSteps(tokenUrl: URL, clientId: string, take: () => SeededCode | undefined, workers: number): Step[] {
  const step: Step = async () => {
    const c = take();
    if (!c) return "done";
    return (await postForm(tokenUrl, exchangeForm(clientId, c))).status;
  };
  return Array.from({ length: workers }, () => step);
}

// ─── The service: client, seeded codes, chains ──────────────────────────────────────────────────

/** Who the seeded codes are for: the client's developer and plane, its oldest active agent, the sandbox user. */
interface CodeTarget {
  clientId: string;
  userId: string;
  agentId: string;
  developerId: string;
  plane: string;
}

async function registerClient(baseUrl: string, sandbox: Sandbox & { publishable_key: string }): Promise<string> {
  const answer = await postJson(new URL("/v1/sso/client", baseUrl), { publishable_key: sandbox.publishable_key, redirect_uri: REDIRECT_URI });
  if (answer.status !== 201 && answer.status !== 200) throw new Error(`POST /v1/sso/client answered ${answer.status}: ${answer.body}`);
  return (JSON.parse(answer.body) as { client_id: string }).client_id;
}

async function connect(databaseUrl: string): Promise<pg.Client> {
  const { connectionString, schema } = parsePostgresUrl(databaseUrl);
  const client = new pg.Client({ connectionString, ...(schema ? { options: `-c search_path="${schema}",public` } : {}) });
  await client.connect();
  return client;
}

async function codeTarget(sql: pg.Client, clientId: string, userId: string): Promise<CodeTarget> {
  const { rows } = await sql.query<{ developer_id: string; plane: string; agent_id: string | null }>(
    `SELECT c.developer_id, c.plane,
            (SELECT a.id FROM agents a WHERE a.developer_id = c.developer_id AND a.active ORDER BY a.created_at, a.id LIMIT 1) AS agent_id
       FROM oauth_clients c WHERE c.id = $1`,
    [clientId],
  );
  const row = rows[0];
  if (!row?.agent_id) throw new Error(`No client ${clientId} with an active agent.`);
  return { clientId, userId, agentId: row.agent_id, developerId: row.developer_id, plane: row.plane };
}

/**
 * Codes as the hosted sign-in flow leaves them (lib/oidc/tokens.ts issueCode): the keyed hash of the
 * code, the S256 challenge of its verifier, scopes openid email profile, 5 minutes to live.
 * Batched `INSERT … SELECT FROM unnest(…)`.
 */
async function seedCodes(sql: pg.Client, t: CodeTarget, n: number): Promise<SeededCode[]> {
  const codes = Array.from({ length: n }, () => ({ code: randomBase62(43), verifier: randomBytes(32).toString("base64url") }));
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + 5 * 60 * 1000);
  for (let i = 0; i < n; i += CODE_BATCH) {
    const batch = codes.slice(i, i + CODE_BATCH);
    await sql.query(
      `INSERT INTO oauth_codes (hash, client_id, user_id, agent_id, developer_id, plane, redirect_uri, code_challenge, nonce, scopes, created_at, expires_at)
       SELECT h, $4, $5::uuid, $6::uuid, $7::uuid, $8::"Plane", $9, c, n, $10::text[], $11, $12 FROM unnest($1::text[], $2::text[], $3::text[]) AS x(h, c, n)`,
      [
        batch.map((c) => hashToken(c.code)),
        batch.map((c) => s256(c.verifier)),
        batch.map(() => randomBytes(12).toString("base64url")),
        t.clientId,
        t.userId,
        t.agentId,
        t.developerId,
        t.plane,
        REDIRECT_URI,
        ["openid", "email", "profile"],
        createdAt,
        expiresAt,
      ],
    );
  }
  await sql.query("VACUUM ANALYZE oauth_codes");
  return codes;
}

/** One chain per connection, each begun by a code exchange over HTTP. */
async function serviceChains(tokenUrl: URL, clientId: string, codes: SeededCode[]): Promise<Chain[]> {
  return Promise.all(codes.map(async (c) => ({ refreshToken: tokensOf(await postForm(tokenUrl, exchangeForm(clientId, c)), "code exchange").refresh_token })));
}

// ─── node-oidc-provider ─────────────────────────────────────────────────────────────────────────

interface Reference {
  pid: number;
  baseUrl: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("Could not find a free port.");
  return address.port;
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  if ((await Promise.race([gone.then(() => "exited"), sleep(5_000).then(() => "timeout")])) === "timeout") {
    signal("SIGKILL");
    await gone;
  }
}

/** Starts bench/oidc-provider-server.mjs (NODE_ENV=production, Node's default flags) and waits for its discovery document. */
async function startReference(workDir: string): Promise<Reference> {
  const port = await freePort();
  const logFile = path.join(workDir, `oidc-provider-${port}.log`);
  const log = openSync(logFile, "a");
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(port), CLIENT_ID: PROVIDER_CLIENT_ID, REDIRECT_URI };
  const child = spawn(process.execPath, [PROVIDER_SCRIPT], { env, detached: true, stdio: ["ignore", log, log] });
  closeSync(log);
  const stop = () => stopGroup(child);
  stopReference = stop;
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`oidc-provider exited during start-up:\n${readFileSync(logFile, "utf8")}`);
    try {
      const res = await fetch(`${baseUrl}/.well-known/openid-configuration`);
      await res.body?.cancel();
      if (res.status === 200) return { pid: child.pid!, baseUrl, stop };
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 30_000) {
      await stop();
      throw new Error(`oidc-provider did not start within 30 s:\n${readFileSync(logFile, "utf8")}`);
    }
    await sleep(20);
  }
}

/** Set while the reference server runs, for the signal handlers. */
let stopReference: (() => Promise<void>) | undefined;

/** A browser's cookies, all sent everywhere (the provider scopes them by path; sending more is harmless). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(headers: http.IncomingHttpHeaders): void {
    for (const line of headers["set-cookie"] ?? []) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** authorize → interaction (sign-in and consent at once) → back to authorize → code → tokens. */
async function referenceChain(baseUrl: string): Promise<Chain> {
  const jar = new CookieJar();
  const verifier = randomBytes(32).toString("base64url");
  const authorize = new URL("/auth", baseUrl);
  const params = {
    client_id: PROVIDER_CLIENT_ID,
    response_type: "code",
    redirect_uri: REDIRECT_URI,
    scope: "openid offline_access",
    prompt: "consent",
    code_challenge: s256(verifier),
    code_challenge_method: "S256",
    state: randomBytes(8).toString("hex"),
    nonce: randomBytes(8).toString("hex"),
  };
  for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);
  let location = authorize.toString();
  for (let hop = 0; !location.startsWith(REDIRECT_URI); hop++) {
    if (hop === 5) throw new Error(`oidc-provider's flow did not reach the callback; last at ${location}`);
    const answer = await send(new URL(location, baseUrl), { method: "GET", headers: { cookie: jar.header() } });
    jar.take(answer.headers);
    if (answer.status < 300 || answer.status >= 400 || !answer.headers.location) throw new Error(`GET ${location} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    location = answer.headers.location;
  }
  const code = new URL(location).searchParams.get("code");
  if (!code) throw new Error(`oidc-provider's callback carries no code: ${location}`);
  const form = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, client_id: PROVIDER_CLIENT_ID, code_verifier: verifier };
  return { refreshToken: tokensOf(await postForm(new URL("/token", baseUrl), form), "oidc-provider code exchange").refresh_token };
}

// ─── Runs ───────────────────────────────────────────────────────────────────────────────────────

interface Row {
  scenario: string;
  server: string;
  figures: LoopFigures;
  /** Timed runs made: a run disturbed by other processes is repeated. */
  attempts: number;
  /** Failed requests in warm-ups and repeated runs. */
  otherFailures: number;
}

/** Waits (at most QUIET_WAIT_S) until the machine is idle: less than OTHER_WARNING % of a CPU busy over two 1-second samples. */
async function quietMachine(): Promise<void> {
  let quiet = 0;
  for (let waited = 0; waited < QUIET_WAIT_S && quiet < 2; waited++) {
    const before = machineBusyTicks();
    await sleep(1_000);
    quiet = ((machineBusyTicks() - before) / TICKS_PER_SECOND) * 100 < OTHER_WARNING ? quiet + 1 : 0;
  }
}

/**
 * Per attempt: wait for an idle machine, `begin()` (new refresh chains), warm up, then the timed
 * run. `steps(seconds)` makes the workers of a run that long. A timed run during which other
 * processes took more than OTHER_WARNING % of a CPU is repeated, up to `retries` times.
 */
async function measure(
  opts: Options,
  label: Pick<Row, "scenario" | "server">,
  pid: number,
  steps: (seconds: number) => Promise<Step[]>,
  begin: () => Promise<void> = async () => undefined,
): Promise<Row> {
  let otherFailures = 0;
  for (let attempt = 1; ; attempt++) {
    await quietMachine();
    await begin();
    otherFailures += failures(await closedLoop(await steps(opts.warmup), opts.warmup, pid));
    const figures = await closedLoop(await steps(opts.duration), opts.duration, pid);
    const line = `  ${label.scenario} · ${label.server} · ${figures.connections} conns: ${rate(figures).toFixed(0)} req/s, ${failures(figures)} failed`;
    if (other(figures.cpu) <= OTHER_WARNING || attempt > opts.retries) {
      console.log(line);
      return { ...label, figures, attempts: attempt, otherFailures };
    }
    console.log(`${line} · ${other(figures.cpu).toFixed(0)} % of a CPU went to other processes: repeating`);
    otherFailures += failures(figures);
  }
}

async function serviceRows(opts: Options, db: BenchDatabase, service: Service): Promise<Row[]> {
  const sandbox = (await provisionSandbox(service.baseUrl)) as Sandbox & { publishable_key: string };
  const clientId = await registerClient(service.baseUrl, sandbox);
  const tokenUrl = new URL("/oauth/token", service.baseUrl);
  const sql = await connect(db.env.DATABASE_URL!);
  const rows: Row[] = [];
  try {
    const target = await codeTarget(sql, clientId, sandbox.user.id);
    const probe = tokensOf(await postForm(tokenUrl, exchangeForm(clientId, (await seedCodes(sql, target, 1))[0]!)), "code exchange");
    if (!probe.id_token || jwtAlg(probe.id_token) !== "RS256") throw new Error("The code exchange answered without an RS256 id_token.");
    for (const connections of opts.connections) {
      let chains: Chain[] = [];
      const begin = async () => void (chains = await serviceChains(tokenUrl, clientId, await seedCodes(sql, target, connections)));
      rows.push(await measure(opts, { scenario: "refresh", server: "service" }, service.pid, async () => chains.map((c) => refreshStep(tokenUrl, clientId, c)), begin));
      // Codes live 5 minutes: each run gets its own, seeded just before it.
      const codes = async (seconds: number) => exchangeSteps(tokenUrl, clientId, cursor(await seedCodes(sql, target, CODES_PER_SECOND * seconds)), connections);
      rows.push(await measure(opts, { scenario: "code exchange + RS256 ID token", server: "service" }, service.pid, codes));
    }
    const { rows: revoked } = await sql.query<{ n: string }>("SELECT count(*) AS n FROM oauth_grants WHERE revoked_at IS NOT NULL");
    console.log(`  grants revoked during the runs: ${revoked[0]?.n ?? "?"} (0 expected: every chain kept rotating)`);
  } finally {
    await sql.end();
  }
  return rows;
}

async function referenceRows(opts: Options, workDir: string): Promise<Row[]> {
  const ref = await startReference(workDir);
  const tokenUrl = new URL("/token", ref.baseUrl);
  const rows: Row[] = [];
  try {
    // scope=offline_access leaves openid out of the refreshed tokens, so no ID token is signed: the service's refresh.
    const narrowed = { scope: "offline_access" };
    const probe = await referenceChain(ref.baseUrl);
    const plain = tokensOf(
      await postForm(tokenUrl, { grant_type: "refresh_token", refresh_token: probe.refreshToken, client_id: PROVIDER_CLIENT_ID, ...narrowed }),
      "oidc-provider refresh",
    );
    if (plain.id_token) throw new Error("oidc-provider signed an ID token on a refresh without openid.");
    for (const connections of opts.connections) {
      // New chains per attempt: the in-memory adapter's per-grant index grows with every rotation.
      let chains: Chain[] = [];
      const begin = async () => void (chains = await Promise.all(Array.from({ length: connections }, () => referenceChain(ref.baseUrl))));
      const refresh = (extra: Record<string, string>) => async () => chains.map((c) => refreshStep(tokenUrl, PROVIDER_CLIENT_ID, c, extra));
      rows.push(await measure(opts, { scenario: "refresh", server: "oidc-provider" }, ref.pid, refresh(narrowed), begin));
      rows.push(await measure(opts, { scenario: "refresh + RS256 ID token", server: "oidc-provider" }, ref.pid, refresh({}), begin));
    }
  } finally {
    await ref.stop();
    stopReference = undefined;
  }
  return rows;
}

// ─── Report ─────────────────────────────────────────────────────────────────────────────────────

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

/** Busy time of the machine not spent in the server, PostgreSQL or the load generator (kernel, other processes). */
const other = (cpu: CpuShare) => Math.max(0, cpu.machine - cpu.server - cpu.postgres - cpu.bench);
const ms = (v: number) => (Number.isNaN(v) ? "-" : v.toFixed(1));
const rate = (f: LoopFigures) => f.ok / f.seconds;

function report(rows: Row[]): string {
  const header = [
    "scenario",
    "server",
    "conns",
    "200s",
    "req/s",
    "p50 ms",
    "p95 ms",
    "p99 ms",
    "max ms",
    "failures",
    "CPU % server",
    "postgres",
    "load gen",
    "other",
    "machine",
    "runs",
  ];
  return table(
    header,
    rows.map(({ scenario, server, figures: f, attempts, otherFailures }) => [
      scenario,
      server,
      String(f.connections),
      String(f.ok),
      rate(f).toFixed(0),
      ms(percentile(f.latencies, 50)),
      ms(percentile(f.latencies, 95)),
      ms(percentile(f.latencies, 99)),
      ms(f.latencies.at(-1) ?? NaN),
      String(failures(f) + otherFailures),
      f.cpu.server.toFixed(0),
      f.cpu.postgres.toFixed(0),
      f.cpu.bench.toFixed(0),
      other(f.cpu).toFixed(0),
      f.cpu.machine.toFixed(0),
      String(attempts),
    ]),
  );
}

function find(rows: Row[], scenario: string, server: string, connections: number): Row | undefined {
  return rows.find((r) => r.scenario === scenario && r.server === server && r.figures.connections === connections);
}

function summary(opts: Options, rows: Row[]): string[] {
  const lines: string[] = [];
  const verdict = (value: number, budget: number) => (value >= budget ? "met" : "NOT MET");
  for (const c of opts.connections) {
    const refresh = find(rows, "refresh", "service", c);
    const exchange = find(rows, "code exchange + RS256 ID token", "service", c);
    const reference = find(rows, "refresh", "oidc-provider", c);
    const referenceSigned = find(rows, "refresh + RS256 ID token", "oidc-provider", c);
    if (refresh)
      lines.push(
        `${c} conns · refresh budget ≥ ${BUDGETS.refresh.toLocaleString("en")}/s: ${rate(refresh.figures).toFixed(0)}/s, ${verdict(rate(refresh.figures), BUDGETS.refresh)}`,
      );
    if (exchange)
      lines.push(`${c} conns · code exchange budget ≥ ${BUDGETS.exchange}/s: ${rate(exchange.figures).toFixed(0)}/s, ${verdict(rate(exchange.figures), BUDGETS.exchange)}`);
    if (refresh && reference && referenceSigned) {
      const ratio = (r: Row) => (rate(refresh.figures) / rate(r.figures)).toFixed(2);
      lines.push(
        `${c} conns · refresh ratio service / oidc-provider: ${ratio(reference)} (${ratio(referenceSigned)} against oidc-provider signing an ID token on each refresh, its default)`,
      );
    }
  }
  // Where a request's CPU goes: percent of one CPU over the run, per request answered.
  const perRequest = (r: Row, share: number) => ((share / 100) * 1000) / rate(r.figures);
  for (const r of rows) {
    const db = r.server === "service" ? ` · PostgreSQL ${perRequest(r, r.figures.cpu.postgres).toFixed(2)} ms` : "";
    lines.push(`${r.figures.connections} conns · CPU per request, ${r.scenario} · ${r.server}: server ${perRequest(r, r.figures.cpu.server).toFixed(2)} ms${db}`);
  }
  const n = cpus().length;
  lines.push(`reference: Keycloak's sizing guide budgets ${KEYCLOAK_REFRESH_PER_VCPU} refresh grants/s per vCPU (${KEYCLOAK_REFRESH_PER_VCPU * n} for ${n} vCPUs)`);
  for (const r of rows) {
    const f = r.figures;
    if (other(f.cpu) > OTHER_WARNING)
      lines.push(`WARNING ${r.scenario} · ${r.server}: ${other(f.cpu).toFixed(0)} % of a CPU went to other processes in every run: the figures are low`);
    if (f.exhausted) lines.push(`${r.scenario} · ${r.server}: the seeded codes ran out after ${f.seconds.toFixed(1)} s (the rate covers that time)`);
    if (failures(f) || r.otherFailures)
      lines.push(
        `FAILED ${r.scenario} · ${r.server}: statuses ${JSON.stringify(f.statuses)}, ${f.errors} errors${f.firstError ? ` (${f.firstError})` : ""}, ${r.otherFailures} failed in warm-ups and repeated runs`,
      );
  }
  return lines;
}

async function main(): Promise<number> {
  const opts = options();
  console.log(`oidc bench · db ${opts.db} · ${machine()}`);
  console.log(
    `closed loop (one request in flight per connection) in this process, on the same CPUs as the server and PostgreSQL · ${opts.duration} s per run, ${opts.warmup} s warm-up`,
  );
  console.log(`each run waits for an idle machine; a run in which other processes took > ${OTHER_WARNING} % of a CPU is repeated (at most ${opts.retries} times)\n`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void Promise.all([stopReference?.(), cleanUpAll()]).finally(() => process.exit(130)));
  }
  const db = createDatabase(opts.db, opts.postgresUrl);
  // Codes are stored as a keyed hash under SERVICE_SECRET: this process hashes with the server's secret,
  // under the server's configuration (a local database in development mode, as bench/server.ts starts it).
  Object.assign(process.env, {
    DATABASE_URL: db.env.DATABASE_URL,
    SERVICE_SECRET: db.env.SERVICE_SECRET,
    AUTH_SECRET: db.env.AUTH_SECRET,
    DEVELOPMENT_MODE: db.env.DEVELOPMENT_MODE,
  });
  try {
    const service = await startService({ root: opts.root, db: { ...db, env: { ...db.env, OAUTH_REQUESTS_PER_MINUTE } } });
    console.log(`service started (cold start ${service.coldStartMs.toFixed(0)} ms), OAUTH_REQUESTS_PER_MINUTE=${OAUTH_REQUESTS_PER_MINUTE}`);
    let rows: Row[];
    try {
      rows = await serviceRows(opts, db, service);
    } finally {
      await service.stop();
    }
    console.log("service stopped; oidc-provider 9 (in-memory adapter) in its own process");
    rows.push(...(await referenceRows(opts, db.workDir)));
    console.log(`\n${report(rows)}\n`);
    console.log(
      "req/s: 200 answers per second · latency: request written → answer read, 200s only · CPU: percent of one CPU during the timed run (other: the machine's busy time not in the three)",
    );
    for (const line of summary(opts, rows)) console.log(line);
    const failed = rows.reduce((n, r) => n + failures(r.figures) + r.otherFailures, 0);
    if (failed) console.error(`FAILED: ${failed} request(s) were not 200 or errored.`);
    return failed ? 1 : 0;
  } finally {
    await cleanUpAll();
    agent.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`oidc bench: ${err.message}`);
    void Promise.all([stopReference?.(), cleanUpAll()]).finally(() => process.exit(1));
  },
);
