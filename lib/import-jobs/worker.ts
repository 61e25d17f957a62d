// The bulk import workers. A job's row is its state: a worker claims it with a lease, imports its users
// a chunk at a time — each chunk one transaction that writes the memories, marks its users done and
// moves the job's counts — and renews the lease after every chunk. A worker that dies leaves a lease
// that runs out; another worker takes the job over from the first user not yet done, so nothing is
// written twice or lost. The cancel flag is read between chunks.
import { hostname } from "node:os";
import { randomBase62 } from "../platform/crypto";
import { db } from "../platform/db";
import { env } from "../env";
import { enqueue, onJobsStop, QUEUES, work } from "../platform/jobs";
import { logger } from "../platform/log";
import { processWide } from "../process-wide";
import { importChunk, LeaseLost, type Job } from "./chunk";
import { finishCancelled, finishCompleted, markFailed } from "./endings";

/** How long one worker works one job before handing it back to the queue, so long jobs take turns. */
const TIME_SLICE_MS = 60_000;

const state = processWide("import-jobs.worker", () => ({
  id: `${hostname()}:${process.pid}:${randomBase62(6)}`,
  running: new Set<string>(),
  timer: undefined as NodeJS.Timeout | undefined,
  /** Set while the job system stops: runs hand their jobs back between chunks. */
  stopping: false,
  /** Runs in progress, awaited on stop. */
  runs: new Set<Promise<void>>(),
}));

/** This process's worker id: the lease holder it writes. */
export function workerId(): string {
  return state.id;
}

/** Hands a stored job to the workers. */
export async function queueImportJob(jobId: string): Promise<void> {
  await enqueue(QUEUES.importJobs, { jobId });
}

/** Claims the job for this worker (or renews its claim): false when another worker holds it or it ended. */
async function claim(jobId: string): Promise<{ cancel: boolean } | null> {
  const lease = env().IMPORT_JOB_LEASE_SECONDS;
  const rows = await (
    await db()
  ).$queryRaw<{ cancel: boolean }[]>`
    UPDATE import_jobs SET
      status = 'running', started_at = COALESCE(started_at, now()), lease_holder = ${state.id},
      lease_until = now() + make_interval(secs => ${lease}), updated_at = now()
    WHERE id = ${jobId} AND status IN ('queued', 'running')
      AND (lease_holder = ${state.id} OR lease_until IS NULL OR lease_until < now())
    RETURNING cancel_requested_at IS NOT NULL AS cancel`;
  return rows[0] ?? null;
}

/** Gives the claim back at once (the end of a time slice, or an error), so the next run need not wait. */
async function release(jobId: string): Promise<void> {
  await (
    await db()
  ).$executeRaw`UPDATE import_jobs SET lease_holder = NULL, lease_until = NULL WHERE id = ${jobId} AND lease_holder = ${state.id}`;
}

/**
 * Runs a job to its end, or until its time slice is used (then it goes back on the queue). Returns at
 * once when another worker holds it or it has ended.
 */
export async function runImportJob(jobId: string, options: RunOptions = {}): Promise<void> {
  if (state.running.has(jobId) || state.stopping) return;
  state.running.add(jobId);
  const run = runClaimed(jobId, options).finally(() => {
    state.running.delete(jobId);
    state.runs.delete(run);
  });
  state.runs.add(run);
  return run;
}

export interface RunOptions {
  /** Called after each chunk is committed (progress reporting, tests that act between chunks). */
  afterChunk?: () => Promise<void>;
}

