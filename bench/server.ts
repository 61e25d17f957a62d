// The service under test: a throw-away database, and the built server as a child process on a free port.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { SERVER_NODE_FLAGS } from "../scripts/node-flags.mjs";

export type DbKind = "pglite" | "postgres";

/** A database for one benchmark run: the server environment that selects it, and its removal. */
export interface BenchDatabase {
  kind: DbKind;
  workDir: string;
  env: Record<string, string>;
  drop(): Promise<void>;
}

export interface Service {
  pid: number;
  baseUrl: string;
  /** Milliseconds from spawn to the first 200 from /api/health. */
  coldStartMs: number;
  /** Kills the server's process group. Idempotent. */
  stop(): Promise<void>;
}

const POLL_MS = 20;
const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;

/** Everything started or created and not yet cleaned up, newest last (for signal handlers). */
const cleanups = new Set<() => Promise<void>>();

/** Stops every server and drops every database this process created; servers first. */
export async function cleanUpAll(): Promise<void> {
  for (const cleanup of [...cleanups].reverse()) await cleanup();
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  const wrapped = () => {
    cleanups.delete(wrapped);
    done ??= fn();
    return done;
  };
  cleanups.add(wrapped);
  return wrapped;
}

/** A fresh PGlite data directory under /tmp, or a fresh schema in the given PostgreSQL database. */
export function createDatabase(kind: DbKind, postgresUrl: string): BenchDatabase {
  const workDir = mkdtempSync(path.join(tmpdir(), "bench-"));
  if (kind === "pglite") {
    const drop = once(async () => rmSync(workDir, { recursive: true, force: true }));
    return { kind, workDir, env: { DATA_DIR: path.join(workDir, "data") }, drop };
  }
  const schema = `bench_${randomBytes(6).toString("hex")}`;
  const url = new URL(postgresUrl);
  url.searchParams.set("schema", schema);
  const drop = once(async () => {
    const client = new pg.Client({ connectionString: postgresUrl });
    try {
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      // The job queue's tables live beside the service's (lib/platform/jobs: jobsSchema).
      await client.query(`DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`);
    } catch (err) {
      console.error(`warning: could not drop schema ${schema}: ${(err as Error).message}`);
    } finally {
      await client.end().catch(() => undefined);
    }
    rmSync(workDir, { recursive: true, force: true });
  });
  // Production with DATABASE_URL requires both secrets; throw-away, like the schema.
  const secrets = { SERVICE_SECRET: randomBytes(32).toString("base64url"), AUTH_SECRET: randomBytes(32).toString("base64url") };
  // The benchmarks sign people in through the development outbox.
  return { kind, workDir, env: { DATABASE_URL: url.toString(), DATA_DIR: path.join(workDir, "data"), DEVELOPMENT_MODE: "true", ...secrets }, drop };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("Could not find a free port.");
  return address.port;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function killGroup(child: ChildProcess): Promise<void> {
  if (!child.pid || exited(child)) return;
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig); // detached: the server leads its own process group
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const outcome = await Promise.race([gone.then(() => "exited" as const), sleep(STOP_GRACE_MS).then(() => "timeout" as const)]);
  if (outcome === "timeout") {
    signal("SIGKILL");
    await gone;
  }
}

async function firstHealthy(url: string, child: ChildProcess, spawnedAt: number): Promise<number> {
  for (;;) {
    if (exited(child)) throw new Error(`The server exited during start-up (${child.exitCode ?? child.signalCode}).`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      await res.body?.cancel();
      if (res.status === 200) return performance.now() - spawnedAt;
    } catch {
      // not listening yet
    }
    if (performance.now() - spawnedAt > START_TIMEOUT_MS) throw new Error(`No 200 from ${url} within ${START_TIMEOUT_MS} ms.`);
    await sleep(POLL_MS);
  }
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/** Starts `node scripts/server.mjs` from root (which must hold a build) and waits for /api/health. */
export async function startService(opts: { root: string; db: BenchDatabase; env?: Record<string, string> }): Promise<Service> {
  if (!existsSync(path.join(opts.root, ".next", "service-db-template", "PG_VERSION"))) {
    throw new Error(`No build in ${opts.root}: run \`npm run build\` there first.`);
  }
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // A run measures one configuration: nothing inherited may point it elsewhere.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  Object.assign(env, opts.db.env, opts.env, {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
  });

  // The request log goes to a file: an unread pipe would stall the server.
  const logFile = path.join(opts.db.workDir, `server-${port}.log`);
  const log = openSync(logFile, "a");
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, "scripts/server.mjs"], { cwd: opts.root, env, detached: true, stdio: ["ignore", log, log] });
  closeSync(log);
  const stop = once(() => killGroup(child));

  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    const coldStartMs = await firstHealthy(`${baseUrl}/api/health`, child, spawnedAt);
    return { pid: child.pid!, baseUrl, coldStartMs, stop };
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n--- server log ---\n${tail(logFile)}`, { cause: err });
  }
}

/**
 * The ceiling server (bench/ceiling-server.mjs) on the PostgreSQL of `postgresUrl`, answering every
 * request with `body` from one prepared point-select; its schema is dropped when it stops.
 */
export async function startCeiling(opts: { root: string; postgresUrl: string; body: string; workDir: string }): Promise<Service> {
  const schema = `bench_ceiling_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: opts.postgresUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.query(`CREATE TABLE "${schema}".profiles (id int PRIMARY KEY, body text NOT NULL)`);
    await admin.query(`INSERT INTO "${schema}".profiles (id, body) VALUES (1, $1)`, [opts.body]);
  } finally {
    await admin.end();
  }
  const dropSchema = once(async () => {
    const client = new pg.Client({ connectionString: opts.postgresUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end());
  });
  const port = await freePort();
  const logFile = path.join(opts.workDir, `ceiling-${port}.log`);
  const log = openSync(logFile, "a");
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ["bench/ceiling-server.mjs"], {
    cwd: opts.root,
    env: { ...process.env, PORT: String(port), DATABASE_URL: opts.postgresUrl, CEILING_SCHEMA: schema },
    detached: true,
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const stopServer = once(() => killGroup(child));
  const stop = async () => {
    await stopServer();
    await dropSchema();
  };
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    const coldStartMs = await firstHealthy(`${baseUrl}/`, child, spawnedAt);
    return { pid: child.pid!, baseUrl, coldStartMs, stop };
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n--- ceiling log ---\n${tail(logFile)}`, { cause: err });
  }
}
