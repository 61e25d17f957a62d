// The bulk import workers. A job's row is its state: a worker claims it with a lease, imports its users
// a chunk at a time — each chunk one transaction that writes the memories, marks its users done and
// moves the job's counts — and renews the lease after every chunk. A worker that dies leaves a lease
// that runs out; another worker takes the job over from the first user not yet done, so nothing is
// written twice or lost. The cancel flag is read between chunks.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { recordAccess } from "../access-log/access-log";
import { randomBase62 } from "../crypto";
import { db } from "../db";
import type { Prisma } from "../db/generated/client";
import { env } from "../env";
import { newId, PREFIX } from "../ids";
import { enqueue, onJobsStop, QUEUES, work } from "../jobs";
import { logger } from "../log";
import { processWide } from "../process-wide";
import { distillerFromConfig } from "../profile/distill";
import { factToMemory, fromDistilled } from "../profile/facts";
import { writeFirstMemories, writeMemories, type MemoryInput } from "../profile/memories";
import { agentSource, visibleMemories } from "../profile/sources";
import { clearUserAccessCache } from "../users/approvals";

type Tx = Prisma.TransactionClient;

// Serialises one developer's quota changes: submissions, and quota given back by jobs that end.
const QUOTA_LOCK = 72707372;

/** Takes the developer's import-quota lock for the rest of `tx`. */
export async function lockImportQuota(tx: Tx, developerId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${QUOTA_LOCK}, hashtext(${developerId}))`;
}
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

interface StoredUser {
  profile: { summary?: string; preferences?: string[] };
  conversations: Array<{ id: string; messages: Array<{ role: "user" | "assistant" | "system" | "tool"; content: string }> }>;
}

interface ChunkRow {
  position: number;
  externalId: string;
  payload: string;
  messageCount: number;
}

interface Job {
  id: string;
  developerId: string;
  agentId: string;
  plane: "live" | "test";
  handle: string;
  agentName: string;
}

/** Claims the job for this worker (or renews its claim): false when another worker holds it or it ended. */
async function claim(jobId: string): Promise<{ cancel: boolean } | null> {
  const lease = env().IMPORT_JOB_LEASE_SECONDS;
  const rows = await (await db()).$queryRaw<{ cancel: boolean }[]>`
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
  await (await db()).$executeRaw`UPDATE import_jobs SET lease_holder = NULL, lease_until = NULL WHERE id = ${jobId} AND lease_holder = ${state.id}`;
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
    const started = Date.now();
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
      if (!chunk.length) return void (await finishCompleted(job));
      await importChunk(job, chunk);
      logger().debug({ import_job: jobId, users: chunk.length, from: chunk[0]!.position }, "import job chunk");
      await options.afterChunk?.();
      if (state.stopping) return void (await release(jobId));
      if (Date.now() - started > TIME_SLICE_MS) {
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

/** What one user's conversations and profile yield, distilled outside any transaction. */
async function distilUser(stored: StoredUser, importId: string): Promise<MemoryInput[]> {
  const distiller = distillerFromConfig();
  const out: MemoryInput[] = [];
  for (const c of stored.conversations) {
    if (!c.messages.length) continue;
    const { facts } = await distiller.distill({ messages: c.messages });
    for (const f of facts) out.push({ ...fromDistilled(f), provenance: { via: "bulk_import", import_id: importId, conversation_id: c.id, message_index: f.messageIndex } });
  }
  const summary = stored.profile.summary ?? "";
  for (const sentence of summary.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter(Boolean)) {
    out.push({ ...factToMemory(sentence), provenance: { via: "bulk_import", import_id: importId, field: "summary" } });
  }
  for (const p of stored.profile.preferences ?? []) {
    out.push({ ...factToMemory(p, { box: "preferences", kind: "preference" }), provenance: { via: "bulk_import", import_id: importId, field: "preferences" } });
  }
  return out;
}

type Outcome =
  | { position: number; status: "imported"; userId: string; importId: string; memories: number; messages: number }
  | { position: number; status: "failed"; code: string; message: string; messages: number };

/**
 * The users behind a chunk's external ids, made where the developer has none yet (a developer-scoped
 * user, linked to the id and approving the agent). An id already linked to a person who has not
 * approved the agent (or revoked it) is not written to.
 */
async function resolveUsers(tx: Tx, job: Job, externalIds: string[]): Promise<Map<string, { userId: string; approved: boolean; existed: boolean }>> {
  const find = () =>
    tx.$queryRaw<{ external_id: string; user_id: string; approved: boolean }[]>`
      SELECT e.external_id, e.user_id, (a.user_id IS NOT NULL AND a.revoked_at IS NULL) AS approved
        FROM external_user_ids e
        LEFT JOIN agent_approvals a ON a.user_id = e.user_id AND a.agent_id = ${job.agentId}::uuid
       WHERE e.developer_id = ${job.developerId}::uuid AND e.plane = ${job.plane}::"Plane" AND e.external_id = ANY(${externalIds})`;
  const existing = await find();
  const known = new Map(existing.map((r) => [r.external_id, { userId: r.user_id, approved: r.approved, existed: true }]));
  const missing = externalIds.filter((id) => !known.has(id));
  if (!missing.length) return known;
  const fresh = missing.map((externalId) => ({ externalId, userId: randomUUID() }));
  await tx.user.createMany({ data: fresh.map((f) => ({ id: f.userId, plane: job.plane, developerId: job.developerId })) });
  await tx.externalUserId.createMany({
    data: fresh.map((f) => ({ developerId: job.developerId, plane: job.plane, externalId: f.externalId, userId: f.userId })),
    skipDuplicates: true,
  });
  // Another writer linked some of these ids first: theirs stand, and the users made here for them go.
  const linked = new Map((await find()).map((r) => [r.external_id, r]));
  const lost = fresh.filter((f) => linked.get(f.externalId)?.user_id !== f.userId);
  if (lost.length) await tx.user.deleteMany({ where: { id: { in: lost.map((f) => f.userId) } } });
  const won = fresh.filter((f) => linked.get(f.externalId)?.user_id === f.userId);
  await tx.agentApproval.createMany({ data: won.map((f) => ({ userId: f.userId, agentId: job.agentId })), skipDuplicates: true });
  for (const f of won) known.set(f.externalId, { userId: f.userId, approved: true, existed: false });
  for (const f of lost) {
    const r = linked.get(f.externalId)!;
    known.set(f.externalId, { userId: r.user_id, approved: r.approved, existed: true });
  }
  return known;
}

/** Imports one chunk in one transaction; the transaction also checks this worker still holds the job. */
async function importChunk(job: Job, chunk: ChunkRow[]): Promise<void> {
  const source = agentSource(job.handle);
  const prepared = await Promise.all(
    chunk.map(async (row) => {
      const importId = newId(PREFIX.importJob);
      const stored = JSON.parse(row.payload) as StoredUser;
      return { row, importId, memories: await distilUser(stored, importId) };
    }),
  );
  const outcomes: Outcome[] = [];
  const people: string[] = [];
  await (await db()).$transaction(
    async (tx) => {
      outcomes.length = 0;
      people.length = 0;
      const users = await resolveUsers(tx, job, chunk.map((r) => r.externalId));
      const writable = prepared.filter((p) => users.get(p.row.externalId)!.approved);
      if (writable.length) {
        await tx.import.createMany({
          data: writable.map((p) => ({ id: p.importId, userId: users.get(p.row.externalId)!.userId, provider: "bulk", source, agentId: job.agentId })),
        });
      }
      // The users this chunk made have nothing yet: their memories go in all at once.
      const first = await writeFirstMemories(
        tx,
        { source, writtenBy: source, agentId: job.agentId },
        prepared.filter((p) => !users.get(p.row.externalId)!.existed).map((p) => ({ userId: users.get(p.row.externalId)!.userId, importId: p.importId, inputs: p.memories })),
      );
      for (const p of prepared) {
        const user = users.get(p.row.externalId)!;
        if (!user.approved) {
          outcomes.push({
            position: p.row.position,
            status: "failed",
            code: "agent_not_approved",
            message: "This id is linked to a person who has not approved the agent; nothing was written to their profile.",
            messages: p.row.messageCount,
          });
          continue;
        }
        let count = first.get(user.userId);
        if (count === undefined) {
          people.push(user.userId);
          // A user who already has a profile: what it holds from another source is not imported again.
          const held = new Set(
            (await tx.memory.findMany({ where: { ...visibleMemories(user.userId), key: { in: p.memories.map((m) => m.key) }, NOT: { source, writerId: job.agentId } }, select: { key: true } })).map((m) => m.key),
          );
          const written = await writeMemories(tx, { userId: user.userId, source, writtenBy: source, agentId: job.agentId, importId: p.importId }, p.memories.filter((m) => !held.has(m.key)));
          count = written.filter((w) => w.created).length;
        }
        outcomes.push({ position: p.row.position, status: "imported", userId: user.userId, importId: p.importId, memories: count, messages: p.row.messageCount });
      }
      await recordOutcomes(tx, job.id, outcomes);
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  clearUserAccessCache();
  // Writing into the profile of someone who already had one is a call on their behalf: it goes into
  // their access log, as a REST call would. Users the job made are the developer's own records.
  for (const userId of people) recordAccess({ userId, agentId: job.agentId, agentName: job.agentName, plane: job.plane, surface: "rest", action: "POST /v1/import/profiles", outcome: "ok" });
}

class LeaseLost extends Error {}

/** Marks the chunk's users and moves the job's counts, only while this worker holds the job. */
async function recordOutcomes(tx: Tx, jobId: string, outcomes: Outcome[]): Promise<void> {
  const imported = outcomes.filter((o) => o.status === "imported");
  const failed = outcomes.filter((o) => o.status === "failed");
  const lease = env().IMPORT_JOB_LEASE_SECONDS;
  const moved = await tx.$executeRaw`
    UPDATE import_jobs SET
      profiles_imported = profiles_imported + ${imported.length}::int,
      profiles_failed = profiles_failed + ${failed.length}::int,
      messages_processed = messages_processed + ${outcomes.reduce((n, o) => n + o.messages, 0)}::int,
      memories_written = memories_written + ${imported.reduce((n, o) => n + o.memories, 0)}::int,
      lease_until = now() + make_interval(secs => ${lease}), updated_at = now()
    WHERE id = ${jobId} AND status = 'running' AND lease_holder = ${state.id}`;
  if (moved !== 1) throw new LeaseLost(`Import job ${jobId} is no longer held by this worker.`);
  const json = JSON.stringify(
    outcomes.map((o) =>
      o.status === "imported"
        ? { position: o.position, status: o.status, user_id: o.userId, import_id: o.importId, memories: o.memories, error_code: null, error_message: null }
        : { position: o.position, status: o.status, user_id: null, import_id: null, memories: 0, error_code: o.code, error_message: o.message },
    ),
  );
  const marked = await tx.$executeRaw`
    UPDATE import_job_profiles p SET
      status = o.status, payload = '', user_id = o.user_id, import_id = o.import_id,
      memories_written = o.memories, error_code = o.error_code, error_message = o.error_message
    FROM jsonb_to_recordset(${json}::jsonb) AS o(position int, status text, user_id uuid, import_id text, memories int, error_code text, error_message text)
    WHERE p.job_id = ${jobId} AND p.position = o.position AND p.status = 'pending'`;
  if (marked !== outcomes.length) throw new LeaseLost(`Import job ${jobId}: another worker imported part of this chunk.`);
  if (imported.length) {
    const counts = JSON.stringify(imported.map((o) => ({ id: o.importId, n: o.memories })));
    await tx.$executeRaw`UPDATE imports i SET memory_count = c.n FROM jsonb_to_recordset(${counts}::jsonb) AS c(id text, n int) WHERE i.id = c.id`;
  }
}

/**
 * Gives back the unique-profile quota a job took for users it never imported (cancelled before it
 * reached them, or failed), unless another job of the developer has them pending or imported.
 */
async function giveBackQuota(tx: Tx, job: { id: string; developerId: string; plane: string }): Promise<void> {
  await lockImportQuota(tx, job.developerId);
  await tx.$executeRaw`
    DELETE FROM imported_profiles ip
     WHERE ip.job_id = ${job.id}
       AND EXISTS (SELECT 1 FROM import_job_profiles p WHERE p.job_id = ${job.id} AND p.external_id = ip.external_id AND p.status IN ('cancelled', 'failed'))
       AND NOT EXISTS (
         SELECT 1 FROM import_jobs j JOIN import_job_profiles p2 ON p2.job_id = j.id AND p2.external_id = ip.external_id
          WHERE j.developer_id = ip.developer_id AND j.plane = ip.plane AND j.id <> ${job.id} AND p2.status IN ('pending', 'imported'))`;
}

/** running → completed, once every user is done; the quota of users that failed is given back. */
async function finishCompleted(job: Job): Promise<void> {
  await (await db()).$transaction(async (tx) => {
    const done = await tx.$executeRaw`
      UPDATE import_jobs SET status = 'completed', finished_at = now(), lease_holder = NULL, lease_until = NULL, updated_at = now()
       WHERE id = ${job.id} AND status = 'running' AND lease_holder = ${state.id}
         AND NOT EXISTS (SELECT 1 FROM import_job_profiles WHERE job_id = ${job.id} AND status = 'pending')`;
    if (done) await giveBackQuota(tx, job);
  });
  logger().info({ import_job: job.id }, "import job completed");
}

/**
 * queued or running → cancelled, once the cancel flag is set: its users not yet imported are marked
 * cancelled and what was written stays. Done by the worker holding the job (`holder`) between chunks,
 * or by the cancel request itself when no worker holds it (`onlyIfUnclaimed`).
 */
export async function finishCancelled(jobId: string, who: { holder: string } | { onlyIfUnclaimed: true }): Promise<void> {
  await (await db()).$transaction(async (tx) => {
    const claimCondition =
      "holder" in who
        ? tx.$queryRaw<{ developer_id: string; plane: string }[]>`
            UPDATE import_jobs SET status = 'cancelled', finished_at = now(), lease_holder = NULL, lease_until = NULL, updated_at = now()
             WHERE id = ${jobId} AND status IN ('queued', 'running') AND cancel_requested_at IS NOT NULL AND lease_holder = ${who.holder}
            RETURNING developer_id, plane::text`
        : tx.$queryRaw<{ developer_id: string; plane: string }[]>`
            UPDATE import_jobs SET status = 'cancelled', finished_at = now(), lease_holder = NULL, lease_until = NULL, updated_at = now()
             WHERE id = ${jobId} AND status IN ('queued', 'running') AND cancel_requested_at IS NOT NULL AND (lease_until IS NULL OR lease_until < now())
            RETURNING developer_id, plane::text`;
    const [ended] = await claimCondition;
    if (!ended) return;
    const cancelled = await tx.$executeRaw`UPDATE import_job_profiles SET status = 'cancelled', payload = '' WHERE job_id = ${jobId} AND status = 'pending'`;
    await tx.$executeRaw`UPDATE import_jobs SET profiles_cancelled = profiles_cancelled + ${cancelled}::int WHERE id = ${jobId}`;
    await giveBackQuota(tx, { id: jobId, developerId: ended.developer_id, plane: ended.plane });
  });
}

export const JOB_FAILED_MESSAGE =
  "The job stopped after repeated errors. What it imported is kept; send the users not imported in a new job with a new idempotencyKey.";

/**
 * running → failed: a job the workers gave up on keeps what it wrote; its users not imported are
 * marked failed (`job_failed`) and their quota given back. The error itself goes to the log.
 */
async function markFailed(jobId: string, err: unknown): Promise<void> {
  logger().error({ import_job: jobId, err: (err as Error)?.message }, "import job failed");
  await (await db())
    .$transaction(async (tx) => {
      const [ended] = await tx.$queryRaw<{ developer_id: string; plane: string }[]>`
        UPDATE import_jobs SET status = 'failed', error = ${JOB_FAILED_MESSAGE}, finished_at = now(), lease_holder = NULL, lease_until = NULL, updated_at = now()
         WHERE id = ${jobId} AND status IN ('queued', 'running')
        RETURNING developer_id, plane::text`;
      if (!ended) return;
      const failed = await tx.$executeRaw`
        UPDATE import_job_profiles SET status = 'failed', payload = '', error_code = 'job_failed', error_message = ${USER_NOT_REACHED}
         WHERE job_id = ${jobId} AND status = 'pending'`;
      await tx.$executeRaw`UPDATE import_jobs SET profiles_failed = profiles_failed + ${failed}::int WHERE id = ${jobId}`;
      await giveBackQuota(tx, { id: jobId, developerId: ended.developer_id, plane: ended.plane });
    })
    .catch((e: Error) => logger().error({ import_job: jobId, err: e.message }, "could not mark the import job failed"));
}

const USER_NOT_REACHED = "Not imported: the job stopped before this user. Send them again in a new job.";

/**
 * Jobs no live worker holds: a lease that ran out (its worker died), or a job queued for longer than a
 * lease without a worker taking it (its hand-off was lost).
 */
export async function unclaimedJobs(limit = 20): Promise<string[]> {
  const lease = env().IMPORT_JOB_LEASE_SECONDS;
  const rows = await (await db()).$queryRaw<{ id: string }[]>`
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
