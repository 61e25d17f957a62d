// The developer's unique-profile quota (imported_profiles): taken when a job is submitted, given back
// when a job ends without importing some of its users. One advisory lock per developer serialises both.
import type { Prisma } from "../platform/db/generated/client";

type Tx = Prisma.TransactionClient;

/** Serialises one developer's quota changes: submissions, and quota given back by jobs that end. */
const QUOTA_LOCK = 72707372;

/** Takes the developer's import-quota lock for the rest of `tx`. */
export async function lockImportQuota(tx: Tx, developerId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${QUOTA_LOCK}, hashtext(${developerId}))`;
}

/**
 * Gives back the unique-profile quota a job took for users it never imported (cancelled before it
 * reached them, or failed), unless another job of the developer has them pending or imported.
 */
export async function giveBackQuota(tx: Tx, job: { id: string; developerId: string; plane: string }): Promise<void> {
  await lockImportQuota(tx, job.developerId);
  await tx.$executeRaw`
    DELETE FROM imported_profiles ip
     WHERE ip.job_id = ${job.id}
       AND EXISTS (SELECT 1 FROM import_job_profiles p WHERE p.job_id = ${job.id} AND p.external_id = ip.external_id AND p.status IN ('cancelled', 'failed'))
       AND NOT EXISTS (
         SELECT 1 FROM import_jobs j JOIN import_job_profiles p2 ON p2.job_id = j.id AND p2.external_id = ip.external_id
          WHERE j.developer_id = ip.developer_id AND j.plane = ip.plane AND j.id <> ${job.id} AND p2.status IN ('pending', 'imported'))`;
}
