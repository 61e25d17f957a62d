// What the service adds to a connector tool call beyond the provider's own time: service_gmail_search,
// service_drive_search and service_notion_search, as POST /v1/tools/<name> and as tools/call on the
// developer MCP server, against local providers that answer at once (bench/connector-providers.ts, in
// their own process, timing each request they serve). One call at a time, then a closed loop at
// --connections; per call, the service's share is the call's latency at the client minus the time the
// provider spent on the call's requests. Seeds with the service's own functions, prints a table.
// Usage: npx tsx bench/connectors.ts [--db pglite|postgres] [--calls 500] [--connections 10] [--duration 10] [--warmup 3] [--users 1000] [--tools gmail,drive,notion] [--retries 2]
//    or: npm run bench -- --scenario connectors [the same options]
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { NOTION_TEST_CLIENT } from "../tests/helpers/notion-server";
import { percentile } from "./load";
import { benchOptions } from "./options";
import { cpuSample, cpuShare, OTHER_WARNING, processTicks, quietMachine, TICKS_PER_SECOND, type CpuShare } from "./proc";
import { machine } from "./report";
import { cleanUpAll, createDatabase, startService, type BenchDatabase, type Service } from "./server";
import { inParallel, ms, table } from "./timed-runs";

const BUDGET_P95_MS = 20;
const PROVIDERS_SCRIPT = fileURLToPath(new URL("./connector-providers.ts", import.meta.url));
/** The same prefix bench/connector-providers.ts accepts. */
const GOOGLE_TOKEN_PREFIX = "bench-google-";
const GOOGLE_SCOPES = ["gmail.readonly", "calendar.readonly", "drive.readonly"].map((s) => `https://www.googleapis.com/auth/${s}`);
const NOTION_REDIRECT = "http://localhost:3000/connect/callback";
const MCP_PROTOCOL_VERSION = "2025-06-18";
/** Calls one at a time before the sequential measurement. */
const SEQUENTIAL_WARMUP = 50;

type ToolKey = "gmail" | "drive" | "notion";
type Surface = "rest" | "mcp";

/** Each tool, the arguments every call sends, and the provider requests one call makes. */
const TOOLS: Record<ToolKey, { name: string; args: Record<string, unknown>; providerRequests: number; check: (body: Record<string, unknown>) => boolean }> = {
  gmail: { name: "service_gmail_search", args: { query: "", limit: 10 }, providerRequests: 2, check: (b) => Array.isArray(b.messages) && b.messages.length === 10 },
  drive: { name: "service_drive_search", args: { query: "roadmap", limit: 10 }, providerRequests: 1, check: (b) => Array.isArray(b.files) && b.files.length === 10 },
  notion: { name: "service_notion_search", args: { query: "roadmap", limit: 10 }, providerRequests: 1, check: (b) => Array.isArray(b.results) && b.results.length === 10 },
};

function options() {
  const { extra, ...opts } = benchOptions({ db: "pglite" }, { scenario: "connectors", calls: "500", users: "1000", tools: "gmail,drive,notion", retries: "2" });
  if (extra.scenario !== "connectors") throw new Error(`bench/connectors.ts runs the connectors scenario only, not '${extra.scenario}'.`);
  const count = (name: "calls" | "users" | "retries", min: number) => {
    const n = Number(extra[name]);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}, not '${extra[name]}'.`);
    return n;
  };
  const tools = extra.tools.split(",").map((t) => t.trim()) as ToolKey[];
  const unknown = tools.find((t) => !(t in TOOLS));
  if (unknown) throw new Error(`--tools takes ${Object.keys(TOOLS).join(", ")}, not '${unknown}'.`);
  const users = count("users", 1);
  if (users <= Math.max(...opts.connections)) throw new Error("--users must exceed --connections: no person may have two calls in flight at once.");
  return { ...opts, calls: count("calls", 1), users, retries: count("retries", 0), tools };
}

type Options = ReturnType<typeof options>;

// ─── The providers' process ─────────────────────────────────────────────────────────────────────

type Timed = [token: string, startNs: number, endNs: number];

interface Providers {
  pid: number;
  env: Record<string, string>;
  /** The requests the providers served since the last take, each with its Bearer token and times. */
  take(): Promise<Timed[]>;
  stop(): Promise<void>;
}

async function startProviders(workDir: string): Promise<Providers> {
  const logFile = path.join(workDir, "providers.log");
  const log = openSync(logFile, "a");
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", PROVIDERS_SCRIPT], {
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", log, log, "ipc"],
  });
  closeSync(log);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    await gone;
  };
  const env = await new Promise<Record<string, string>>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`The providers' process exited during start-up (${code}):\n${readFileSync(logFile, "utf8")}`)));
    child.once("message", (m: { type: string; env: Record<string, string> }) => resolve(m.env));
  });
  child.removeAllListeners("exit");
  const take = () =>
    new Promise<Timed[]>((resolve) => {
      child.once("message", (m: { records: Timed[] }) => resolve(m.records));
      child.send({ type: "take" });
    });
  return { pid: child.pid!, env, take, stop };
}

