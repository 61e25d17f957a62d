// The developer MCP server's budgets on the built service over PostgreSQL: tools/call
// service_profile_read on POST /mcp with an MCP session as Bearer, and POST /v1/profile/mcp-session
// (the mint), under load; beside the read, the same person's profile read over REST (GET /v1/profile
// with X-User-Id) in the same run, and the ratio of the two. Seeds with the service's own functions,
// prints a table.
// Usage: npx tsx bench/mcp.ts [--duration 10] [--connections 10,32] [--warmup 3] [--users 2000] [--memories 4] [--retries 2]
//    or: npm run bench -- --scenario mcp [the same options]
import path from "node:path";
import { createAgent } from "../lib/agents/agents";
import { issueApiKey, resolveApiKey } from "../lib/api-keys/api-keys";
import { createDeveloper } from "../lib/developers/developers";
import { mintMcpSession } from "../lib/profile/mcp-session";
import { remember } from "../lib/profile/remember";
import { approveAgent } from "../lib/users/approvals";
import { createUser, linkExternalId } from "../lib/users/users";
import { percentile, type RequestSpec } from "./load";
import { benchOptions } from "./options";
import { other, OTHER_WARNING } from "./proc";
import type { BenchDatabase, Service } from "./server";
import { failures, inParallel, LOAD_HEADER, LOAD_NOTE, loadCells, ms, runBench, probe, table, timedRun, type TimedRun } from "./timed-runs";

const BUDGETS = { readRps: 1_000, readP99: 30, mintRps: 1_000, readShareOfRest: 0.6 };
/** Both requests run at these connection counts unless --connections says otherwise. */
const DEFAULT_CONNECTIONS = [10, 32];
const MCP_PATH = "/mcp";
const MINT_PATH = "/v1/profile/mcp-session";
const REST_PATH = "/v1/profile";
/** A protocol version the SDK's Streamable HTTP transport accepts. */
const MCP_PROTOCOL_VERSION = "2025-06-18";
/** Facts each seeded user's profile is built from (the built-in distiller's shape). */
const FACTS = ["Lives in Porto", "Works as a nurse", "Prefers vegetarian food", "Has a daughter named Ana", "Is building a budgeting app in Rust", "Likes hiking on weekends"];

/**
 * Both requests take the seeded users in turn: with the default 2,000 users a user comes round again
 * after 2,000 requests (about 1–2 s at these rates), so the approval cache answers some of the reads.
 */
