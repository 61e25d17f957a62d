// Background jobs on pg-boss, in the service's own database (PGlite or PostgreSQL). Queued work
// lives in the database, so it survives a restart: a worker started later picks it up.
import type { PgBoss } from "pg-boss";
import { database } from "../db";
import { parsePostgresUrl } from "../db/open";
import { env } from "../../env";
import { logger } from "../log";
import { countJobFailure } from "../metrics";
import { processWide, processWideSlot } from "../../process-wide";

export const QUEUES = {
  commit: "profile-commit",
  sweep: "service-sweep",
  completionCallback: "sign-in-completion-callback",
  /** One connected app's memories, read and distilled (lib/connectors/memories): one job per connection at a time. */
  appMemories: "app-memories",
  /** The daily run that queues appMemories for every active connection. */
  appMemoriesDaily: "app-memories-daily",
  /** A bulk import job (lib/import-jobs): the hand-off to a worker; the job's own row holds its state. */
  importJobs: "import-jobs",
  /** One try of a webhook delivery (lib/webhooks): the delivery's own row holds its schedule. */
  webhookDeliveries: "webhook-deliveries",
} as const;
type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
/** How often a failed job is tried again before it is given up. */
export const JOB_RETRY_LIMIT = 3;
/**
 * Queues that retry on their own terms (seconds). A completion callback is tried 5 times in all, the
 * waits doubling from 15–30 s up to 5 minutes: a developer's endpoint that is briefly down still gets it.
 */
const QUEUE_RETRY: Partial<Record<QueueName, { retryLimit: number; retryDelay: number; retryDelayMax: number }>> = {
  [QUEUES.completionCallback]: { retryLimit: 4, retryDelay: 15, retryDelayMax: 300 },
};

/**
 * Queues whose jobs carry a singleton key: "stately" holds at most one job per key waiting and one
 * running, so two runs for one key never overlap and a burst of sends queues one more run at most.
 */
const QUEUE_POLICY: Partial<Record<QueueName, "stately">> = { [QUEUES.appMemories]: "stately" };

/** How often a failed job of `queue` is tried again before it is given up. */
export function retryLimitOf(queue: QueueName): number {
  return QUEUE_RETRY[queue]?.retryLimit ?? JOB_RETRY_LIMIT;
}
type Handler = (data: Record<string, unknown>, attempt: { retryCount: number; final: boolean }) => Promise<void>;

/** The job system, once started. */
const started = processWideSlot<Promise<PgBoss>>("jobs");
/** The queues this process works (each at most once). */
const workedQueues = processWide("jobs.worked-queues", () => new Set<string>());

/** pg-boss's own schema: beside the service's tables (their schema, suffixed, when one is named). */
export function jobsSchema(databaseUrl?: string): string {
  const schema = databaseUrl ? parsePostgresUrl(databaseUrl).schema : undefined;
  return schema ? `${schema}_jobs` : "pgboss";
}

async function startBoss(): Promise<PgBoss> {
  // Loaded on first use, off the start-up path (the worker starts after the service answers).
  const { PgBoss, fromPglite } = await import("pg-boss");
  const config = env();
  const db = await database();
  const boss = db.pglite
    ? new PgBoss({ db: fromPglite(db.pglite), backend: "pglite", schema: jobsSchema() })
    : new PgBoss({ connectionString: parsePostgresUrl(config.DATABASE_URL!).connectionString, schema: jobsSchema(config.DATABASE_URL), max: 4 });
  boss.on("error", (err: Error) => logger().error({ err: err.message }, "job system error"));
  await boss.start();
  for (const name of Object.values(QUEUES)) {
    await boss.createQueue(name, {
      retryLimit: JOB_RETRY_LIMIT,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 300,
      ...QUEUE_RETRY[name],
      ...(QUEUE_POLICY[name] ? { policy: QUEUE_POLICY[name] } : {}),
    });
  }
  return boss;
}

/** The process's job system, started on first use. */
export function jobs(): Promise<PgBoss> {
  started.current ??= startBoss().catch((err) => {
    started.current = undefined;
    throw err;
  });
  return started.current;
}

export async function enqueue(queue: QueueName, data: Record<string, unknown>): Promise<void> {
  const id = await (await jobs()).send(queue, data);
  if (!id) throw new Error(`The job system refused a job for ${queue}.`);
}

/**
 * Queues the job named `jobId` (a UUID) unless a job of that id is already in `queue`, whatever its
 * state: whether it was queued now. Sending one thing twice then queues it once.
 */
export async function enqueueOnce(queue: QueueName, jobId: string, data: Record<string, unknown>): Promise<boolean> {
  return (await (await jobs()).send(queue, data, { id: jobId })) !== null;
}

/**
 * Queues a job under a singleton key on a stately queue: whether it was queued (false when a job of
 * that key is already waiting, which will do the same work).
 */
export async function enqueueSingleton(queue: QueueName, singletonKey: string, data: Record<string, unknown>): Promise<boolean> {
  return (await (await jobs()).send(queue, data, { singletonKey })) !== null;
}

/** What stopJobs() runs before it stops the job system. */
const stopHooks = processWide("jobs.stop-hooks", () => new Set<() => Promise<void>>());

/** Runs `hook` when this process's job system stops (a worker's own loops end between their steps). */
export function onJobsStop(hook: () => Promise<void>): void {
  stopHooks.add(hook);
}

/** Runs `handler` for every job of `queue`, in this process, until stopJobs(). */
export async function work(queue: QueueName, handler: Handler): Promise<void> {
  if (workedQueues.has(queue)) return;
  workedQueues.add(queue);
  await (
    await jobs()
  ).work<Record<string, unknown>>(queue, { pollingIntervalSeconds: 1 }, async (batch) => {
    for (const job of batch) {
      try {
        await handler(job.data, { retryCount: job.retryCount, final: job.retryCount >= retryLimitOf(queue) });
      } catch (err) {
        countJobFailure(queue);
        throw err;
      }
    }
  });
}

/** Each queue's jobs ready to run and running, as the job system's monitor last counted them (for /metrics). */
export async function queueCounts(): Promise<Array<{ name: string; ready: number; active: number }>> {
  const schema = jobsSchema(env().DATABASE_URL).replace(/"/g, "");
  const rows = await (
    await database()
  ).sql.query<{ name: string; ready: number | string; active: number | string }>(`SELECT name, ready_count AS ready, active_count AS active FROM "${schema}".queue`);
  return rows.map((r) => ({ name: r.name, ready: Number(r.ready), active: Number(r.active) }));
}

/** Runs a queue's job on a cron schedule (pg-boss keeps one schedule for all instances). */
export async function schedule(queue: QueueName, cron: string): Promise<void> {
  await (await jobs()).schedule(queue, cron);
}

/** Stops workers and the job system (graceful shutdown, tests); queued jobs stay queued. */
export async function stopJobs(): Promise<void> {
  // Workers that loop on their own (bulk import) stop between chunks first.
  for (const hook of stopHooks) await hook();
  const current = started.current;
  started.current = undefined;
  workedQueues.clear();
  if (current) await (await current).stop({ graceful: true, timeout: 5_000 });
}
