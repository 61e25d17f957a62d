// Memories: writing them (deduplicated, folded into the composed profile in the same transaction)
// and how they look on the wire.
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import { Prisma } from "../platform/db/generated/client";
import { newId, PREFIX } from "../platform/ids";
import { emptyComposition, fold, type Composition } from "./compose";

export type Tx = Prisma.TransactionClient;

export interface MemoryRecord {
  id: string;
  userId: string;
  source: string;
  agentId: string | null;
  writtenBy: string;
  box: string;
  kind: string;
  text: string;
  key: string;
  importId: string | null;
  provenance: unknown;
  learnedAt: Date;
  saidAt: Date | null;
}

export const MEMORY_SELECT = {
  id: true,
  userId: true,
  source: true,
  agentId: true,
  writtenBy: true,
  box: true,
  kind: true,
  text: true,
  key: true,
  importId: true,
  provenance: true,
  learnedAt: true,
  saidAt: true,
} as const;

/** A memory as the API shows it; `detail` adds where it came from. */
export function memoryView(m: MemoryRecord, detail = true) {
  return {
    id: m.id,
    text: m.text,
    box: m.box,
    kind: m.kind,
    source: m.source,
    written_by: m.writtenBy,
    learned_at: m.learnedAt.toISOString(),
    said_at: m.saidAt?.toISOString() ?? null,
    ...(detail ? { import_id: m.importId, provenance: m.provenance } : {}),
  };
}

/** When the user said it, for ordering facts: the original time of an import, else when it was learned. */
export function factTime(m: { saidAt: Date | null; learnedAt: Date }): number {
  return (m.saidAt ?? m.learnedAt).getTime();
}

/** What a write supplies per memory; the writer (source, agent, import) comes from the server. */
export interface MemoryInput {
  text: string;
  kind: string;
  box: string;
  key: string;
  /** The single-valued slot the fact fills, when it fills one (lib/profile/distill/merge.ts). */
  slot?: string | null;
  saidAt?: Date | null;
  provenance?: Record<string, unknown>;
}

export interface Writer {
  userId: string;
  source: string;
  writtenBy: string;
  agentId: string | null;
  importId?: string | null;
}

/** The stored composition, locked for this transaction (concurrent writers fold one after the other). */
export async function lockComposition(tx: Tx, userId: string): Promise<Composition> {
  await tx.$executeRaw`INSERT INTO user_profiles (user_id) VALUES (${userId}::uuid) ON CONFLICT (user_id) DO NOTHING`;
  const [row] = await tx.$queryRaw<{ identity: Composition["identity"]; preferences: Composition["preferences"]; highlights: Composition["highlights"]; summary: string }[]>`
    SELECT identity, preferences, highlights, summary FROM user_profiles WHERE user_id = ${userId}::uuid FOR UPDATE`;
  const base = emptyComposition();
  if (!row) return base;
  return {
    identity: { ...base.identity, ...row.identity, relationships: row.identity.relationships ?? [] },
    preferences: row.preferences ?? [],
    highlights: row.highlights ?? [],
    summary: row.summary,
  };
}

/**
 * Stores a composition, and keeps the per-source counts: `counted` adds to one source's count (a
 * write); without it the counts are taken again from the memories (after a deletion).
 */
export async function storeComposition(tx: Tx, userId: string, c: Composition, counted?: { source: string; added: number }): Promise<void> {
  const json = (v: unknown) => JSON.stringify(v);
  await tx.$executeRaw`
    UPDATE user_profiles SET
      identity = ${json(c.identity)}::jsonb,
      preferences = ${json(c.preferences)}::jsonb,
      highlights = ${json(c.highlights)}::jsonb,
      summary = ${c.summary},
      source_counts = ${
        counted
          ? Prisma.sql`source_counts || jsonb_build_object(${counted.source}::text, COALESCE((source_counts->>${counted.source})::int, 0) + ${counted.added}::int)`
          : Prisma.sql`COALESCE((SELECT jsonb_object_agg(c.source, c.n) FROM (
              SELECT source, count(*)::int AS n FROM memories WHERE user_id = ${userId}::uuid AND suppressed_at IS NULL GROUP BY source) c), '{}'::jsonb)`
      },
      version = version + 1,
      updated_at = now()
    WHERE user_id = ${userId}::uuid`;
}

/**
 * Writes memories for one writer inside `tx`. A memory whose key this writer (this agent, or the user
 * for imports and apps) already holds under this source is not
 * written again: the existing one is returned instead (`created` false). New memories are folded
 * into the composed profile before the transaction commits.
 */