function options() {
  const { extra, ...opts } = benchOptions({ db: "postgres" }, { scenario: "mcp", users: "2000", memories: "4", retries: "2" });
  if (opts.db !== "postgres") throw new Error("bench/mcp.ts measures PostgreSQL only (--db postgres).");
  if (extra.scenario !== "mcp") throw new Error(`bench/mcp.ts runs the mcp scenario only, not '${extra.scenario}'.`);
  const count = (name: keyof typeof extra, min: number, max = Infinity) => {
    const n = Number(extra[name]);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}, not '${extra[name]}'.`);
    return n;
  };
  const explicit = process.argv.some((a) => a === "--connections" || a.startsWith("--connections="));
  return {
    ...opts,
    users: count("users", 1),
    memories: count("memories", 0, FACTS.length),
    retries: count("retries", 0),
    connections: explicit ? opts.connections : DEFAULT_CONNECTIONS,
  };
}

type Options = ReturnType<typeof options>;

// ─── Seeding, with the service's own functions, in this process ─────────────────────────────────

interface Seeded {
  secretKey: string;
  handle: string;
  externalIds: string[];
  sessions: string[];
  ms: number;
}

async function seed(opts: Options): Promise<Seeded> {
  const started = performance.now();
  const developer = await createDeveloper({ name: "Bench MCP Co" });
  const { key: secretKey } = await issueApiKey({ developerId: developer.id, kind: "secret", plane: "live" });
  const agent = await createAgent({ developerId: developer.id, handle: "bench-mcp", displayName: "Bench MCP" });
  const key = await resolveApiKey(secretKey);
  if (!key) throw new Error("The seeded secret key does not resolve.");
  const resolvedAgent = { id: agent.id, handle: agent.handle, displayName: agent.displayName };
  const externalIds = Array.from({ length: opts.users }, (_, i) => `bench-mcp-user-${String(i + 1).padStart(5, "0")}`);
  const sessions = await inParallel(opts.users, async (i) => {
    const user = await createUser({ plane: "live" });
    await approveAgent({ userId: user.id, agentId: agent.id });
    await linkExternalId({ developerId: developer.id, plane: "live", externalId: externalIds[i]!, userId: user.id });
    for (const text of FACTS.slice(0, opts.memories)) await remember({ userId: user.id, agent: resolvedAgent, text });
    const minted = await mintMcpSession({ key, agent: resolvedAgent, externalId: externalIds[i] });
    if (!minted.linked) throw new Error(`The MCP session of ${externalIds[i]} is not linked to the user.`);
    return minted.session.token;
  });
  return { secretKey, handle: agent.handle, externalIds, sessions, ms: performance.now() - started };
}

// ─── Requests ───────────────────────────────────────────────────────────────────────────────────

const READ_BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "service_profile_read", arguments: {} } });

/** Each read presents the next seeded user's MCP session; no initialize first (the server is stateless). */
function readRequests(s: Seeded): () => RequestSpec {
  let i = 0;
  const headers = {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": MCP_PROTOCOL_VERSION,
    "X-API-Key": s.secretKey,
    "X-Agent": s.handle,
  };
  return () => ({ method: "POST", path: MCP_PATH, headers: { ...headers, Authorization: `Bearer ${s.sessions[i++ % s.sessions.length]}` }, body: READ_BODY });
}

/** Each mint names the next seeded user (X-User-Id); the body is empty. */
function mintRequests(s: Seeded): () => RequestSpec {
  let i = 0;
  return () => ({ method: "POST", path: MINT_PATH, headers: { "X-API-Key": s.secretKey, "X-Agent": s.handle, "X-User-Id": s.externalIds[i++ % s.externalIds.length]! } });
}

/** The REST read of the same people: GET /v1/profile naming the next seeded user (X-User-Id). */
function restRequests(s: Seeded): () => RequestSpec {
  let i = 0;
  return () => ({ method: "GET", path: REST_PATH, headers: { "X-API-Key": s.secretKey, "X-Agent": s.handle, "X-User-Id": s.externalIds[i++ % s.externalIds.length]! } });
}

/** A tools/call answer must be a JSON-RPC result, not an error, and not a tool error (isError). */
function checkRead(answer: Record<string, unknown>): void {
  const result = answer.result as { isError?: boolean; structuredContent?: { linked?: boolean; identity?: { facts?: unknown[] } } } | undefined;
  if (answer.error || !result || result.isError) throw new Error(`tools/call service_profile_read answered ${JSON.stringify(answer).slice(0, 400)}`);
  if (result.structuredContent?.linked !== true) throw new Error(`service_profile_read did not read the linked user's profile: ${JSON.stringify(result).slice(0, 400)}`);
}

// ─── Runs ───────────────────────────────────────────────────────────────────────────────────────

type Scenario = "read" | "rest" | "mint";

interface LoadRow extends TimedRun {
  scenario: Scenario;
}

const ROUTES: Record<Scenario, string> = { read: MCP_PATH, rest: REST_PATH, mint: MINT_PATH };
const LABELS: Record<Scenario, string> = { read: "POST /mcp tools/call service_profile_read", rest: `GET ${REST_PATH} (X-User-Id)`, mint: `POST ${MINT_PATH}` };

async function loadRow(opts: Options, service: Service, logFile: string, scenario: Scenario, connections: number, next: () => RequestSpec): Promise<LoadRow> {
  const run = await timedRun({
    baseUrl: service.baseUrl,
    serverPid: service.pid,
    logFile,
    route: ROUTES[scenario],
    label: scenario,
    connections,
    warmup: opts.warmup,
    duration: opts.duration,
    retries: opts.retries,
    prepare: async () => ({ next }),
  });
  return { scenario, ...run };
}

