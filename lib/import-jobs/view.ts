// A bulk import job as the routes answer it, and the job's own routes: read and cancel.
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import type { ImportJob } from "../platform/db/generated/client";
import { ApiError } from "../http/errors";
import { isIdOf, PREFIX } from "../platform/ids";
import { IMPORT_MESSAGES, type ImportMode } from "./limits";
import { finishCancelled } from "./endings";

export type JobRow = ImportJob;

/** The most per-user errors one answer lists; `progress.profiles_failed` counts them all. */
export const JOB_ERRORS_SHOWN = 1_000;

export interface JobError {
  external_id: string;
  code: string;
  message: string;
}

export function jobView(job: JobRow, extra: { errors: JobError[] }) {
  const finished = job.profilesImported + job.profilesFailed + job.profilesCancelled;
  return {
    id: job.id,
    mode: job.mode as ImportMode,
    status: job.status,
    accepted_profiles: job.acceptedProfiles,
    estimated_message_count: job.estimatedMessageCount,
    estimated_input_chars: job.estimatedInputChars,
    progress: {
      profiles_imported: job.profilesImported,
      profiles_failed: job.profilesFailed,
      profiles_cancelled: job.profilesCancelled,
      profiles_pending: job.acceptedProfiles - finished,
      messages_processed: job.messagesProcessed,
      memories_written: job.memoriesWritten,
    },
    errors: extra.errors,
    cancel_requested: job.cancelRequestedAt !== null,
    /** Why the workers gave up on a failed job. */
    error: job.status === "failed" ? (job.error ?? "The job could not be completed.") : null,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}
export type JobView = ReturnType<typeof jobView>;

/** The job with its per-user errors. */
export async function loadJobView(job: JobRow): Promise<JobView> {
  const errors = job.profilesFailed
    ? await (
        await db()
      ).importJobProfile.findMany({
        where: { jobId: job.id, status: "failed" },
        orderBy: { position: "asc" },
        take: JOB_ERRORS_SHOWN,
        select: { externalId: true, errorCode: true, errorMessage: true },
      })
    : [];
  return jobView(job, { errors: errors.map((e) => ({ external_id: e.externalId, code: e.errorCode ?? "import_failed", message: e.errorMessage ?? "" })) });
}

interface JobScope {
  jobId: string;
  developerId: string;
  agentId: string;
  plane: JobRow["plane"];
}

/** A job of this developer, agent and plane; 404 for any other, without saying whether it exists. */
async function findJob(scope: JobScope): Promise<JobRow> {
  if (!isIdOf(PREFIX.importJob, scope.jobId)) throw new ApiError("not_found", IMPORT_MESSAGES.jobNotFound);
  const job = await (await db()).importJob.findFirst({ where: { id: scope.jobId, developerId: scope.developerId, agentId: scope.agentId, plane: scope.plane } });
  if (!job) throw new ApiError("not_found", IMPORT_MESSAGES.jobNotFound);
  return job;
}

/** GET /v1/import/jobs/:jobId. */
export async function getImportJob(scope: JobScope): Promise<JobView> {
  return loadJobView(await findJob(scope));
}

/**
 * POST /v1/import/jobs/:jobId/cancel. A queued job no worker holds ends cancelled at once; a running
 * one stops before its next chunk, keeping what it wrote. Cancelling an ended job changes nothing and
 * answers it as it is, so a retried cancel is safe.
 */
export async function cancelImportJob(scope: JobScope): Promise<JobView> {
  const job = await findJob(scope);
  if (job.status === "queued" || job.status === "running") {
    const prisma = await db();
    await prisma.importJob.updateMany({ where: { id: job.id, cancelRequestedAt: null }, data: { cancelRequestedAt: clockNow() } });
    // Not held by a worker (queued, or its worker gone): nothing will read the flag soon, so end it here.
    await finishCancelled(job.id, { onlyIfUnclaimed: true });
  }
  return loadJobView(await findJob(scope));
}
