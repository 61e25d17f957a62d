// One chunk of an import job, in one transaction: the chunk's users found or made, their memories
// written, their rows marked done and the job's counts moved, only while the worker still holds the
// job's lease. What each user's conversations yield is distilled before the transaction opens.
import { randomUUID } from "node:crypto";
import { recordAccess } from "../access-log/access-log";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import { env } from "../env";
import { newId, PREFIX } from "../platform/ids";
import { distillerFromConfig } from "../profile/distill";
import { mergeFacts } from "../profile/distill/merge";
import { factToMemory, fromDistilled } from "../profile/facts";
import { mergedInput, mergeItem, mergeWithOwn, type MergeItem } from "../profile/merge-own";
import { deleteOwnMemories } from "../profile/recompose";
import { writeFirstMemories, writeMemories, type MemoryInput } from "../profile/memories";
import { agentSource, visibleMemories } from "../profile/sources";
import { clearUserAccessCache } from "../users/approvals";

type Tx = Prisma.TransactionClient;

interface StoredUser {
  profile: { summary?: string; preferences?: string[] };
  conversations: Array<{ id: string; messages: Array<{ role: "user" | "assistant" | "system" | "tool"; content: string }> }>;
}

export interface ChunkRow {
  position: number;
  externalId: string;
  payload: string;
  messageCount: number;
}

/** What the worker knows of the job it runs. */
export interface Job {
  id: string;
  developerId: string;
  agentId: string;
  plane: "live" | "test";
  handle: string;
  agentName: string;
}

/** What one user's conversations and profile yield, distilled outside any transaction. */
async function distilUser(stored: StoredUser, importId: string): Promise<MemoryInput[]> {
  const distiller = distillerFromConfig();
  // Conversations in the order given, oldest first: each folds into what the earlier ones taught
  // (a later move replaces the city, a fuller restatement the shorter one, an ending the fact).
  let held: MergeItem[] = [];
  for (const c of stored.conversations) {
    if (!c.messages.length) continue;
    const { facts, retractions = [] } = await distiller.distill({ messages: c.messages });
    const incoming = facts.map((f) =>
      mergeItem({ ...fromDistilled(f), provenance: { via: "bulk_import", import_id: importId, conversation_id: c.id, message_index: f.messageIndex } }, f.at),
    );
    held = mergeFacts(held, incoming, retractions);
  }
  const out: MemoryInput[] = held.map(mergedInput);
  const summary = stored.profile.summary ?? "";
  for (const sentence of summary
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean)) {
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
export async function importChunk(job: Job, chunk: ChunkRow[], holder: string): Promise<void> {
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
  await (
    await db()
  ).$transaction(
    async (tx) => {
      outcomes.length = 0;
      people.length = 0;
      const users = await resolveUsers(
        tx,
        job,
        chunk.map((r) => r.externalId),
      );
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
          // A user who already has a profile: what it holds is not imported again, and the rest folds into
          // what this agent wrote before, as a commit does (lib/profile/merge-own.ts).
          const held = new Set(
            (
              await tx.memory.findMany({
                where: { ...visibleMemories(user.userId), key: { in: p.memories.map((m) => m.key) } },
                select: { key: true },
              })
            ).map((m) => m.key),
          );
          const merge = await mergeWithOwn(
            tx,
            { userId: user.userId, agentId: job.agentId },
            p.memories.filter((m) => !held.has(m.key)),
            [],
          );
          await deleteOwnMemories(tx, { userId: user.userId, ids: merge.remove });
          const written = await writeMemories(tx, { userId: user.userId, source, writtenBy: source, agentId: job.agentId, importId: p.importId }, merge.write);
          count = written.filter((w) => w.created).length;
        }
        outcomes.push({ position: p.row.position, status: "imported", userId: user.userId, importId: p.importId, memories: count, messages: p.row.messageCount });
      }
      await recordOutcomes(tx, job.id, holder, outcomes);
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  clearUserAccessCache();
  // Writing into the profile of someone who already had one is a call on their behalf: it goes into
  // their access log, as a REST call would. Users the job made are the developer's own records.
  for (const userId of people)
    recordAccess({ userId, agentId: job.agentId, agentName: job.agentName, plane: job.plane, surface: "rest", action: "POST /v1/import/profiles", outcome: "ok" });
}

/** This worker's lease on the job ran out and another worker took it: not an error of the job. */
export class LeaseLost extends Error {}

/** Marks the chunk's users and moves the job's counts, only while this worker holds the job. */
async function recordOutcomes(tx: Tx, jobId: string, holder: string, outcomes: Outcome[]): Promise<void> {
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
    WHERE id = ${jobId} AND status = 'running' AND lease_holder = ${holder}`;
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
