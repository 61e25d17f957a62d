// The load benchmark: starts the built service, measures cold start, RSS and throughput, prints a table.
// Usage: npx tsx bench/run.ts [--db pglite|postgres] [--scenario health|profile|all] [--duration 10] [--connections 10[,50]]
//        (--db postgres with the profile scenario: also the ceiling, bench/ceiling-server.mjs, and the read's share of it;
//         --web-concurrency N sets the server's processes, by default its own: one per core on PostgreSQL)
//        npx tsx bench/run.ts --scenario sign-in [its options]   (bench/sign-in.ts: the hosted sign-in budgets, PostgreSQL)
//        npx tsx bench/run.ts --scenario mcp [its options]       (bench/mcp.ts: the developer MCP server budgets, PostgreSQL)
//        npx tsx bench/run.ts --scenario connectors [its options] (bench/connectors.ts: what the service adds to a connector tool call)
//        npx tsx bench/run.ts --scenario import [its options]     (bench/import.ts: bulk import throughput, PostgreSQL)
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { tmpdir } from "node:os";
import { failures, provisionSandbox, runLoad, scenario, SCENARIOS, type LoadFigures, type Sandbox, type Scenario, type ScenarioName } from "./load";
import { benchOptions } from "./options";
import { loadTable, machine, statusNote, type Row } from "./report";
import { treeRssMiB } from "./rss";
import { cleanUpAll, createDatabase, startCeiling, startService, type BenchDatabase, type Service } from "./server";

const IDLE_SETTLE_MS = 2_000;
const IDLE_AFTER_LOAD_MS = 20_000;

/**
 * Scenarios that are benchmarks of their own (their own server settings, seed and report): run.ts hands
 * them the command line as it is. `all` runs the scenarios above only.
 */
const OWN_SCENARIOS: Record<string, () => Promise<unknown>> = {
  "sign-in": () => import("./sign-in"),
  mcp: () => import("./mcp"),
  connectors: () => import("./connectors"),
  import: () => import("./import"),
};

function ownScenario(): (() => Promise<unknown>) | undefined {
  const { values } = parseArgs({ strict: false, options: { scenario: { type: "string" } } });
  return typeof values.scenario === "string" ? OWN_SCENARIOS[values.scenario] : undefined;
}

function options() {
  const { extra, ...opts } = benchOptions({ db: "pglite" }, { scenario: "all", "web-concurrency": "" });
  const processes = extra["web-concurrency"];
  if (processes && !/^[1-9][0-9]?$/.test(processes)) throw new Error(`--web-concurrency must be a number of processes, not '${processes}'.`);
  const all = extra.scenario === "all";
  if (!all && !SCENARIOS.includes(extra.scenario as ScenarioName)) {
    throw new Error(`--scenario must be ${[...SCENARIOS, ...Object.keys(OWN_SCENARIOS)].join(", ")} or all, not '${extra.scenario}'.`);
  }
  // The server's own default when not given: one process per core on PostgreSQL, one on PGlite.
  const serverEnv: Record<string, string> = processes ? { WEB_CONCURRENCY: processes } : {};
  return { ...opts, serverEnv, scenarios: all ? [...SCENARIOS] : [extra.scenario as ScenarioName] };
}

type Options = ReturnType<typeof options>;