async function runClaimed(jobId: string, options: RunOptions): Promise<void> {
  try {
    const started = performance.now(); // a time slice is time elapsed in this process, not the service's clock
    const prisma = await db();
    const row = await prisma.importJob.findUnique({
      where: { id: jobId },
      select: { id: true, developerId: true, agentId: true, plane: true, agent: { select: { handle: true, displayName: true } } },
    });
    if (!row) return;
    const job: Job = { id: row.id, developerId: row.developerId, agentId: row.agentId, plane: row.plane, handle: row.agent.handle, agentName: row.agent.displayName };
    for (;;) {
      const claimed = await claim(jobId);
      if (!claimed) return;
      if (claimed.cancel) return void (await finishCancelled(jobId, { holder: state.id }));
      const chunk = await prisma.importJobProfile.findMany({
        where: { jobId, status: "pending" },
        orderBy: { position: "asc" },
        take: env().IMPORT_JOB_CHUNK_USERS,
        select: { position: true, externalId: true, payload: true, messageCount: true },
      });
      if (!chunk.length) return void (await finishCompleted(job, state.id));
      await importChunk(job, chunk, state.id);
      logger().debug({ import_job: jobId, users: chunk.length, from: chunk[0]!.position }, "import job chunk");
      await options.afterChunk?.();
      if (state.stopping) return void (await release(jobId));
      if (performance.now() - started > TIME_SLICE_MS) {
        await release(jobId);
        await queueImportJob(jobId);
        return;
      }
    }
  } catch (err) {
    await release(jobId).catch(() => undefined);
    throw err;
  }
}

/**
 * Jobs no live worker holds: a lease that ran out (its worker died), or a job queued for longer than a
 * lease without a worker taking it (its hand-off was lost).
 */
export async function unclaimedJobs(limit = 20): Promise<string[]> {
  const lease = env().IMPORT_JOB_LEASE_SECONDS;
  const rows = await (
    await db()
  ).$queryRaw<{ id: string }[]>`
    SELECT id FROM import_jobs
     WHERE (status = 'running' AND (lease_until IS NULL OR lease_until < now()))
        OR (status = 'queued' AND created_at < now() - make_interval(secs => ${lease}))
     ORDER BY created_at LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

/** Takes over jobs no live worker holds, one after the other, in this process. */
export async function resumeUnclaimedJobs(): Promise<number> {
  const ids = await unclaimedJobs();
  for (const id of ids) await runImportJob(id).catch((err: Error) => logger().error({ import_job: id, err: err.message }, "import job resume failed"));
  return ids.length;
}

/**
 * One delivery of a job from the queue: runs it; an error goes back to the queue to be tried again,
 * and after the last try the job is marked failed (a lost lease is not an error: another worker has it).
 */
export async function handleImportJob(data: Record<string, unknown>, attempt: { retryCount: number; final: boolean }): Promise<void> {
  const jobId = String(data.jobId);
  try {
    await runImportJob(jobId);
  } catch (err) {
    if (err instanceof LeaseLost) return;
    logger().error({ import_job: jobId, err: (err as Error).message, retry: attempt.retryCount }, "import job chunk failed");
    if (attempt.final) await markFailed(jobId, err);
    throw err; // pg-boss tries it again until the last attempt
  }
}

/** Starts this process's import worker: queued jobs as they come, and jobs left by workers that died. */
export async function startImportWorker(): Promise<void> {
  state.stopping = false;
  onJobsStop(stopImportWorker);
  await work(QUEUES.importJobs, handleImportJob);
  if (!state.timer) {
    const every = Math.max(1, env().IMPORT_JOB_LEASE_SECONDS / 2) * 1000;
    let busy = false;
    state.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      void resumeUnclaimedJobs()
        .catch((err: Error) => logger().error({ err: err.message }, "import job resume check failed"))
        .finally(() => (busy = false));
    }, every);
    state.timer.unref();
  }
}

/** Stops the resume check and lets runs in progress hand their jobs back after their chunk. */
export async function stopImportWorker(): Promise<void> {
  state.stopping = true;
  if (state.timer) clearInterval(state.timer);
  state.timer = undefined;
  await Promise.allSettled([...state.runs]);
}

/**
 * After the service has stopped (the job queue too, so no job can arrive): the worker is stopped, not
 * stopping, and a run asked for later, by a later start or a test, works its job.
 */
export function importWorkerStopped(): void {
  state.stopping = false;
}
