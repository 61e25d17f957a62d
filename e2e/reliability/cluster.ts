// The service as docs/operations.md deploys it: two instances from `npm start` and a worker from
// `npm run worker`, on one PostgreSQL database and one Redis, behind HAProxy with deploy/haproxy.cfg.
// PostgreSQL and Redis are reached through TCP proxies (tests/helpers/tcp-proxy.ts), so the suite can
// cut them off — every connection dropped, new ones refused, as a restart or a stopped server looks
// to the instances — without touching the machine's own servers.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { buildState } from "../../scripts/build-stamp.mjs";
import { startTcpProxy, type TcpProxy } from "../../tests/helpers/tcp-proxy";

/** How long an instance has to stop after SIGTERM (its SHUTDOWN_TIMEOUT_MS). */
export const SHUTDOWN_TIMEOUT_MS = 5_000;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A JSON log line, or what else a service process may write: npm's header, the listening line, nothing. */
function isLogLine(line: string): boolean {
  if (!line.trim() || line.startsWith("> ") || line.startsWith("Service listening on ")) return true;
  try {
    return typeof JSON.parse(line) === "object";
  } catch {
    return false;
  }
}

/** A process of the deployment (an instance, the worker, HAProxy), in a process group of its own. */
export class Proc {
  child!: ChildProcess;
  output = "";
  /** Lines the process wrote that are not one JSON object, but npm's own and the listening line. */
  notJson: string[] = [];
  exited!: Promise<number | null>;

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly env: Record<string, string>,
  ) {}

  start(): void {
    this.child = spawn(this.command, this.args, { env: { ...process.env, ...this.env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const keep = (chunk: Buffer) => {
      this.output += chunk.toString();
      if (this.output.length > 200_000) this.output = this.output.slice(-100_000);
    };
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      let pending = "";
      stream.on("data", (chunk: Buffer) => {
        keep(chunk);
        const lines = (pending + chunk.toString()).split("\n");
        pending = lines.pop()!;
        this.notJson.push(...lines.filter((line) => !isLogLine(line)));
      });
    }
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** kill -9 of the whole group (npm, scripts/start.mjs, the server): the instance is gone at once. */
  async kill9(): Promise<void> {
    try {
      process.kill(-this.child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
    await this.exited;
  }

  /** SIGTERM to the process an operator started (npm), as a process manager sends it. */
  terminate(): void {
    this.child.kill("SIGTERM");
  }

  /** Ends whatever of the group is left. */
  async stop(): Promise<void> {
    if (!this.child) return;
    try {
      process.kill(-this.child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
    await Promise.race([this.exited, sleep(5_000)]);
  }
}

export interface Cluster {
  /** HAProxy's address: the service's BASE_URL. */
  url: string;
  /** instance1 runs one server process; instance2 two (WEB_CONCURRENCY=2). Each serves its metrics on a port of its own. */
  instances: Array<Proc & { port: number; url: string; server: string; metricsUrl: string }>;
  worker: Proc;
  haproxy: Proc;
  postgres: TcpProxy;
  redis: TcpProxy;
  /** The suite's own database, read directly (not through the proxy) to check what was kept. */
  db: pg.Pool;
  /** The prefix of this run's rate-limit keys in Redis. */
  rateLimitPrefix: string;
  /** Starts an instance again after a kill or a SIGTERM (unless it runs already), and waits until HAProxy sends it traffic. */
  restart(instance: Cluster["instances"][number]): Promise<void>;
  /** Everything the processes printed, for a failure's report. */
  logs(): string;
  close(): Promise<void>;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, logs: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms.\n${logs()}`);
}

export async function startCluster(testDatabaseUrl: string, testRedisUrl: string): Promise<Cluster> {
  // Each npm start would build a missing or stale build itself, all at once: build once, first.
  if (buildState() !== "current") throw new Error("The reliability suite serves the current build: run npm run build first.");
  const name = `reliability_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const direct = new URL(testDatabaseUrl);
  direct.pathname = `/${name}`;
  const redisTarget = new URL(testRedisUrl);
  const postgres = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const redis = await startTcpProxy({ host: redisTarget.hostname, port: Number(redisTarget.port || 6379) });
  const viaProxy = new URL(direct);
  viaProxy.hostname = "127.0.0.1";
  viaProxy.port = String(postgres.port);
  const redisUrl = new URL(testRedisUrl);
  redisUrl.hostname = "127.0.0.1";
  redisUrl.port = String(redis.port);

  const [lbPort, portA, portB, unusedPort, metricsA, metricsB] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
  const url = `http://localhost:${lbPort}`;
  const rateLimitPrefix = `rl-${name}`;
  // What the README's Production section asks for. Text messages and e-mail have production drivers
  // pointed at a port nobody serves: the suite's sign-in uses the sandbox's number, which is never texted.
  const env: Record<string, string> = {
    NODE_ENV: "production",
    DATABASE_URL: viaProxy.toString(),
    REDIS_URL: redisUrl.toString(),
    RATE_LIMIT_PREFIX: rateLimitPrefix,
    SERVICE_SECRET: randomBytes(32).toString("hex"),
    AUTH_SECRET: randomBytes(32).toString("hex"),
    BASE_URL: url,
    TRUSTED_PROXY_HOPS: "1",
    JOBS_WORKER: "off",
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    SMS_DRIVER: "twilio",
    TWILIO_ACCOUNT_SID: `AC${"0".repeat(32)}`,
    TWILIO_AUTH_TOKEN: "unused",
    TWILIO_FROM: "+15005550006",
    TWILIO_API_BASE: `http://127.0.0.1:${unusedPort}`,
    SMS_COUNTRIES: "US",
    EMAIL_DRIVER: "smtp",
    SMTP_URL: `smtp://127.0.0.1:${unusedPort}`,
    // The suite's requests all come from this machine: the experiments measure faults, not limits.
    OAUTH_REQUESTS_PER_MINUTE: "100000",
    LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const instances = [
    { server: "instance1", port: portA, metrics: metricsA, processes: 1 },
    { server: "instance2", port: portB, metrics: metricsB, processes: 2 },
  ].map(({ server, port, metrics, processes }) =>
    Object.assign(
      new Proc(server, "npm", ["start", "--silent"], { ...env, PORT: String(port), METRICS_PORT: String(metrics), METRICS_HOST: "127.0.0.1", WEB_CONCURRENCY: String(processes) }),
      { port, url: `http://127.0.0.1:${port}`, server, metricsUrl: `http://127.0.0.1:${metrics}/metrics` },
    ),
  );
  const worker = new Proc("worker", "npm", ["run", "worker", "--silent"], { ...env, JOBS_WORKER: "in-process" });
  const haproxy = new Proc("haproxy", "haproxy", ["-db", "-f", "deploy/haproxy.cfg"], {
    LISTEN: `127.0.0.1:${lbPort}`,
    INSTANCE_1: `127.0.0.1:${portA}`,
    INSTANCE_2: `127.0.0.1:${portB}`,
  });
  const db = new pg.Pool({ connectionString: direct.toString(), max: 4 });
  const logs = () => [...instances, worker, haproxy].map((p) => `--- ${p.name}\n${p.output.slice(-4000)}`).join("\n");

  const ready = (target: string) => fetch(`${target}/api/ready`).then((r) => r.status === 200);
  /** HAProxy sends this instance traffic: a few answers through it name the instance. */
  const inRotation = async (server: string) => {
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${url}/api/ready`);
      if (res.headers.get("x-served-by") === server) return true;
    }
    return false;
  };
  const cluster: Cluster = {
    url,
    instances,
    worker,
    haproxy,
    postgres,
    redis,
    db,
    rateLimitPrefix,
    async restart(instance) {
      if (!instance.running) instance.start();
      await waitFor(`${instance.name} ready`, () => ready(instance.url), 60_000, logs);
      await waitFor(`${instance.name} in HAProxy's rotation`, () => inRotation(instance.server), 10_000, logs);
    },
    logs,
    async close() {
      await Promise.all([...instances, worker, haproxy].map((p) => p.stop()));
      await db.end();
      await postgres.close();
      await redis.close();
      const again = new pg.Client({ connectionString: testDatabaseUrl });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
  // Everything starts at once, as a deploy starts it: the migrations run once, under their advisory lock.
  for (const p of [...instances, worker, haproxy]) p.start();
  for (const instance of instances) await waitFor(`${instance.name} ready`, () => ready(instance.url), 90_000, logs);
  await waitFor("both instances in HAProxy's rotation", async () => (await inRotation("instance1")) && (await inRotation("instance2")), 15_000, logs);
  return cluster;
}