/** A Notion access token for one person: the local Notion's consent and code exchange, as a connection makes them. */
async function notionToken(env: Record<string, string>, i: number): Promise<string> {
  const authorize = new URL(env.NOTION_AUTHORIZATION_URL!);
  authorize.search = new URLSearchParams({ client_id: NOTION_TEST_CLIENT.id, owner: "user", response_type: "code", redirect_uri: NOTION_REDIRECT, state: `bench-${i}` }).toString();
  const back = await fetch(authorize, { redirect: "manual" });
  const code = new URL(back.headers.get("location")!).searchParams.get("code")!;
  const res = await fetch(env.NOTION_TOKEN_URL!, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Basic ${Buffer.from(`${NOTION_TEST_CLIENT.id}:${NOTION_TEST_CLIENT.secret}`).toString("base64")}` },
    body: JSON.stringify({ grant_type: "authorization_code", code, redirect_uri: NOTION_REDIRECT }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`The local Notion answered ${res.status} to a code exchange: ${JSON.stringify(body)}`);
  return body.access_token;
}

// ─── Seeding, with the service's own functions, in this process ─────────────────────────────────

interface Person {
  agentToken: string;
  /** The provider access token of each connected app: the providers' records name calls by it. */
  providerToken: Record<ToolKey, string>;
}

interface Seeded {
  secretKey: string;
  handle: string;
  people: Person[];
  ms: number;
}

/**
 * A developer, a live secret key, an agent, and `users` people who approved it, each with an agent
 * token and Gmail, Drive and Notion connected (tokens sealed as a consent stores them, valid for a day).
 */
async function seed(users: number, notionTokens: string[]): Promise<Seeded> {
  const { createAgent } = await import("../lib/agents/agents");
  const { issueApiKey } = await import("../lib/api-keys/api-keys");
  const { issueAgentToken } = await import("../lib/bearer-tokens/agent-token");
  const { sealConnectionToken } = await import("../lib/connectors/connections");
  const { db } = await import("../lib/platform/db");
  const { createDeveloper } = await import("../lib/developers/developers");
  const { approveAgent } = await import("../lib/users/approvals");
  const { grantApps } = await import("../lib/app-grants/grants");
  const { createUser } = await import("../lib/users/users");
  const started = performance.now();
  const developer = await createDeveloper({ name: "Bench Connectors Co" });
  const { key: secretKey } = await issueApiKey({ developerId: developer.id, kind: "secret", plane: "live" });
  const agent = await createAgent({ developerId: developer.id, handle: "bench-connectors", displayName: "Bench Connectors" });
  const prisma = await db();
  const expires = new Date(Date.now() + 86_400_000);
  const people = await inParallel(users, async (i): Promise<Person> => {
    const user = await createUser({ plane: "live" });
    await approveAgent({ userId: user.id, agentId: agent.id });
    const google = `${GOOGLE_TOKEN_PREFIX}${i}`;
    const connection = (app: string, provider: string, token: string, scopes: string[]) => ({
      userId: user.id,
      app,
      provider,
      accountId: `bench-account-${i}`,
      accountEmail: `bench${i}@example.com`,
      scopes,
      accessTokenSealed: sealConnectionToken(token),
      refreshTokenSealed: sealConnectionToken(`bench-refresh-${app}-${i}`),
      accessTokenExpiresAt: expires,
      status: "active",
    });
    await prisma.appConnection.createMany({
      data: [connection("gmail", "google", google, GOOGLE_SCOPES), connection("drive", "google", google, GOOGLE_SCOPES), connection("notion", "notion", notionTokens[i]!, [])],
    });
    // The person gave the agent the three apps, as finishing a connect link does.
    await prisma.$transaction((tx) => grantApps(tx, { userId: user.id, agentId: agent.id, apps: ["gmail", "drive", "notion"] }));
    const { token } = await issueAgentToken({ userId: user.id, developerId: developer.id, agentId: agent.id, agent: agent.handle, plane: "live" });
    return { agentToken: token, providerToken: { gmail: google, drive: google, notion: notionTokens[i]! } };
  });
  return { secretKey, handle: agent.handle, people, ms: performance.now() - started };
}

// ─── Calls ──────────────────────────────────────────────────────────────────────────────────────

interface CallSpec {
  path: string;
  headers: Record<string, string>;
  body: string;
}

function callSpec(s: Seeded, surface: Surface, tool: ToolKey, person: Person): CallSpec {
  const { name, args } = TOOLS[tool];
  const headers = { "content-type": "application/json", "x-api-key": s.secretKey, "x-agent": s.handle, authorization: `Bearer ${person.agentToken}` };
  if (surface === "rest") return { path: `/v1/tools/${name}`, headers, body: JSON.stringify(args) };
  return {
    path: "/mcp",
    headers: { ...headers, accept: "application/json, text/event-stream", "mcp-protocol-version": MCP_PROTOCOL_VERSION },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  };
}

/** The tool's answer in a call's body: the REST body, or the MCP result's structuredContent (null for a tool error). */
function answerOf(surface: Surface, body: string): Record<string, unknown> | null {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  if (surface === "rest") return parsed;
  const result = parsed.result as { isError?: boolean; structuredContent?: Record<string, unknown> } | undefined;
  return result && !result.isError ? (result.structuredContent ?? null) : null;
}

const agent = new http.Agent({ keepAlive: true });

interface Done {
  token: string;
  startNs: number;
  endNs: number;
  ok: boolean;
  status: number;
  body: string;
}

/** One call; times run from writing the request to reading the whole answer (process.hrtime, the providers' clock). */
function send(baseUrl: string, spec: CallSpec, token: string, surface: Surface): Promise<Done> {
  return new Promise((resolve, reject) => {
    const startNs = Number(process.hrtime.bigint());
    const req = http.request(
      new URL(spec.path, baseUrl),
      { agent, method: "POST", headers: { ...spec.headers, "content-length": String(Buffer.byteLength(spec.body)) } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => {
          const endNs = Number(process.hrtime.bigint());
          // A tool error on MCP is a 200 whose result says isError.
          const ok = res.statusCode === 200 && !(surface === "mcp" && body.includes('"isError":true'));
          resolve({ token, startNs, endNs, ok, status: res.statusCode ?? 0, body });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(spec.body);
  });
}

/** A closed loop: `connections` calls in flight, each for the next person in turn, for `seconds` (or `count` calls in all). */
async function loop(
  baseUrl: string,
  s: Seeded,
  surface: Surface,
  tool: ToolKey,
  connections: number,
  limit: { seconds?: number; count?: number },
): Promise<{ done: Done[]; seconds: number }> {
  const done: Done[] = [];
  const specs = s.people.map((p) => callSpec(s, surface, tool, p));
  let next = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = limit.seconds !== undefined ? started + limit.seconds * 1000 : Infinity;
  const worker = async () => {
    while (performance.now() < deadline && (limit.count === undefined || issued < limit.count)) {
      issued++;
      const i = next++ % s.people.length;
      done.push(await send(baseUrl, specs[i]!, s.people[i]!.providerToken[tool], surface));
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { done, seconds: (performance.now() - started) / 1000 };
}

// ─── The service's share of each call ───────────────────────────────────────────────────────────

interface Figures {
  calls: number;
  failed: number;
  rate: number;
  /** Per successful call, ascending, ms. */
  total: number[];
  provider: number[];
  added: number[];
  /** Provider requests per call: the fewest and the most. */
  requests: [number, number];
}

/**
 * Each call's provider time: the union of the intervals its provider requests spent at the providers
 * (a call's requests carry its person's token, and no person has two calls in flight, so a request
 * belongs to the call of its token during which it began), each cut at the call's end.
 */
function figures(run: { done: Done[]; seconds: number }, records: Timed[]): Figures {
  const byToken = new Map<string, Timed[]>();
  for (const r of records) {
    const list = byToken.get(r[0]);
    if (list) list.push(r);
    else byToken.set(r[0], [r]);
  }
  const total: number[] = [];
  const provider: number[] = [];
  const added: number[] = [];
  let fewest = Infinity;
  let most = 0;
  for (const call of run.done) {
    if (!call.ok) continue;
    const mine = (byToken.get(call.token) ?? []).filter((r) => r[1] >= call.startNs && r[1] <= call.endNs).sort((a, b) => a[1] - b[1]);
    let busy = 0;
    let from = -Infinity;
    let to = -Infinity;
    for (const [, start, finished] of mine) {
      // The providers' event loop may report an answer's last byte after the call has ended.
      const end = Math.min(finished, call.endNs);
      if (start > to) {
        if (to > from) busy += to - from;
        from = start;
        to = end;
      } else to = Math.max(to, end);
    }
    if (to > from) busy += to - from;
    const totalMs = (call.endNs - call.startNs) / 1e6;
    total.push(totalMs);
    provider.push(busy / 1e6);
    added.push(totalMs - busy / 1e6);
    fewest = Math.min(fewest, mine.length);
    most = Math.max(most, mine.length);
  }
  const asc = (a: number, b: number) => a - b;
  const failed = run.done.filter((d) => !d.ok).length;
  return {
    calls: run.done.length,
    failed,
    rate: run.done.length / run.seconds,
    total: total.sort(asc),
    provider: provider.sort(asc),
    added: added.sort(asc),
    requests: [fewest === Infinity ? 0 : fewest, most],
  };
}

// ─── Runs ───────────────────────────────────────────────────────────────────────────────────────

interface Row {
  surface: Surface;
  tool: ToolKey;
  connections: number;
  f: Figures;
  cpu: CpuShare & { providers: number };
  attempts: number;
  /** Failures in the warm-up and in repeated attempts. */
  otherFailures: number;
  firstFailure?: string;
}

const otherCpu = (cpu: Row["cpu"]) => Math.max(0, cpu.machine - cpu.server - cpu.postgres - cpu.bench - cpu.providers);

async function measure(opts: Options, service: Service, providers: Providers, s: Seeded, surface: Surface, tool: ToolKey, connections: number): Promise<Row> {
  let otherFailures = 0;
  const sequential = connections === 1;
  for (let attempt = 1; ; attempt++) {
    await quietMachine();
    const warm = await loop(service.baseUrl, s, surface, tool, connections, sequential ? { count: SEQUENTIAL_WARMUP } : { seconds: opts.warmup });
    otherFailures += warm.done.filter((d) => !d.ok).length;
    await providers.take();
    const before = cpuSample(service.pid);
    const providerTicks = processTicks(providers.pid);
    const run = await loop(service.baseUrl, s, surface, tool, connections, sequential ? { count: opts.calls } : { seconds: opts.duration });
    const cpu = { ...cpuShare(before, cpuSample(service.pid)), providers: ((processTicks(providers.pid) - providerTicks) / TICKS_PER_SECOND / run.seconds) * 100 };
    const f = figures(run, await providers.take());
    const failure = [...warm.done, ...run.done].find((d) => !d.ok);
    const row: Row = { surface, tool, connections, f, cpu, attempts: attempt, otherFailures, firstFailure: failure && `${failure.status} ${failure.body.slice(0, 300)}` };
    const line = `  ${surface} ${TOOLS[tool].name} · ${connections === 1 ? "one at a time" : `${connections} conns`}: ${f.rate.toFixed(0)} calls/s, added p95 ${ms(percentile(f.added, 95))} ms, ${f.failed} failed`;
    if (otherCpu(cpu) <= OTHER_WARNING || attempt > opts.retries) {
      console.log(line);
      return row;
    }
    console.log(`${line} · ${otherCpu(cpu).toFixed(0)} % of a CPU went to other processes: repeating`);
    otherFailures += f.failed;
  }
}

/** One call of each kind, checked in full: a 200 with the tool's answer, the provider requests it should make. */
async function probe(baseUrl: string, providers: Providers, s: Seeded, surface: Surface, tool: ToolKey): Promise<void> {
  const person = s.people[0]!;
  await providers.take();
  const done = await send(baseUrl, callSpec(s, surface, tool, person), person.providerToken[tool], surface);
  const answer = done.status === 200 ? answerOf(surface, done.body) : null;
  if (!answer || !TOOLS[tool].check(answer)) throw new Error(`${surface} ${TOOLS[tool].name} answered ${done.status}: ${done.body.slice(0, 400)}`);
  const served = (await providers.take()).filter((r) => r[0] === person.providerToken[tool]).length;
  if (served !== TOOLS[tool].providerRequests) throw new Error(`${surface} ${TOOLS[tool].name} made ${served} provider requests, not ${TOOLS[tool].providerRequests}.`);
}

/** The same provider requests a call makes, sent by this process one call at a time (fetch, as the service sends them). */
async function direct(providers: Providers, s: Seeded, tool: ToolKey, calls: number): Promise<number[]> {
  const env = providers.env;
  const person = s.people[0]!;
  const auth = { authorization: `Bearer ${person.providerToken[tool]}`, accept: "application/json" };
  const get = async (url: URL) => (await fetch(url, { headers: auth })).json();
  const once: Record<ToolKey, () => Promise<unknown>> = {
    gmail: async () => {
      const list = new URL(`${env.GMAIL_API_URL}/gmail/v1/users/me/messages`);
      list.searchParams.set("maxResults", "10");
      const { messages } = (await get(list)) as { messages: Array<{ id: string }> };
      await Promise.all(
        messages.map((m) => {
          const url = new URL(`${env.GMAIL_API_URL}/gmail/v1/users/me/messages/${m.id}`);
          url.searchParams.set("format", "metadata");
          for (const h of ["From", "To", "Subject", "Date"]) url.searchParams.append("metadataHeaders", h);
          return get(url);
        }),
      );
    },
    drive: async () => {
      const url = new URL(`${env.GOOGLE_DRIVE_API_URL}/drive/v3/files`);
      url.search = new URLSearchParams({
        q: "fullText contains 'roadmap' and trashed = false",
        pageSize: "10",
        fields: "nextPageToken,files(id,name,mimeType,modifiedTime,webViewLink,owners(displayName,emailAddress))",
      }).toString();
      await get(url);
    },
    notion: async () => {
      const res = await fetch(`${env.NOTION_API_URL}/search`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", "notion-version": "2022-06-28" },
        body: JSON.stringify({ query: "roadmap", page_size: 10 }),
      });
      await res.json();
    },
  };
  for (let i = 0; i < SEQUENTIAL_WARMUP; i++) await once[tool]();
  const out: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await once[tool]();
    out.push(performance.now() - started);
  }
  await providers.take();
  return out.sort((a, b) => a - b);
}

// ─── Report ─────────────────────────────────────────────────────────────────────────────────────

const HEADER = [
  "call",
  "conns",
  "ok",
  "calls/s",
  "total p50",
  "p95",
  "p99",
  "provider p50",
  "p95",
  "added p50",
  "p95",
  "p99",
  "max",
  "prov. req/call",
  "failures",
  "CPU % server",
  "db",
  "bench",
  "providers",
  "other",
  "runs",
];

function cells(r: Row): string[] {
  const f = r.f;
  const pct = (list: number[], p: number) => ms(percentile(list, p));
  return [
    `${r.surface === "rest" ? "REST" : "MCP "} ${TOOLS[r.tool].name}`,
    r.connections === 1 ? "1 (seq)" : String(r.connections),
    String(f.added.length),
    f.rate.toFixed(0),
    pct(f.total, 50),
    pct(f.total, 95),
    pct(f.total, 99),
    pct(f.provider, 50),
    pct(f.provider, 95),
    pct(f.added, 50),
    pct(f.added, 95),
    pct(f.added, 99),
    ms(f.added.at(-1) ?? NaN),
    f.requests[0] === f.requests[1] ? String(f.requests[0]) : `${f.requests[0]}–${f.requests[1]}`,
    String(f.failed + r.otherFailures),
    r.cpu.server.toFixed(0),
    r.cpu.postgres.toFixed(0),
    r.cpu.bench.toFixed(0),
    r.cpu.providers.toFixed(0),
    otherCpu(r.cpu).toFixed(0),
    String(r.attempts),
  ];
}

// ─── Main ───────────────────────────────────────────────────────────────────────────────────────

/** Points this process at the benchmark's database (it seeds through the service's functions, on the server's secrets). */
function useDatabase(db: BenchDatabase): void {
  for (const name of ["DATABASE_URL", "SERVICE_SECRET", "AUTH_SECRET", "DEVELOPMENT_MODE", "DATA_DIR"]) delete process.env[name];
  Object.assign(process.env, db.env, { LOG_LEVEL: "silent" });
}

async function measureAll(opts: Options, db: BenchDatabase): Promise<number> {
  const providers = await startProviders(db.workDir);
  let service: Service | undefined;
  try {
    const serverDb = { ...db, env: { ...db.env, ...providers.env, LOG_LEVEL: "info" } };
    const notionTokens = await Promise.all(Array.from({ length: opts.users }, (_, i) => notionToken(providers.env, i)));
    useDatabase(db);
    const { closeDatabase } = await import("../lib/platform/db");
    let s: Seeded;
    if (db.kind === "pglite") {
      // One connection: the first start makes and migrates the data directory, the seed runs with the server stopped.
      const first = await startService({ root: opts.root, db: serverDb });
      await first.stop();
      s = await seed(opts.users, notionTokens);
      await closeDatabase();
      service = await startService({ root: opts.root, db: serverDb });
    } else {
      service = await startService({ root: opts.root, db: serverDb });
      s = await seed(opts.users, notionTokens);
      await closeDatabase();
    }
    console.log(
      `service started (cold start ${service.coldStartMs.toFixed(0)} ms) · providers: ${providers.env.GMAIL_API_URL} (Gmail, Drive), ${providers.env.NOTION_API_URL} (Notion)`,
    );
    console.log(
      `seeded in ${(s.ms / 1000).toFixed(1)} s with the service's functions: a developer, a live secret key, agent '${s.handle}', ${s.people.length.toLocaleString("en")} people approving it, each with an agent token and Gmail, Drive and Notion connected and given to the agent`,
    );
    const surfaces: Surface[] = ["rest", "mcp"];
    for (const surface of surfaces) for (const tool of opts.tools) await probe(service.baseUrl, providers, s, surface, tool);
    console.log(
      `probes: every call answers 200 with its tool's answer (10 results; MCP: a result, not isError) and makes ${opts.tools.map((t) => `${TOOLS[t].providerRequests} provider request(s) (${t})`).join(", ")}\n`,
    );

    // The first runs of a fresh process are slower (the JIT, the database's caches): every call is warmed up first.
    for (const tool of opts.tools) for (const surface of surfaces) await loop(service.baseUrl, s, surface, tool, Math.max(...opts.connections), { seconds: opts.warmup });
    console.log(`warmed up: ${opts.warmup} s of each call at ${Math.max(...opts.connections)} connections\n`);

    const directs = new Map<ToolKey, number[]>();
    for (const tool of opts.tools) directs.set(tool, await direct(providers, s, tool, opts.calls));

    const rows: Row[] = [];
    for (const tool of opts.tools) {
      for (const surface of surfaces) {
        rows.push(await measure(opts, service, providers, s, surface, tool, 1));
        for (const connections of opts.connections) rows.push(await measure(opts, service, providers, s, surface, tool, connections));
      }
    }

    console.log(`\n${table(HEADER, rows.map(cells))}\n`);
    console.log(
      "total: the call's latency at this process (request written → whole answer read, keep-alive) · provider: the time the providers spent on the call's requests (union of their intervals, each from its headers parsed to its answer's last byte handed to the socket, measured in the providers' process) · added = total − provider, per call · ms; percentiles by nearest rank · CPU: percent of one CPU during the timed part (db: PostgreSQL's processes; with PGlite the database is inside the server)\n",
    );
    console.log("The same provider requests sent straight from this process (fetch, one call at a time, no service): ");
    for (const [tool, list] of directs)
      console.log(`  ${TOOLS[tool].name}: p50 ${ms(percentile(list, 50))} · p95 ${ms(percentile(list, 95))} · p99 ${ms(percentile(list, 99))} ms`);
    console.log("");
    for (const r of rows) {
      const p95 = percentile(r.f.added, 95);
      console.log(
        `${r.surface.toUpperCase()} ${TOOLS[r.tool].name} @ ${r.connections === 1 ? "1 (one at a time)" : `${r.connections} conns`} · budget added p95 ≤ ${BUDGET_P95_MS} ms: ${ms(p95)} ms — ${p95 <= BUDGET_P95_MS ? "met" : "NOT MET"}`,
      );
    }
    for (const r of rows) {
      if (otherCpu(r.cpu) > OTHER_WARNING)
        console.log(`WARNING ${r.surface} ${r.tool} @ ${r.connections}: ${otherCpu(r.cpu).toFixed(0)} % of a CPU went to other processes in every attempt: the figures are high`);
      if (r.f.failed || r.otherFailures)
        console.log(
          `FAILED ${r.surface} ${r.tool} @ ${r.connections}: ${r.f.failed} failed in the run, ${r.otherFailures} in warm-ups and repeated runs; first: ${r.firstFailure}`,
        );
    }
    return rows.reduce((n, r) => n + r.f.failed + r.otherFailures, 0);
  } finally {
    await service?.stop();
    await providers.stop();
  }
}

async function main(): Promise<number> {
  const opts = options();
  console.log(`connectors bench · db ${opts.db} · ${machine()}`);
  console.log(
    `closed loop in this process, on the same CPUs as the server, the providers${opts.db === "postgres" ? " and PostgreSQL" : ""} · ${opts.calls} calls one at a time (after ${SEQUENTIAL_WARMUP}), then ${opts.duration} s at ${opts.connections.join(", ")} connections (after ${opts.warmup} s) · tools ${opts.tools.join(", ")}`,
  );
  console.log(`each run waits for an idle machine; a run in which other processes took > ${OTHER_WARNING} % of a CPU is repeated (at most ${opts.retries} times)\n`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void cleanUpAll().finally(() => process.exit(130)));
  }
  const db = createDatabase(opts.db, opts.postgresUrl);
  try {
    const failed = await measureAll(opts, db);
    if (failed) console.error(`FAILED: ${failed} call(s) did not answer 200 with a tool result.`);
    return failed ? 1 : 0;
  } finally {
    agent.destroy();
    await cleanUpAll();
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`connectors bench: ${err.message}`);
    void cleanUpAll().finally(() => process.exit(1));
  },
);
