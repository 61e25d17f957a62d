// How an import job ends: completed once every user is done, cancelled between chunks or while no
// worker holds it, failed after the last try. Each is one conditional update of the job's row, and
// each gives back the quota of the users it did not import.
import { db } from "../platform/db";
import { logger } from "../platform/log";
import type { Job } from "./chunk";
import { giveBackQuota } from "./quota";
import { emitImportJobEnded } from "../webhooks/emit";

/** running → completed, once every user is done; the quota of users that failed is given back. */
export async function finishCompleted(job: Job, holder: string): Promise<void> {
  await (
    await db()
  ).$transaction(async (tx) => {
    const done = await tx.$executeRaw`
      UPDATE import_jobs SET status = 'completed', finished_at = now(), lease_holder = NULL, lease_until = NULL, updated_at = now()
       WHERE id = ${job.id} AND status = 'running' AND lease_holder = ${holder}
         AND NOT EXISTS (SELECT 1 FROM import_job_profiles WHERE job_id = ${job.id} AND status = 'pending')`;
    if (done) {
      await giveBackQuota(tx, job);
      await emitImportJobEnded(tx, { jobId: job.id, type: "import_job.completed" });
    }
  });
  logger().info({ import_job: job.id }, "import job completed");
}

/**
 * queued or running → cancelled, once the cancel flag is set: its users not yet imported are marked
 * cancelled and what was written stays. Done by the worker holding the job (`holder`) between chunks,
 * or by the cancel request itself when no worker holds it (`onlyIfUnclaimed`).
 */
export async function finishCancelled(jobId: string, who: { holder: string } | { onlyIfUnclaimed: true }): Promise<void> {
  await (
    await db()
  ).$transaction(async (tx) => {
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

/** What a user the job never reached says in its answer. */
const USER_NOT_REACHED = "Not imported: the job stopped before this user. Send them again in a new job.";

export const JOB_FAILED_MESSAGE = "The job stopped after repeated errors. What it imported is kept; send the users not imported in a new job with a new idempotencyKey.";

/**
 * running → failed: a job the workers gave up on keeps what it wrote; its users not imported are
 * marked failed (`job_failed`) and their quota given back. The error itself goes to the log.
 */
export async function markFailed(jobId: string, err: unknown): Promise<void> {
  logger().error({ import_job: jobId, err: (err as Error)?.message }, "import job failed");
  await (
    await db()
  )
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
      await emitImportJobEnded(tx, { jobId, type: "import_job.failed" });
    })
    .catch((e: Error) => logger().error({ import_job: jobId, err: e.message }, "could not mark the import job failed"));
}
