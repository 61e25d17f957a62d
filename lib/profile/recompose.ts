// Forgetting: deleting an agent's own memories and suppressing others', then recomposing the profile
// from what is left.
import { visibleMemories } from "./sources";
import { COMPOSABLE_KINDS, COMPOSED_LIMITS, emptyComposition, fold } from "./compose";
import { factTime, lockComposition, MEMORY_SELECT, storeComposition, type Tx } from "./memories";

// Recomposing reads the newest memories of the kinds the composition uses; enough to refill every
// list of the composition with room to spare.
const RECOMPOSE_WINDOW = 4 * (COMPOSED_LIMITS.preferences + COMPOSED_LIMITS.relationships + COMPOSED_LIMITS.highlights);

/**
 * Rebuilds the user's composed profile from their visible memories: the newest memories refill the
 * lists, and each single-valued slot (name, location, origin, work) is read on its own, so a name
 * said long ago survives however many memories came after it.
 */
export async function recompose(tx: Tx, userId: string): Promise<void> {
  await lockComposition(tx, userId);
  const newest = await tx.memory.findMany({
    where: { ...visibleMemories(userId), kind: { in: COMPOSABLE_KINDS } },
    orderBy: [{ learnedAt: "desc" }, { id: "desc" }],
    take: RECOMPOSE_WINDOW,
    select: MEMORY_SELECT,
  });
  const slots = await tx.$queryRaw<{ id: string }[]>`
    SELECT DISTINCT ON (slot) id FROM (
      SELECT id, said_at, learned_at,
             CASE WHEN kind = 'location' AND key LIKE 'location:from:%' THEN 'origin' ELSE kind END AS slot
        FROM memories
       WHERE user_id = ${userId}::uuid AND suppressed_at IS NULL AND kind IN ('name', 'location', 'work')) s
     ORDER BY slot, COALESCE(said_at, learned_at) DESC, learned_at DESC`;
  const have = new Set(newest.map((m) => m.id));
  const missing = slots.map((r) => r.id).filter((id) => !have.has(id));
  const slotMemories = missing.length ? await tx.memory.findMany({ where: { id: { in: missing } }, select: MEMORY_SELECT }) : [];
  const oldestFirst = [...newest, ...slotMemories].sort((a, b) => factTime(a) - factTime(b));
  await storeComposition(tx, userId, fold(emptyComposition(), oldestFirst));
}

/** Deletes memories by id (the caller has checked they are the agent's own) and recomposes. */
export async function deleteOwnMemories(tx: Tx, input: { userId: string; ids: string[] }): Promise<number> {
  if (!input.ids.length) return 0;
  const res = await tx.memory.deleteMany({ where: { userId: input.userId, id: { in: input.ids } } });
  await recompose(tx, input.userId);
  return res.count;
}
