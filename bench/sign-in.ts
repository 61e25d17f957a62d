// The hosted sign-in budgets on the built service over PostgreSQL: POST /v1/auth/sign-in/validate and
// POST /v1/auth/sign-in/exchange under load, and the sign-in host's first page (GET /sign-in/<name> →
// 303 → GET /flow/<id>) one request at a time. Seeds with the service's own functions, prints a table.
// Usage: npx tsx bench/sign-in.ts [--duration 10] [--connections 10,32] [--warmup 3] [--users 10000] [--pages 300] [--retries 2]
//    or: npm run bench -- --scenario sign-in [the same options]
import { randomBytes } from "node:crypto";
import path from "node:path";
import { createAgent } from "../lib/agents/agents";
import { issueApiKey } from "../lib/api-keys/api-keys";
import { issueAgentToken } from "../lib/bearer-tokens/agent-token";
import { createDeveloper } from "../lib/developers/developers";
import { issueSignInCode } from "../lib/sign-in/codes";
import { registerReturnDestination } from "../lib/sign-in/destinations";
import { approveAgent } from "../lib/users/approvals";
import { createUser } from "../lib/users/users";
import { percentile, type RequestSpec } from "./load";
import { benchOptions } from "./options";
import { cpuSample, cpuShare, other, OTHER_WARNING, quietMachine, type CpuShare } from "./proc";
import type { BenchDatabase, Service } from "./server";
import { failures, inParallel, LOAD_HEADER, LOAD_NOTE, loadCells, ms, runBench, pct, probe, send, table, timedRun, type Answer, type TimedRun } from "./timed-runs";

const BUDGETS = { validateRps: 2_000, validateP99: 20, exchangeRps: 500, firstPageP95: 50 };
/** Validate and exchange run at these connection counts unless --connections says otherwise. */
const DEFAULT_CONNECTIONS = [10, 32];
/** Flows one IP may start per hour, for the run: every sign-in page comes from 127.0.0.1 (the default is 300). */
const FLOWS_PER_IP_PER_HOUR = "100000000";
/** Codes issued per second of an exchange run (warm-up and timed run): more than the service exchanges here. */
const CODES_PER_SECOND = 2_000;
const PAGE_WARMUP = 30;
const RETURN_TO = "https://app.example.com/signed-in";
const VALIDATE_PATH = "/v1/auth/sign-in/validate";
const EXCHANGE_PATH = "/v1/auth/sign-in/exchange";

/**
 * Validations take the seeded users in turn: with the default 10,000 users no user comes round again
 * within the approval cache's second at any rate below 10,000/s, so every validation reads its approval
 * from PostgreSQL (the worst case; fewer users let the cache answer some).
 */
