// The person's own memories on the account page: listed by box and by source, edited, removed, or
// forgotten ("don't learn this again"). Every function acts only on the signed-in person's rows.
import { z } from "zod";
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import { factToMemory } from "../profile/facts";
import { suppressAtUsersRequest } from "../profile/forget";
import { inTransaction, MEMORY_SELECT, memoryView, writeMemories, type MemoryRecord } from "../profile/memories";
import { recompose } from "../profile/recompose";
import { isWritableBox, sourcesForFilter, visibleMemories } from "../profile/sources";
import { releaseMemory } from "../profile/suppressions";
import { AccountError } from "./errors";

/** written_by of what the person wrote or corrected themselves on the account page. */
export const PERSON_WRITER = "user";
/** Memories per page on the account's memory list. */
export const ACCOUNT_MEMORY_PAGE_SIZE = 50;
/** Longest text a person may give a memory. */
export const MEMORY_TEXT_MAX = 500;

function validSource(value: string): boolean {
  try {
    sourcesForFilter(value);
    return value.includes("/");
  } catch {
    return false;
  }
}

/** The list's filters, from the page's query: a box (a category or projects/<slug>) and an exact source. */
export const memoryFilterSchema = z.object({
  box: z.string().trim().toLowerCase().max(80).refine(isWritableBox).optional().catch(undefined),
  source: z.string().trim().toLowerCase().max(80).refine(validSource).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
export type MemoryFilter = z.infer<typeof memoryFilterSchema>;

const memoryIdSchema = z.string().trim().min(1).max(64);
const textSchema = z.string().trim().min(1, "Write what the memory should say.").max(MEMORY_TEXT_MAX, `At most ${MEMORY_TEXT_MAX} characters.`);

function parseId(raw: unknown): string {
  const id = memoryIdSchema.safeParse(raw);
  if (!id.success) throw new AccountError("not_found", "No such memory in your profile.");
  return id.data;
}

export interface AccountMemory extends ReturnType<typeof memoryView> {
  /** Whether the person wrote or corrected it themselves. */
  yours: boolean;
}

/** The visible memories of one page, newest first, with the boxes and sources there are to filter by. */
export async function accountMemories(userId: string, filter: MemoryFilter) {
  const prisma = await db();
  const where: Prisma.MemoryWhereInput = {
    ...visibleMemories(userId),
    ...(filter.box ? { box: filter.box } : {}),
    ...(filter.source ? { source: filter.source } : {}),
  };
  const [rows, boxes, sources] = await Promise.all([
    prisma.memory.findMany({
      where,
      orderBy: [{ learnedAt: "desc" }, { id: "asc" }],
      skip: (filter.page - 1) * ACCOUNT_MEMORY_PAGE_SIZE,
      take: ACCOUNT_MEMORY_PAGE_SIZE + 1,
      select: MEMORY_SELECT,
    }),
    prisma.memory.groupBy({ by: ["box"], where: visibleMemories(userId), _count: { _all: true }, orderBy: { box: "asc" } }),
    prisma.memory.groupBy({ by: ["source"], where: visibleMemories(userId), _count: { _all: true }, orderBy: { source: "asc" } }),
  ]);
  return {
    memories: rows.slice(0, ACCOUNT_MEMORY_PAGE_SIZE).map((m): AccountMemory => ({ ...memoryView(m), yours: m.writtenBy === PERSON_WRITER })),
    hasMore: rows.length > ACCOUNT_MEMORY_PAGE_SIZE,
    boxes: boxes.map((b) => ({ box: b.box, count: b._count._all })),
    sources: sources.map((s) => ({ source: s.source, count: s._count._all })),
  };
}

async function visibleMemory(tx: Prisma.TransactionClient, userId: string, memoryId: string): Promise<MemoryRecord> {
  const memory = await tx.memory.findFirst({ where: { ...visibleMemories(userId), id: memoryId }, select: MEMORY_SELECT });
  if (!memory) throw new AccountError("not_found", "No such memory in your profile.");
  return memory;
}

/**
 * The person corrects a memory. The old statement is hidden as forget with reason user_request hides
 * it (so no writer learns it again), and what the person wrote is stored as theirs: under the same
 * source and box, written by `user` and no agent, so no agent can delete it and an agent's later
 * write of the same fact is deduplicated against it. The profile is recomposed. Returns the memory
 * that now says it.
 */
export async function editMemory(input: { userId: string; memoryId: unknown; text: unknown }): Promise<{ id: string }> {
  const memoryId = parseId(input.memoryId);
  const text = textSchema.safeParse(input.text);
  if (!text.success) throw new AccountError("invalid", text.error.issues[0]?.message ?? "Invalid text.");
  return inTransaction(async (tx) => {
    const old = await visibleMemory(tx, input.userId, memoryId);
    const fact = factToMemory(text.data, { box: old.box, kind: old.kind });
    if (fact.text === old.text && old.writtenBy === PERSON_WRITER) return { id: old.id };
    await suppressAtUsersRequest(tx, { userId: input.userId, ids: [old.id] });
    // Another source already says the corrected fact: it stands, and nothing is said twice.
    const held = await tx.memory.findFirst({ where: { ...visibleMemories(input.userId), key: fact.key }, select: { id: true } });
    if (held) return held;
    const provenance = { via: "account_edit", edited_from: old.id, original: { source: old.source, written_by: old.writtenBy, text: old.text } };
    const [written] = await writeMemories(tx, { userId: input.userId, source: old.source, writtenBy: PERSON_WRITER, agentId: null }, [{ ...fact, provenance }]);
    const memory = written!.memory;
    if (!written!.created) {
      // The person says again what they once hid under this source: theirs again, as they now word it,
      // and no longer held by the suppressions that hid it.
      await releaseMemory(tx, memory.id);
      await tx.memory.update({
        where: { id: memory.id },
        data: { text: fact.text, writtenBy: PERSON_WRITER, suppressedAt: null, learnedAt: clockNow(), provenance },
      });
      await recompose(tx, input.userId);
    }
    return { id: memory.id };
  });
}

/** Deletes one of the person's memories outright (a writer may learn it again); recomposes. */
export async function removeMemory(input: { userId: string; memoryId: unknown }): Promise<void> {
  const memoryId = parseId(input.memoryId);
  await inTransaction(async (tx) => {
    const { count } = await tx.memory.deleteMany({ where: { ...visibleMemories(input.userId), id: memoryId } });
    if (!count) throw new AccountError("not_found", "No such memory in your profile.");
    await recompose(tx, input.userId);
  });
}

/**
 * Forget, and don't learn this again: the same suppression as POST /v1/profile/forget with reason
 * user_request. The memory and every memory saying the same thing are hidden from every read.
 */
export async function forgetMemory(input: { userId: string; memoryId: unknown }): Promise<number> {
  const memoryId = parseId(input.memoryId);
  const hidden = await inTransaction((tx) => suppressAtUsersRequest(tx, { userId: input.userId, ids: [memoryId] }));
  if (!hidden) throw new AccountError("not_found", "No such memory in your profile.");
  return hidden;
}
