// The memory benchmark: profile, search, remember and commit on a seeded service, timed against their p95 budgets.
// Usage: npx tsx bench/memory.ts [--db postgres|pglite] [--duration 10] [--connections 10[,50]]
import pg from "pg";
import { parsePostgresUrl } from "../lib/platform/db/open";
import { percentile, provisionSandbox, runVaried, type RequestSpec, type Sandbox, type VariedFigures } from "./load";
import { benchOptions } from "./options";
import { machine } from "./report";
import { describeSeed, pick, rng, seedPglite, seedPostgres, WORDS, type Rng, type SeedResult } from "./seed";
import { cleanUpAll, createDatabase, startService, type BenchDatabase, type Service } from "./server";

const SEQUENTIAL_CALLS = 200;
/** Statuses that mean the route is not there (yet): the scenario is skipped, not failed. */
const ABSENT = new Set([404, 405]);

/** Questions an agent asks of a profile before answering the user. */
const QUESTIONS = [
  "where does the user live",
  "what food does the user like",
  "is the user allergic to anything",
  "what is the user working on",
  "does the user have kids",
  "what are the user's travel plans this year",
  "which programming languages does the user use",
  "is the user vegetarian or vegan",
  "what does the user do for work",
  "gift ideas for their partner",
  "marathon training",
  "preferred units and temperature scale",
  "upcoming trip to Japan",
  "what books is the user reading",
  "how should I format my answers",
  "what languages is the user learning",
  "what is the name of the user's dog",
  "favourite restaurants in Lisbon",
  "weekend hobbies like hiking or climbing",
  "does the user prefer window or aisle seats",
  "what is the user's name",
  "is the user planning to move house",
  "budget spreadsheet for household bills",
  "which dentist appointment reminders are pending",
];

function options() {
  const { extra: _, ...opts } = benchOptions({ db: "postgres" });
  return opts;
}

interface MemoryScenario {
  name: string;
  /** The p95 budget, ms. */
  budget: number;
  next: () => RequestSpec;
  /** Set when the route is absent: why the scenario was skipped. */
  skipped?: string;
}

/** Who the requests act for, and how a request for one of them looks. */
function requester(baseUrl: string, sandbox: Sandbox, seeded: SeedResult, r: Rng) {
  const ordinary = seeded.users.filter((u) => u !== seeded.heavy).map((u) => u.externalId);
  const everyone = seeded.users.map((u) => u.externalId);
  const request = (user: string, method: "GET" | "POST", path: string, body?: unknown): RequestSpec => ({
    method,
    path,
    headers: {
      "X-API-Key": sandbox.secret_key,
      "X-Agent": sandbox.agent.handle,
      "X-User-Id": user,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { baseUrl, ordinary, everyone, heavy: seeded.heavy.externalId, request, r };
}

type Requester = ReturnType<typeof requester>;

/** A fact no request of this run has sent before (a real insert, not a duplicate answered 200). */
function freshFacts(r: Rng) {
  const sent = new Set<string>();
  const year = () => 2027 + Math.floor(r() * 3);
  const day = () => 1 + Math.floor(r() * 28);
  const templates: (() => string)[] = [
    () => `Booked a table at a ${pick(r, WORDS.cuisines)} restaurant in ${pick(r, WORDS.cities)} for ${2 + Math.floor(r() * 9)} people on ${pick(r, WORDS.months)} ${day()}`,
    () => `The user is planning to visit ${pick(r, WORDS.cities)} in ${pick(r, WORDS.months)} ${year()}`,
    () => `Needs a new ${pick(r, WORDS.products)} under ${(2 + Math.floor(r() * 40)) * 25} euros before ${pick(r, WORDS.months)} ${day()}`,
    () => `The user's ${pick(r, WORDS.relatives)} ${pick(r, WORDS.given)} has a birthday on ${pick(r, WORDS.months)} ${day()}`,
    () => `Wants to ${pick(r, WORDS.activities)} in ${pick(r, WORDS.months)} ${year()} with ${pick(r, WORDS.given)}`,
  ];
  return () => {
    for (;;) {
      const text = pick(r, templates)();
      if (!sent.has(text)) {
        sent.add(text);
        return text;
      }
    }
  };
}

/** A 20-message turn (10 from the user, each with a fact or two, 10 replies). */
function conversation(r: Rng) {
  const said = [
    () => `I'm planning to visit ${pick(r, WORDS.cities)} in ${pick(r, WORDS.months)} ${2027 + Math.floor(r() * 3)} and I'd love a few ideas for the first weekend.`,
    () => `I've been learning ${pick(r, WORDS.languages)} for a while now, so I can manage menus and small talk.`,
    () => `My ${pick(r, WORDS.partners)} ${pick(r, WORDS.given)} is coming too. We both love ${pick(r, WORDS.likes)} but I can't stand ${pick(r, WORDS.dislikes)}.`,
    () => `I work as ${pick(r, ["a nurse", "a teacher", "an architect", "a software engineer", "a pharmacist"])} so I can only take ${3 + Math.floor(r() * 10)} days off.`,
    () => `I'm ${pick(r, WORDS.diets)}, please keep that in mind for restaurants. Oh and I'm allergic to ${pick(r, WORDS.allergens)}.`,
  ];
  const replies = [
    "Great choice. Here are three neighbourhoods worth staying in, with a short note on each and how to get around.",
    "Noted. I'll suggest places with clear menus and mark the ones that take reservations online.",
    "That works. A relaxed first day, a longer walk on the second, and an evening free for a good dinner.",
    "Understood. I'll keep the plan compact so the travel days don't eat into your time off.",
  ];
  return Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? { role: "user", content: pick(r, said)() } : { role: "assistant", content: pick(r, replies) }));
}

function scenarios(q: Requester): MemoryScenario[] {
  const { r, request } = q;
  const query = () => `/v1/profile/search?query=${encodeURIComponent(pick(r, QUESTIONS))}`;
  const fact = freshFacts(r);
  return [
    { name: "profile sections", budget: 15, next: () => request(pick(r, q.everyone), "GET", "/v1/profile?sections=identity,preferences,summary") },
    { name: "search heavy user", budget: 25, next: () => request(q.heavy, "GET", query()) },
    { name: "search ordinary", budget: 25, next: () => request(pick(r, q.ordinary), "GET", query()) },
    { name: "remember", budget: 20, next: () => request(pick(r, q.everyone), "POST", "/v1/profile/remember", { text: fact() }) },
    {
      name: "commit 20 msgs sync",
      budget: 60,
      next: () => request(pick(r, q.everyone), "POST", "/v1/profile/commit", { messages: conversation(r), sync: true }),
    },
  ];
}

async function call(baseUrl: string, spec: RequestSpec): Promise<{ status: number; ms: number; body: string }> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body });
  const body = await res.text();
  return { status: res.status, ms: performance.now() - started, body };
}