function verdicts(rows: LoadRow[]): string[] {
  const met = (ok: boolean) => (ok ? "met" : "NOT MET");
  const lines: string[] = [];
  for (const r of rows) {
    const f = r.figures;
    if (r.scenario === "read") {
      const p99 = percentile(f.latencies, 99);
      lines.push(
        `read @ ${f.connections} conns · budget ≥ ${BUDGETS.readRps.toLocaleString("en")} calls/s with p99 ≤ ${BUDGETS.readP99} ms: ${f.rps.toFixed(0)} calls/s, p99 ${ms(p99)} ms — ${met(f.rps >= BUDGETS.readRps && p99 <= BUDGETS.readP99)}`,
      );
      const rest = rows.find((x) => x.scenario === "rest" && x.figures.connections === f.connections);
      if (rest) {
        const share = f.rps / rest.figures.rps;
        lines.push(
          `read @ ${f.connections} conns · MCP / REST read in this run ≥ ${BUDGETS.readShareOfRest}: ${f.rps.toFixed(0)} / ${rest.figures.rps.toFixed(0)} = ${share.toFixed(2)} — ${met(share >= BUDGETS.readShareOfRest)}`,
        );
      }
    } else if (r.scenario === "mint") {
      lines.push(`mint @ ${f.connections} conns · budget ≥ ${BUDGETS.mintRps.toLocaleString("en")} req/s: ${f.rps.toFixed(0)} req/s — ${met(f.rps >= BUDGETS.mintRps)}`);
    }
  }
  for (const r of rows) {
    if (other(r.cpu) > OTHER_WARNING)
      lines.push(`WARNING ${r.scenario} @ ${r.figures.connections}: ${other(r.cpu).toFixed(0)} % of a CPU went to other processes in every run: the figures are low`);
    if (failures(r.figures) || r.otherFailures)
      lines.push(
        `FAILED ${r.scenario} @ ${r.figures.connections}: statuses ${JSON.stringify(r.figures.statusCodes)}, ${r.figures.errors} errors, ${r.otherFailures} failed in warm-ups and repeated runs`,
      );
  }
  return lines;
}

// ─── Main ───────────────────────────────────────────────────────────────────────────────────────

async function measureAll(opts: Options, db: BenchDatabase, service: Service): Promise<number> {
  const s = await seed(opts);
  console.log(
    `seeded in ${(s.ms / 1000).toFixed(1)} s with the service's functions: a developer, a live secret key, agent '${s.handle}', ${s.externalIds.length.toLocaleString("en")} users approving it, each linked to an external id, with ${opts.memories} remembered facts and an MCP session`,
  );

  checkRead(await probe(service.baseUrl, readRequests(s)(), "tools/call service_profile_read"));
  const minted = await probe(service.baseUrl, mintRequests(s)(), "mcp-session");
  if (minted.linked !== true || typeof (minted.session as { token?: unknown } | undefined)?.token !== "string")
    throw new Error(`mcp-session answered ${JSON.stringify(minted)} for a seeded user.`);
  const rest = await probe(service.baseUrl, restRequests(s)(), "GET /v1/profile");
  if (!rest.identity) throw new Error(`GET /v1/profile answered ${JSON.stringify(rest).slice(0, 400)} for a seeded user.`);
  console.log(
    "probes: tools/call without initialize → 200 with a tool result (not isError) of the linked profile · GET /v1/profile 200 with the profile · mcp-session 200 linked with a token\n",
  );

  const logFile = path.join(db.workDir, `server-${new URL(service.baseUrl).port}.log`);
  const rows: LoadRow[] = [];
  for (const connections of opts.connections) {
    rows.push(await loadRow(opts, service, logFile, "read", connections, readRequests(s)));
    rows.push(await loadRow(opts, service, logFile, "rest", connections, restRequests(s)));
  }
  for (const connections of opts.connections) rows.push(await loadRow(opts, service, logFile, "mint", connections, mintRequests(s)));

  console.log(
    `\n${table(
      LOAD_HEADER,
      rows.map((r) => loadCells(LABELS[r.scenario], r)),
    )}\n`,
  );
  console.log(`${LOAD_NOTE}\n`);
  console.log("Every 200 counts: autocannon does not read the JSON-RPC body, so the probe before the runs is what shows the answers are tool results.\n");
  for (const line of verdicts(rows)) console.log(line);
  return rows.reduce((n, r) => n + failures(r.figures) + r.otherFailures, 0);
}

const opts = options();
runBench("mcp", opts, {}, (db, service) => measureAll(opts, db, service));