function options() {
  const { extra, ...opts } = benchOptions({ db: "postgres" }, { scenario: "sign-in", users: "10000", pages: "300", retries: "2" });
  if (opts.db !== "postgres") throw new Error("bench/sign-in.ts measures PostgreSQL only (--db postgres).");
  if (extra.scenario !== "sign-in") throw new Error(`bench/sign-in.ts runs the sign-in scenario only, not '${extra.scenario}'.`);
  const count = (name: keyof typeof extra, min: number) => {
    const n = Number(extra[name]);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}, not '${extra[name]}'.`);
    return n;
  };
  const explicit = process.argv.some((a) => a === "--connections" || a.startsWith("--connections="));
  return { ...opts, users: count("users", 1), pages: count("pages", 1), retries: count("retries", 0), connections: explicit ? opts.connections : DEFAULT_CONNECTIONS };
}

type Options = ReturnType<typeof options>;

// ─── Seeding, with the service's own functions, in this process ─────────────────────────────────

interface Seeded {
  secretKey: string;
  developerId: string;
  agentId: string;
  handle: string;
  signInName: string;
  displayName: string;
  userIds: string[];
  tokens: string[];
  ms: number;
}

async function seed(users: number): Promise<Seeded> {
  const started = performance.now();
  const developer = await createDeveloper({ name: "Bench Sign-In Co" });
  const { key: secretKey } = await issueApiKey({ developerId: developer.id, kind: "secret", plane: "live" });
  const agent = await createAgent({ developerId: developer.id, handle: "bench-signin", displayName: "Bench Sign-In" });
  const scope = { developerId: developer.id, agentId: agent.id, plane: "live" as const };
  if (!(await registerReturnDestination({ ...scope, url: RETURN_TO }))) throw new Error(`${RETURN_TO} was refused as a return destination.`);
  const userIds = await inParallel(users, async () => {
    const user = await createUser({ plane: "live" });
    await approveAgent({ userId: user.id, agentId: agent.id });
    return user.id;
  });
  const tokens = await Promise.all(userIds.map(async (userId) => (await issueAgentToken({ userId, ...scope, agent: agent.handle })).token));
  return {
    secretKey,
    developerId: developer.id,
    agentId: agent.id,
    handle: agent.handle,
    signInName: agent.signInName,
    displayName: agent.displayName,
    userIds,
    tokens,
    ms: performance.now() - started,
  };
}

/** `n` sign-in codes (one per exchange request: codes are single use), round the seeded users. */
async function issueCodes(s: Seeded, n: number): Promise<string[]> {
  return inParallel(n, async (i) => (await issueSignInCode({ developerId: s.developerId, agentId: s.agentId, plane: "live", userId: s.userIds[i % s.userIds.length]! })).code);
}

// ─── Requests ───────────────────────────────────────────────────────────────────────────────────

function apiRequest(s: Seeded, route: string, body: unknown): RequestSpec {
  return { method: "POST", path: route, headers: { "X-API-Key": s.secretKey, "X-Agent": s.handle, "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

/** Each validation presents the next seeded user's token. */
function validateRequests(s: Seeded): () => RequestSpec {
  let i = 0;
  return () => apiRequest(s, VALIDATE_PATH, { token: s.tokens[i++ % s.tokens.length] });
}

/** Each exchange presents the next unused code; past the pool, a well-formed unknown code (a 400 that fails the run). */
function exchangeRequests(s: Seeded, codes: string[]): { next: () => RequestSpec; ranOut: () => boolean } {
  let i = 0;
  return { next: () => apiRequest(s, EXCHANGE_PATH, { code: codes[i++] ?? "0".repeat(43) }), ranOut: () => i > codes.length };
}

/** The link → flow pair a browser makes: the sign-in host's 303 (with the flow cookie), then the flow's first screen. */
async function firstPage(baseUrl: string, s: Seeded): Promise<{ link: Answer; flow: Answer }> {
  const query = new URLSearchParams({ return_to: RETURN_TO, state: randomBytes(12).toString("base64url") });
  const link = await send(new URL(`/sign-in/${encodeURIComponent(s.signInName)}?${query}`, baseUrl), { method: "GET", headers: { accept: "text/html" } });
  const location = link.headers.location;
  const cookie = link.headers["set-cookie"]?.[0]?.split(";")[0];
  if (link.status !== 303 || !location || !cookie)
    throw new Error(`GET /sign-in/${s.signInName} answered ${link.status} (Location ${location ?? "none"}): ${link.body.slice(0, 300)}`);
  // The Location names the service's public BASE_URL; the page is asked of this server.
  const flowPath = new URL(location).pathname;
  if (!/^\/flow\/[A-Za-z0-9]+$/.test(flowPath)) throw new Error(`The sign-in link led to ${location}, not a flow.`);
  const flow = await send(new URL(flowPath, baseUrl), { method: "GET", headers: { accept: "text/html", cookie } });
  if (flow.status !== 200) throw new Error(`GET ${flowPath} answered ${flow.status}: ${flow.body.slice(0, 300)}`);
  if (!flow.body.includes(s.displayName)) throw new Error(`GET ${flowPath} did not name the agent (${s.displayName}): not its first screen.`);
  return { link, flow };
}

// ─── Runs ───────────────────────────────────────────────────────────────────────────────────────

interface LoadRow extends TimedRun {
  scenario: "validate" | "exchange";
}

async function loadRow(
  opts: Options,
  ctx: { service: Service; logFile: string },
  scenario: LoadRow["scenario"],
  connections: number,
  prepare: () => Promise<{ next: () => RequestSpec; ranOut?: () => boolean }>,
): Promise<LoadRow> {
  const route = scenario === "validate" ? VALIDATE_PATH : EXCHANGE_PATH;
  const { service, logFile } = ctx;
  const run = await timedRun({
    baseUrl: service.baseUrl,
    serverPid: service.pid,
    logFile,
    route,
    label: scenario,
    connections,
    warmup: opts.warmup,
    duration: opts.duration,
    retries: opts.retries,
    prepare,
  });
  return { scenario, ...run };
}

interface PageFigures {
  link: number[];
  flow: number[];
  pair: number[];
  flowBytes: number;
  cpu: CpuShare;
}

/** The link → flow pair one at a time after a warm-up, on an idle machine. */
async function pageRuns(opts: Options, service: Service, s: Seeded): Promise<PageFigures> {
  for (let i = 0; i < PAGE_WARMUP; i++) await firstPage(service.baseUrl, s);
  await quietMachine();
  const f: PageFigures = { link: [], flow: [], pair: [], flowBytes: 0, cpu: { server: 0, postgres: 0, bench: 0, machine: 0 } };
  const before = cpuSample(service.pid);
  for (let i = 0; i < opts.pages; i++) {
    const { link, flow } = await firstPage(service.baseUrl, s);
    f.link.push(link.ms);
    f.flow.push(flow.ms);
    f.pair.push(link.ms + flow.ms);
    f.flowBytes = Buffer.byteLength(flow.body);
  }
  f.cpu = cpuShare(before, cpuSample(service.pid));
  for (const list of [f.link, f.flow, f.pair]) list.sort((a, b) => a - b);
  return f;
}

// ─── Report ─────────────────────────────────────────────────────────────────────────────────────

function loadTable(rows: LoadRow[]): string {
  return table(
    LOAD_HEADER,
    rows.map((r) => loadCells(`POST ${r.scenario === "validate" ? VALIDATE_PATH : EXCHANGE_PATH}`, r)),
  );
}

function pageTable(f: PageFigures, s: Seeded): string {
  const row = (label: string, list: number[]) => [label, String(list.length), pct(list, 50), pct(list, 95), pct(list, 99), ms(list.at(-1) ?? NaN)];
  return table(
    ["request (one at a time)", "n", "p50 ms", "p95 ms", "p99 ms", "max ms"],
    [
      row(`GET /sign-in/${s.signInName}?return_to=…&state=… → 303`, f.link),
      row(`GET /flow/<id> with its cookie → 200 (${(f.flowBytes / 1024).toFixed(0)} KiB)`, f.flow),
      row("both, per sign-in", f.pair),
    ],
  );
}

function verdicts(rows: LoadRow[], pages: PageFigures): string[] {
  const met = (ok: boolean) => (ok ? "met" : "NOT MET");
  const lines: string[] = [];
  for (const r of rows) {
    const f = r.figures;
    if (r.scenario === "validate") {
      const p99 = percentile(f.latencies, 99);
      lines.push(
        `validate @ ${f.connections} conns · budget ≥ ${BUDGETS.validateRps.toLocaleString("en")} req/s with p99 ≤ ${BUDGETS.validateP99} ms: ${f.rps.toFixed(0)} req/s, p99 ${ms(p99)} ms — ${met(f.rps >= BUDGETS.validateRps && p99 <= BUDGETS.validateP99)}`,
      );
    } else {
      lines.push(`exchange @ ${f.connections} conns · budget ≥ ${BUDGETS.exchangeRps} req/s: ${f.rps.toFixed(0)} req/s — ${met(f.rps >= BUDGETS.exchangeRps)}`);
    }
  }
  const p95 = percentile(pages.pair, 95);
  lines.push(
    `first page · budget p95 ≤ ${BUDGETS.firstPageP95} ms: link ${ms(percentile(pages.link, 95))} + flow ${ms(percentile(pages.flow, 95))} ms; both per sign-in p95 ${ms(p95)} ms — ${met(p95 <= BUDGETS.firstPageP95)}`,
  );
  for (const r of rows) {
    if (other(r.cpu) > OTHER_WARNING)
      lines.push(`WARNING ${r.scenario} @ ${r.figures.connections}: ${other(r.cpu).toFixed(0)} % of a CPU went to other processes in every run: the figures are low`);
    if (r.ranOut) lines.push(`FAILED exchange @ ${r.figures.connections}: the issued codes ran out; raise CODES_PER_SECOND`);
    if (failures(r.figures) || r.otherFailures)
      lines.push(
        `FAILED ${r.scenario} @ ${r.figures.connections}: statuses ${JSON.stringify(r.figures.statusCodes)}, ${r.figures.errors} errors, ${r.otherFailures} failed in warm-ups and repeated runs`,
      );
  }
  if (other(pages.cpu) > OTHER_WARNING) lines.push(`WARNING first page: ${other(pages.cpu).toFixed(0)} % of a CPU went to other processes while it was measured`);
  return lines;
}

// ─── Main ───────────────────────────────────────────────────────────────────────────────────────

async function measureAll(opts: Options, db: BenchDatabase, service: Service): Promise<number> {
  const s = await seed(opts.users);
  console.log(
    `seeded in ${(s.ms / 1000).toFixed(1)} s with the service's functions: a developer, a live secret key, agent '${s.handle}' (sign-in name '${s.signInName}'), return destination ${RETURN_TO}, ${s.userIds.length.toLocaleString("en")} users approving it, an agent token each`,
  );

  const checked = await probe(service.baseUrl, validateRequests(s)(), "validate");
  if (checked.valid !== true || checked.approved !== true) throw new Error(`validate answered ${JSON.stringify(checked)} for a seeded token.`);
  const exchanged = await probe(service.baseUrl, exchangeRequests(s, await issueCodes(s, 1)).next(), "exchange");
  if (typeof exchanged.token !== "string" || exchanged.approved !== true) throw new Error(`exchange answered ${JSON.stringify(exchanged)} for a fresh code.`);
  // The probe also leaves the process as production runs it: Next.js has served a page, and its
  // AsyncLocalStorage now costs every request some time, those of the API fast path too.
  await firstPage(service.baseUrl, s);
  console.log("probes: validate 200 valid · exchange 200 with a token · sign-in link 303 + flow cookie → flow page 200 naming the agent\n");

  const ctx = { service, logFile: path.join(db.workDir, `server-${new URL(service.baseUrl).port}.log`) };
  const rows: LoadRow[] = [];
  for (const connections of opts.connections) rows.push(await loadRow(opts, ctx, "validate", connections, async () => ({ next: validateRequests(s) })));
  for (const connections of opts.connections) {
    // Codes live 5 minutes: each attempt gets its own, issued just before it.
    const prepare = async () => {
      const started = performance.now();
      const codes = await issueCodes(s, CODES_PER_SECOND * (opts.warmup + opts.duration));
      console.log(`  issued ${codes.length.toLocaleString("en")} sign-in codes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return exchangeRequests(s, codes);
    };
    rows.push(await loadRow(opts, ctx, "exchange", connections, prepare));
  }
  const pages = await pageRuns(opts, service, s);
  console.log(`  first page: ${opts.pages} sign-ins one at a time after ${PAGE_WARMUP} to warm up`);

  console.log(`\n${loadTable(rows)}\n`);
  console.log(`${LOAD_NOTE}\n`);
  console.log(`${pageTable(pages, s)}\n`);
  console.log(
    `The service sends no Server-Timing header: these are client-measured latencies (request written → whole answer read, keep-alive, concurrency 1, idle machine: CPU % server ${pages.cpu.server.toFixed(0)} · postgres ${pages.cpu.postgres.toFixed(0)} · bench ${pages.cpu.bench.toFixed(0)} · other ${other(pages.cpu).toFixed(0)}); each sign-in opens a new flow.\n`,
  );
  for (const line of verdicts(rows, pages)) console.log(line);
  return rows.reduce((n, r) => n + failures(r.figures) + r.otherFailures + (r.ranOut ? 1 : 0), 0);
}

const opts = options();
runBench("sign-in", opts, { FLOWS_PER_IP_PER_HOUR }, (db, service) => measureAll(opts, db, service));