/** One call per scenario: routes the build does not have are marked skipped; other failures stop the run. */
async function probe(baseUrl: string, list: MemoryScenario[]): Promise<void> {
  for (const s of list) {
    const spec = s.next();
    const res = await call(baseUrl, spec);
    if (ABSENT.has(res.status)) s.skipped = `${spec.method} ${spec.path.split("?")[0]} answered ${res.status}: the route is not in this build`;
    else if (res.status >= 300) throw new Error(`${s.name}: ${spec.method} ${spec.path} answered ${res.status}: ${res.body.slice(0, 300)}`);
    else console.log(`probe ${s.name}: ${res.status} ${gist(res.body)}`);
  }
}

/** The fields of an answer that show the call did its work (results found, fact saved, commit run). */
function gist(body: string): string {
  const b = JSON.parse(body) as Record<string, unknown>;
  const fields = ["status", "saved", "facts_written", "memories_written"].filter((k) => k in b).map((k) => `${k}=${JSON.stringify(b[k])}`);
  if (Array.isArray(b.results)) fields.push(`results=${b.results.length}`);
  if (typeof b.summary === "string") fields.push(`summary=${b.summary.length} chars`);
  return fields.join(" ");
}

interface Sequential {
  latencies: number[];
  failed: number;
}

async function sequential(baseUrl: string, s: MemoryScenario): Promise<Sequential> {
  const latencies: number[] = [];
  let failed = 0;
  for (let i = 0; i < SEQUENTIAL_CALLS; i++) {
    const res = await call(baseUrl, s.next());
    if (res.status >= 200 && res.status < 300) latencies.push(res.ms);
    else failed++;
  }
  return { latencies: latencies.sort((a, b) => a - b), failed };
}

