// POST /v1/import/profiles: a bulk import job, checked against the caps and the developer's tier and
// stored with its users in one transaction, then handed to the job workers. Quotas are counted under
// a per-developer lock, so two jobs racing for the last unit cannot both win.
import { createHash } from "node:crypto";
import type { ResolvedKey } from "../api-keys/api-keys";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import type { ImportTier } from "../platform/db/generated/enums";
import { ApiError } from "../http/errors";
import { newId, PREFIX } from "../platform/ids";
import { IMPORT_CAPS, IMPORT_MESSAGES, IMPORT_TIER_LIMITS, importBodyLimitBytes } from "./limits";
import type { ImportProfilesBody, ImportUser } from "./schemas";
import { jobView, loadJobView, type JobRow, type JobView } from "./view";
import { lockImportQuota } from "./quota";
import { queueImportJob } from "./worker";

/** What a refused concurrent job is told to wait, in seconds: a job's chunk and its lease come round in this time. */
export const CONCURRENT_JOB_RETRY_AFTER_SECONDS = 30;
/** Rows per insert statement when storing a job's users (PostgreSQL takes at most 65,535 parameters). */
const INSERT_BATCH = 1_000;

export interface SubmitInput {
  key: ResolvedKey;
  agent: { id: string; handle: string };
  body: ImportProfilesBody;
}

/** The developer's import tier. */
export async function importTierOf(developerId: string): Promise<ImportTier> {
  const dev = await (await db()).developer.findUnique({ where: { id: developerId }, select: { importTier: true } });
  return dev?.importTier ?? "free";
}

/** The request body cap for the key's developer: their tier's input cap, in bytes. */
export async function importBodyLimit(key: ResolvedKey): Promise<number> {
  return importBodyLimitBytes(await importTierOf(key.developerId));
}

interface Measured {
  messages: number;
  chars: number;
}

/** One user's message count and input characters; over a global cap, 413 naming the field. */
function measure(user: ImportUser, index: number): Measured {
  const at = `users.${index}`;
  const conversations = user.conversations ?? [];
  if (conversations.length > IMPORT_CAPS.conversationsPerProfile) {
    tooLarge(`${at}.conversations`, `${conversations.length} conversations; a user takes at most ${IMPORT_CAPS.conversationsPerProfile}.`);
  }
  let messages = 0;
  let chars = (user.profile?.summary?.length ?? 0) + (user.profile?.preferences ?? []).reduce((n, p) => n + p.length, 0);
  conversations.forEach((c, ci) => {
    if (c.messages.length > IMPORT_CAPS.messagesPerConversation) {
      tooLarge(`${at}.conversations.${ci}.messages`, `${c.messages.length} messages; a conversation takes at most ${IMPORT_CAPS.messagesPerConversation}.`);
    }
    c.messages.forEach((m, mi) => {
      if (m.content.length > IMPORT_CAPS.charsPerMessage) {
        tooLarge(`${at}.conversations.${ci}.messages.${mi}.content`, `${m.content.length} characters; a message takes at most ${IMPORT_CAPS.charsPerMessage}.`);
      }
      chars += m.content.length;
    });
    messages += c.messages.length;
  });
  return { messages, chars };
}

function tooLarge(field: string, detail: string): never {
  throw new ApiError("payload_too_large", `${field}: ${detail}`, { field });
}

/** SHA-256 of the body as parsed: what makes a replay "the same job". */
function bodyHash(body: ImportProfilesBody): string {
  return createHash("sha256").update(JSON.stringify(body)).digest("hex");
}

/** The job an idempotency key already names for this developer, agent and plane, checked against the body. */
async function replayed(tx: Prisma.TransactionClient | Awaited<ReturnType<typeof db>>, input: SubmitInput, hash: string): Promise<JobRow | null> {
  const job = await tx.importJob.findUnique({
    where: {
      developerId_agentId_plane_idempotencyKey: { developerId: input.key.developerId, agentId: input.agent.id, plane: input.key.plane, idempotencyKey: input.body.idempotencyKey },
    },
  });
  if (!job) return null;
  if (job.bodyHash !== hash) throw new ApiError("idempotency_key_reused", IMPORT_MESSAGES.idempotencyKeyReused, { field: "idempotencyKey" });
  return job;
}

/**
 * Accepts a job: 202 with the new job, or 200 with the job the idempotency key already names. Refuses
 * a job over a cap or the tier's per-job limits (413), over the unique-profile quota (402), or past the
 * tier's concurrent jobs (429 with retry_after); a refused job stores nothing.
 */
