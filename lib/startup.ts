// What a process of the service does once at start-up and once at shutdown, the server and the
// worker alike: start-up opens the database and starts the job workers (any failure stops the
// process with a clear message); shutdown stops them, writes every batched log and closes the database.
import { startAppMemoriesWorker } from "./connectors/memories/run";
import { clearKeyRing } from "./oidc/signing-keys";
import { clearAllCaches } from "./platform/cache";
import { closeDatabase, database, type Database } from "./platform/db";
import { env } from "./env";
import { importWorkerStopped, startImportWorker } from "./import-jobs/worker";
import { queueCounts, stopJobs } from "./platform/jobs";
import { measurePool, measureQueues, startMetrics } from "./platform/metrics";
import { stopTracing } from "./platform/tracing";
import { logger } from "./platform/log";
import { processWideSlot } from "./process-wide";
import { closeRateLimitStore, connectRateLimitStore, limitStore } from "./platform/ratelimit";
import { flushWriters } from "./platform/log/batched-writer";
import { startSweeper } from "./maintenance/sweep";
import { startCommitWorker } from "./profile/commit";
import { startCompletionCallbackWorker } from "./sign-in/completion-callback";
import { startWebhookWorker } from "./webhooks/deliver";

/** Every job worker, with what waits while it is not running. */
const JOB_WORKERS: ReadonlyArray<{ start: () => Promise<void>; name: string; meanwhile?: string }> = [
  { start: startCommitWorker, name: "commit", meanwhile: "queued commits wait" },
  { start: startCompletionCallbackWorker, name: "completion callback", meanwhile: "callbacks wait" },
  { start: startSweeper, name: "sweep" },
  { start: startAppMemoriesWorker, name: "app memories", meanwhile: "connected apps are read later" },
  { start: startImportWorker, name: "bulk import", meanwhile: "import jobs wait" },
  { start: startWebhookWorker, name: "webhooks", meanwhile: "webhook deliveries wait" },
];

/** This process's start-up, once: the production server's API bundle and Next.js's instrumentation both ask for it. */
const starting = processWideSlot<Promise<void>>("service.start");

/** The web server's start-up (scripts/server.mjs, and instrumentation.ts, which Next.js runs in the same process). */
export function startService(): Promise<void> {
  starting.current ??= start();
  return starting.current;
}

async function start(): Promise<void> {
  const started = performance.now();
  try {
    const config = env();
    // Redis's first answer (or its absence) is known before the first request: none waits for it.
    const [db] = await Promise.all([database(), connectRateLimitStore()]);
    measure(db);
    // Queued jobs wait in the database, so the workers may start after the service answers.
    if (config.JOBS_WORKER === "in-process") {
      for (const worker of JOB_WORKERS) {
        worker.start().catch((err: Error) => logger().error({ err: err.message }, `the ${worker.name} worker did not start${worker.meanwhile ? `; ${worker.meanwhile}` : ""}`));
      }
    }
    logger().info(
      {
        database: db.kind,
        rate_limits: limitStore(),
        base_url: config.BASE_URL,
        ms: Math.round(performance.now() - started),
      },
      "service ready",
    );
  } catch (err) {
    // A half-configured or half-migrated service must not answer requests.
    console.error(`\nService failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

/** What /metrics reads at each scrape: the pool (on PostgreSQL) and the job queues. */
function measure(db: Database): void {
  startMetrics();
  const { pool } = db;
  if (pool) measurePool(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
  measureQueues(queueCounts);
}

/** The worker process's start-up (scripts/worker.ts): every job worker, each started before it is ready. */
export async function startWorker(): Promise<void> {
  env();
  measure(await database());
  for (const worker of JOB_WORKERS) await worker.start();
  logger().info("worker ready");
}

/**
 * Lets the process's work settle, keeping the database open: the job workers stop between their
 * steps (their own stop hooks first), then every batched writer writes what waits, rows the stopping
 * jobs recorded included.
 */
export async function settleService(): Promise<void> {
  await stopJobs();
  await flushWriters();
}

/** Graceful shutdown, the server's and the worker's: the work settles, then the database closes. */
export async function stopService(): Promise<void> {
  await settleService();
  await Promise.all([closeDatabase(), closeRateLimitStore(), stopTracing()]);
  // What was read from the database goes with it: a later start reads afresh.
  clearAllCaches();
  clearKeyRing();
  importWorkerStopped();
  starting.current = undefined;
}