interface Row {
  scenario: MemoryScenario;
  seq?: Sequential;
  load?: VariedFigures;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

const ms = (v: number) => (Number.isNaN(v) ? "-" : v.toFixed(1));
const verdict = (p95: number, budget: number) => (Number.isNaN(p95) ? "-" : p95 <= budget ? "yes" : "NO");

function report(rows: Row[]): string {
  const header = ["scenario", "budget p95", "seq p50", "seq p95", "seq met", "conns", "req/s", "p50", "p95", "p99", "max", "non-2xx", "load met", "statuses"];
  const lines = rows.map(({ scenario: s, seq, load }) => {
    if (s.skipped) return [s.name, `${s.budget} ms`, "skipped", ...Array(header.length - 3).fill("")];
    const seqL = seq?.latencies ?? [];
    const l = load?.latencies ?? [];
    return [
      s.name,
      `${s.budget} ms`,
      ms(percentile(seqL, 50)),
      ms(percentile(seqL, 95)),
      verdict(percentile(seqL, 95), s.budget),
      String(load?.connections ?? "-"),
      load ? load.rps.toFixed(0) : "-",
      ms(percentile(l, 50)),
      ms(percentile(l, 95)),
      ms(percentile(l, 99)),
      ms(l.at(-1) ?? NaN),
      load ? String(load.non2xx + load.errors) : "-",
      verdict(percentile(l, 95), s.budget),
      load
        ? Object.entries(load.statusCodes)
            .map(([c, n]) => `${c}×${n}`)
            .join(" ")
        : "",
    ];
  });
  return table(header, lines);
}

/** Provisions the sandbox and seeds around it; PGlite is seeded while no server holds it. */
async function seeded(opts: ReturnType<typeof options>, db: BenchDatabase): Promise<{ service: Service; sandbox: Sandbox; seed: SeedResult }> {
  let service = await startService({ root: opts.root, db });
  console.log(`cold start ${service.coldStartMs.toFixed(0)} ms (fresh database)`);
  const sandbox = await provisionSandbox(service.baseUrl);
  let seed: SeedResult;
  if (opts.db === "postgres") {
    seed = await seedPostgres({ databaseUrl: db.env.DATABASE_URL!, sandbox });
  } else {
    await service.stop();
    seed = await seedPglite({ dataDir: db.env.DATA_DIR!, sandbox });
  }
  console.log(describeSeed(seed));
  if (opts.db === "pglite") {
    service = await startService({ root: opts.root, db });
    console.log(`restart on the seeded database: cold start ${service.coldStartMs.toFixed(0)} ms`);
  }
  return { service, sandbox, seed };
}

async function main(): Promise<number> {
  const opts = options();
  console.log(`memory bench · db ${opts.db} · ${machine()}`);
  console.log(`autocannon runs in this process, on the same CPUs as the server · ${opts.duration} s per run, ${opts.warmup} s warm-up\n`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void cleanUpAll().finally(() => process.exit(130)));
  }
  const db = createDatabase(opts.db, opts.postgresUrl);
  try {
    const { service, sandbox, seed } = await seeded(opts, db);
    const list = scenarios(requester(service.baseUrl, sandbox, seed, rng(7)));
    await probe(service.baseUrl, list);
    const live = list.filter((s) => !s.skipped);
    const top = Math.max(...opts.connections);
    for (const s of live) await runVaried({ baseUrl: service.baseUrl, next: s.next, connections: top, duration: opts.warmup });

    const seq = new Map<MemoryScenario, Sequential>();
    for (const s of live) seq.set(s, await sequential(service.baseUrl, s));
    const rows: Row[] = list.filter((s) => s.skipped).map((scenario) => ({ scenario }));
    for (const s of live) {
      for (const connections of opts.connections) {
        rows.push({ scenario: s, seq: seq.get(s), load: await runVaried({ baseUrl: service.baseUrl, next: s.next, connections, duration: opts.duration }) });
      }
    }
    rows.sort((a, b) => list.indexOf(a.scenario) - list.indexOf(b.scenario));
    console.log(`\n${report(rows)}\n`);
    console.log(`seq: ${SEQUENTIAL_CALLS} calls one after another after warm-up · load: autocannon, percentiles over every 2xx response's latency (ms, nearest rank)`);
    for (const s of list.filter((x) => x.skipped)) console.log(`${s.name} skipped: ${s.skipped}`);
    const failed = rows.reduce((n, r) => n + (r.load ? r.load.non2xx + r.load.errors : 0), 0) + [...seq.values()].reduce((n, x) => n + x.failed, 0);
    if (failed) console.error(`FAILED: ${failed} request(s) were not 2xx or errored.`);
    return failed ? 1 : 0;
  } finally {
    await cleanUpAll();
    if (db.env.DATABASE_URL) await dropJobsSchema(db.env.DATABASE_URL);
  }
}

/** The job queue's tables live in `<schema>_jobs` beside the bench schema, which BenchDatabase.drop leaves behind. */
async function dropJobsSchema(databaseUrl: string): Promise<void> {
  const { connectionString, schema } = parsePostgresUrl(databaseUrl);
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`);
  } catch (err) {
    console.error(`warning: could not drop schema ${schema}_jobs: ${(err as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`memory bench: ${err.message}`);
    process.exit(1);
  },
);