export async function writeMemories(tx: Tx, writer: Writer, inputs: readonly MemoryInput[]) {
  const unique = [...new Map(inputs.map((i) => [i.key, i])).values()];
  if (!unique.length) return [] as { memory: MemoryRecord; created: boolean }[];
  const composition = await lockComposition(tx, writer.userId);
  const now = clockNow();
  const created = await tx.memory.createManyAndReturn({
    data: unique.map((i) => ({
      id: newId(PREFIX.memory),
      userId: writer.userId,
      source: writer.source,
      agentId: writer.agentId,
      writerId: writer.agentId ?? "",
      writtenBy: writer.writtenBy,
      importId: writer.importId ?? null,
      box: i.box,
      kind: i.kind,
      text: i.text,
      key: i.key,
      slot: i.slot ?? null,
      saidAt: i.saidAt ?? null,
      provenance: (i.provenance ?? {}) as Prisma.InputJsonValue,
      learnedAt: now,
    })),
    skipDuplicates: true,
    select: MEMORY_SELECT,
  });
  const createdKeys = new Set(created.map((m) => m.key));
  const missing = unique.filter((i) => !createdKeys.has(i.key)).map((i) => i.key);
  const existing = missing.length
    ? await tx.memory.findMany({
        where: { userId: writer.userId, source: writer.source, writerId: writer.agentId ?? "", key: { in: missing } },
        select: MEMORY_SELECT,
      })
    : [];
  if (created.length) {
    // Oldest said first, so the newest statement of a single-valued fact wins.
    const ordered = [...created].sort((a, b) => factTime(a) - factTime(b));
    await storeComposition(tx, writer.userId, fold(composition, ordered), { source: writer.source, added: created.length });
  }
  const byKey = new Map<string, { memory: MemoryRecord; created: boolean }>();
  for (const m of existing) byKey.set(m.key, { memory: m, created: false });
  for (const m of created) byKey.set(m.key, { memory: m, created: true });
  return unique.flatMap((i) => byKey.get(i.key) ?? []);
}

/**
 * Writes the first memories of users made in this same transaction (a bulk import's new users), all
 * users at once: one insert for every memory and one for every composed profile, where writeMemories
 * takes a few statements per user. Nothing else can hold these users' rows yet, so nothing is locked;
 * each user's memories are deduplicated by key as writeMemories does. Returns how many each user got.
 */
export async function writeFirstMemories(
  tx: Tx,
  writer: Omit<Writer, "userId" | "importId">,
  users: ReadonlyArray<{ userId: string; importId: string | null; inputs: readonly MemoryInput[] }>,
): Promise<Map<string, number>> {
  const learnedAt = clockNow();
  const memories = users.flatMap((u) =>
    [...new Map(u.inputs.map((i) => [i.key, i])).values()].map((i) => ({
      id: newId(PREFIX.memory),
      userId: u.userId,
      importId: u.importId,
      input: i,
      saidAt: i.saidAt ?? null,
      learnedAt,
    })),
  );
  const written = new Map<string, number>(users.map((u) => [u.userId, 0]));
  if (!memories.length) return written;
  const rows = memories.map((m) => ({
    id: m.id,
    user_id: m.userId,
    import_id: m.importId,
    box: m.input.box,
    kind: m.input.kind,
    text: m.input.text,
    key: m.input.key,
    slot: m.input.slot ?? null,
    said_at: m.saidAt?.toISOString() ?? null,
    provenance: m.input.provenance ?? {},
  }));
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO memories (id, user_id, source, agent_id, writer_id, written_by, import_id, box, kind, text, key, slot, said_at, provenance, learned_at)
    SELECT r.id, r.user_id, ${writer.source}, ${writer.agentId}::uuid, ${writer.agentId ?? ""}, ${writer.writtenBy}, r.import_id, r.box, r.kind, r.text,
           r.key, r.slot, r.said_at, r.provenance, ${learnedAt}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS r(id text, user_id uuid, import_id text, box text, kind text, text text, key text, slot text, said_at timestamptz, provenance jsonb)
    ON CONFLICT (user_id, source, writer_id, key) DO NOTHING
    RETURNING id`;
  const kept = new Set(inserted.map((r) => r.id));
  const byUser = new Map<string, Array<{ id: string; text: string; kind: string; key: string; saidAt: Date | null; learnedAt: Date }>>();
  for (const m of memories) {
    if (!kept.has(m.id)) continue;
    const list = byUser.get(m.userId) ?? [];
    list.push({ id: m.id, text: m.input.text, kind: m.input.kind, key: m.input.key, saidAt: m.saidAt, learnedAt: m.learnedAt });
    byUser.set(m.userId, list);
  }
  const profiles = [...byUser].map(([userId, mine]) => {
    // Oldest said first, so the newest statement of a single-valued fact wins.
    const c = fold(
      emptyComposition(),
      [...mine].sort((a, b) => factTime(a) - factTime(b)),
    );
    written.set(userId, mine.length);
    return { user_id: userId, identity: c.identity, preferences: c.preferences, highlights: c.highlights, summary: c.summary, source_counts: { [writer.source]: mine.length } };
  });
  if (profiles.length) {
    await tx.$executeRaw`
      INSERT INTO user_profiles (user_id, identity, preferences, highlights, summary, source_counts, version, updated_at)
      SELECT p.user_id, p.identity, p.preferences, p.highlights, p.summary, p.source_counts, 1, now()
        FROM jsonb_to_recordset(${JSON.stringify(profiles)}::jsonb)
          AS p(user_id uuid, identity jsonb, preferences jsonb, highlights jsonb, summary text, source_counts jsonb)`;
  }
  return written;
}

/** Runs `fn` in one transaction on the process database. */
export async function inTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return (await db()).$transaction(fn, { timeout: 20_000, maxWait: 10_000 });
}
