// Bulk import on the dashboard: the account's import tier with what it allows and what is used, its
// recent jobs in one plane with their progress (the API's own job view, lib/import-jobs/view.ts), and
// cancelling a job — the same cancel as POST /v1/import/jobs/:id/cancel, after the membership check.
import { z } from "zod";
import { db } from "../platform/db";
import type { ImportTier, Plane } from "../platform/db/generated/enums";
import { requireMember } from "../developer-auth/accounts";
import { DashboardError } from "../developer-auth/errors";
import { isIdOf, PREFIX } from "../platform/ids";
import { IMPORT_TIER_LIMITS, type TierLimits } from "../import-jobs/limits";
import { cancelImportJob, jobView, type JobError, type JobView } from "../import-jobs/view";

/** Jobs one page of the dashboard shows, newest first. */
export const DASHBOARD_JOBS_SHOWN = 25;
/** Per-user errors shown under a job (the API's job view lists up to 1,000). */
export const DASHBOARD_JOB_ERRORS_SHOWN = 20;

export interface DashboardImportJob extends JobView {
  agent: { handle: string; displayName: string };
}

export interface ImportsOverview {
  plane: Plane;
  tier: ImportTier;
  limits: TierLimits;
  /** Unique imported profiles held in this plane (counted against `limits.uniqueProfiles`). */
  profilesUsed: number;
  /** Jobs queued or running in this plane (counted against `limits.concurrentJobs`). */
  activeJobs: number;
  jobs: DashboardImportJob[];
}

/**
 * The account's tier, quota use and recent jobs in one plane (the page's membership is already
 * checked): the plane asked for, else the plane of the newest job, else live.
 */
export async function importsOf(developerId: string, asked?: Plane): Promise<ImportsOverview> {
  const prisma = await db();
  const plane = asked ?? (await prisma.importJob.findFirst({ where: { developerId }, orderBy: { createdAt: "desc" }, select: { plane: true } }))?.plane ?? "live";
  const [developer, profilesUsed, activeJobs, jobs] = await Promise.all([
    prisma.developer.findUniqueOrThrow({ where: { id: developerId }, select: { importTier: true } }),
    prisma.importedProfile.count({ where: { developerId, plane } }),
    prisma.importJob.count({ where: { developerId, plane, status: { in: ["queued", "running"] } } }),
    prisma.importJob.findMany({
      where: { developerId, plane },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: DASHBOARD_JOBS_SHOWN,
      include: { agent: { select: { handle: true, displayName: true } } },
    }),
  ]);
  const errorsOf: ReadonlyMap<string, JobError[]> = new Map(
    await Promise.all(
      jobs
        .filter((j) => j.profilesFailed > 0)
        .map(async (j) => {
          const rows = await prisma.importJobProfile.findMany({
            where: { jobId: j.id, status: "failed" },
            orderBy: { position: "asc" },
            take: DASHBOARD_JOB_ERRORS_SHOWN,
            select: { externalId: true, errorCode: true, errorMessage: true },
          });
          return [j.id, rows.map((e) => ({ external_id: e.externalId, code: e.errorCode ?? "import_failed", message: e.errorMessage ?? "" }))] as const;
        }),
    ),
  );
  return {
    plane,
    tier: developer.importTier,
    limits: IMPORT_TIER_LIMITS[developer.importTier],
    profilesUsed,
    activeJobs,
    jobs: jobs.map(({ agent, ...job }) => ({
      ...jobView(job, { errors: errorsOf.get(job.id) ?? [] }),
      agent,
    })),
  };
}

/** Whether any job shown is still moving (the page then refreshes itself). */
export function importsInProgress(overview: ImportsOverview): boolean {
  return overview.jobs.some((j) => j.status === "queued" || j.status === "running");
}

const jobIdSchema = z.string().refine((v) => isIdOf(PREFIX.importJob, v));

/**
 * Cancels one of the account's jobs, whichever agent submitted it and in whichever plane; `wasOpen`
 * says whether it was still queued or running (a job that had ended is left as it was).
 */
export async function cancelDashboardImportJob(input: { actorId: string; developerId: unknown; jobId: unknown }): Promise<{ job: JobView; wasOpen: boolean }> {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const jobId = jobIdSchema.safeParse(input.jobId);
  if (!jobId.success) throw new DashboardError("not_found");
  const job = await (await db()).importJob.findFirst({ where: { id: jobId.data, developerId }, select: { agentId: true, plane: true, status: true } });
  if (!job) throw new DashboardError("not_found");
  const wasOpen = job.status === "queued" || job.status === "running";
  return { job: await cancelImportJob({ jobId: jobId.data, developerId, agentId: job.agentId, plane: job.plane }), wasOpen };
}