/** Provision, warm up, measure idle RSS, then the timed runs. Returns the number of failed requests. */
async function load(opts: Options, service: Service): Promise<number> {
  const mib = () => treeRssMiB(service.pid);
  const rssStarted = mib();
  const sandbox = await provisionSandbox(service.baseUrl);
  const scenarios = opts.scenarios.map((name) => scenario(name, sandbox));

  const warmups: LoadFigures[] = [];
  for (const s of scenarios) {
    warmups.push(await runLoad({ baseUrl: service.baseUrl, scenario: s, connections: Math.max(...opts.connections), duration: opts.warmup }));
  }
  await sleep(IDLE_SETTLE_MS);
  console.log(`RSS ${rssStarted.toFixed(0)} MiB after start · idle RSS ${mib().toFixed(0)} MiB after provision + warm-up`);

  const rows: Row[] = [];
  for (const s of scenarios) {
    for (const connections of opts.connections) {
      const figures = await runLoad({ baseUrl: service.baseUrl, scenario: s, connections, duration: opts.duration });
      rows.push({ ...figures, rssAfter: mib() });
    }
  }
  if (opts.db === "postgres" && opts.scenarios.includes("profile")) rows.push(...(await ceiling(opts, service, sandbox)));
  console.log(`\n${loadTable(rows)}\n`);
  for (const r of rows.filter((row) => row.scenario === "ceiling")) {
    const read = rows.find((row) => row.scenario === "profile" && row.connections === r.connections)!;
    console.log(
      `authenticated read (WEB_CONCURRENCY ${opts.serverEnv.WEB_CONCURRENCY ?? "the server's default"}) / ceiling (one process) at ${r.connections} connections: ` +
        `${read.rps.toFixed(0)} / ${r.rps.toFixed(0)} req/s = ${(read.rps / r.rps).toFixed(2)}`,
    );
  }
  await sleep(IDLE_AFTER_LOAD_MS);
  console.log(`idle RSS ${mib().toFixed(0)} MiB, ${IDLE_AFTER_LOAD_MS / 1000} s after the last run`);

  const warmupFailures = warmups.reduce((n, w) => n + failures(w), 0);
  const note = statusNote([...warmups, ...rows]);
  if (note) console.log(note);
  if (warmupFailures) console.log(`${warmupFailures} request(s) failed during warm-up`);
  return rows.reduce((n, r) => n + failures(r), 0) + warmupFailures;
}

/**
 * The same connection counts against the ceiling server on the same PostgreSQL, answering the body the
 * service's /v1/profile answers (its size, not its work): what one round trip per request costs here.
 */
async function ceiling(opts: Options, service: Service, sandbox: Sandbox): Promise<Row[]> {
  const read = scenario("profile", sandbox);
  const res = await fetch(`${service.baseUrl}${read.path}`, { headers: read.headers });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET /v1/profile answered ${res.status}: ${body}`);
  const server = await startCeiling({ root: opts.root, postgresUrl: opts.postgresUrl, body, workDir: tmpdir() });
  try {
    const ceilingScenario: Scenario = { name: "ceiling", path: "/", headers: {} };
    await runLoad({ baseUrl: server.baseUrl, scenario: ceilingScenario, connections: Math.max(...opts.connections), duration: opts.warmup });
    const rows: Row[] = [];
    for (const connections of opts.connections) {
      const figures = await runLoad({ baseUrl: server.baseUrl, scenario: ceilingScenario, connections, duration: opts.duration });
      rows.push({ ...figures, rssAfter: treeRssMiB(server.pid) });
    }
    return rows;
  } finally {
    await server.stop();
  }
}

/** A second start on the database the first one created and migrated: the everyday restart. */
async function restart(opts: Options, db: BenchDatabase): Promise<void> {
  const again = await startService({ root: opts.root, db, env: opts.serverEnv });
  try {
    console.log(`restart on the existing database: cold start ${again.coldStartMs.toFixed(0)} ms · RSS ${treeRssMiB(again.pid).toFixed(0)} MiB after start`);
  } finally {
    await again.stop();
  }
}

async function main(): Promise<number> {
  const opts = options();
  console.log(`bench · db ${opts.db} · ${machine()}`);
  console.log(`autocannon runs in this process, on the same CPUs as the server · ${opts.duration} s per run, ${opts.warmup} s warm-up\n`);

  // Whatever happens, no server outlives the benchmark and no database is left behind.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void cleanUpAll().finally(() => process.exit(130)));
  }
  const db = createDatabase(opts.db, opts.postgresUrl);
  try {
    const service = await startService({ root: opts.root, db, env: opts.serverEnv });
    console.log(`cold start ${service.coldStartMs.toFixed(0)} ms (spawn → first 200 from /api/health, fresh database)`);
    let failed: number;
    try {
      failed = await load(opts, service);
    } finally {
      await service.stop();
    }
    await restart(opts, db);
    if (failed) console.error(`FAILED: ${failed} request(s) were not 2xx or errored.`);
    return failed ? 1 : 0;
  } finally {
    await cleanUpAll();
  }
}

const handOver = ownScenario();
if (handOver) {
  handOver().catch((err: Error) => {
    console.error(`bench: ${err.message}`);
    process.exit(1);
  });
} else {
  main().then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(`bench: ${err.message}`);
      process.exit(1);
    },
  );
}