export async function submitImportJob(input: SubmitInput): Promise<{ status: 200 | 202; job: JobView }> {
  const { key, agent, body } = input;
  const hash = bodyHash(body);
  const prisma = await db();
  const earlier = await replayed(prisma, input, hash);
  if (earlier) return { status: 200, job: await loadJobView(earlier) };

  const tier = await importTierOf(key.developerId);
  const limits = IMPORT_TIER_LIMITS[tier];
  if (body.users.length > limits.profilesPerJob) {
    tooLarge("users", `${body.users.length} users; a job on the ${tier} tier takes at most ${limits.profilesPerJob}.`);
  }
  const sizes = body.users.map(measure);
  const totals = sizes.reduce((t, s) => ({ messages: t.messages + s.messages, chars: t.chars + s.chars }), { messages: 0, chars: 0 });
  if (totals.chars > limits.inputCharsPerJob) {
    tooLarge("users", `${totals.chars} input characters; a job on the ${tier} tier takes at most ${limits.inputCharsPerJob}.`);
  }

  const jobId = newId(PREFIX.importJob);
  const job = await prisma.$transaction(
    async (tx): Promise<{ raced: JobRow } | { created: JobRow }> => {
      await lockImportQuota(tx, key.developerId);
      // A replay that raced this one in: it is answered by the job the first one made.
      const raced = await replayed(tx, input, hash);
      if (raced) return { raced };

      const active = await tx.importJob.count({ where: { developerId: key.developerId, plane: key.plane, status: { in: ["queued", "running"] } } });
      if (active >= limits.concurrentJobs) {
        throw new ApiError(
          "rate_limited",
          `The ${tier} tier runs at most ${limits.concurrentJobs} import job${limits.concurrentJobs > 1 ? "s" : ""} at a time; retry after the number of seconds in retry_after.`,
          { retry_after: CONCURRENT_JOB_RETRY_AFTER_SECONDS },
          { "Retry-After": String(CONCURRENT_JOB_RETRY_AFTER_SECONDS) },
        );
      }

      const externalIds = body.users.map((u) => u.externalId);
      const known = new Set<string>();
      for (let i = 0; i < externalIds.length; i += INSERT_BATCH) {
        const rows = await tx.importedProfile.findMany({
          where: { developerId: key.developerId, plane: key.plane, externalId: { in: externalIds.slice(i, i + INSERT_BATCH) } },
          select: { externalId: true },
        });
        for (const r of rows) known.add(r.externalId);
      }
      const fresh = externalIds.filter((id) => !known.has(id));
      if (limits.uniqueProfiles !== null && fresh.length) {
        const used = await tx.importedProfile.count({ where: { developerId: key.developerId, plane: key.plane } });
        if (used + fresh.length > limits.uniqueProfiles) {
          throw new ApiError(
            "quota_exceeded",
            `This job adds ${fresh.length} new imported profile${fresh.length > 1 ? "s" : ""}; the ${tier} tier holds ${limits.uniqueProfiles} and ${used} are used.`,
            { quota: limits.uniqueProfiles, used, requested: fresh.length },
          );
        }
      }

      const created = await tx.importJob.create({
        data: {
          id: jobId,
          developerId: key.developerId,
          agentId: agent.id,
          plane: key.plane,
          mode: body.mode,
          idempotencyKey: body.idempotencyKey,
          bodyHash: hash,
          acceptedProfiles: body.users.length,
          estimatedMessageCount: totals.messages,
          estimatedInputChars: totals.chars,
        },
      });
      for (let i = 0; i < body.users.length; i += INSERT_BATCH) {
        await tx.importJobProfile.createMany({
          data: body.users.slice(i, i + INSERT_BATCH).map((u, j) => ({
            jobId,
            position: i + j,
            externalId: u.externalId,
            payload: JSON.stringify({ profile: u.profile ?? {}, conversations: u.conversations ?? [] }),
            messageCount: sizes[i + j]!.messages,
            inputChars: sizes[i + j]!.chars,
          })),
        });
      }
      for (let i = 0; i < fresh.length; i += INSERT_BATCH) {
        await tx.importedProfile.createMany({
          data: fresh.slice(i, i + INSERT_BATCH).map((externalId) => ({ developerId: key.developerId, plane: key.plane, externalId, jobId })),
        });
      }
      return { created };
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  if ("raced" in job) return { status: 200, job: await loadJobView(job.raced) };
  // Stored: a worker takes it now, or (should this hand-off fail) the next sweep for unclaimed jobs.
  await queueImportJob(jobId).catch(() => undefined);
  return { status: 202, job: jobView(job.created, { errors: [] }) };
}
