// A commit's distilled facts folded into what the same agent already holds, so months of conversation
// leave one memory per fact: a fact in a single-valued slot replaces the agent's older one (a new job,
// a new city, a like turned dislike), a restatement in other words replaces the older wording, a
// restatement with less detail is not written, and what the user said has ended is removed. The rule
// is mergeFacts (lib/profile/distill/merge.ts); this applies it to storage. An agent replaces and
// removes only memories it wrote (sources.ts): imports', apps' and other agents' memories stay, and the
// composed profile prefers the newest statement of a single-valued fact whoever wrote it.
import { mergeFacts, type MergeableFact } from "./distill/merge";
import { FACT_KINDS, type FactKind, type Retraction } from "./distill/types";
import type { MemoryInput, Tx } from "./memories";
import { ownMemories } from "./sources";

export interface OwnMerge {
  /** The incoming facts to write, in their order. */
  write: MemoryInput[];
  /** Ids of the agent's memories they replace or that the user retracted. */
  remove: string[];
}

/** A fact in the merge: an incoming one, or one the agent holds (`heldId`), each with what writing it stores. */
export type MergeItem = MergeableFact & { heldId?: string; input: MemoryInput };

const isFactKind = (kind: string): kind is FactKind => (FACT_KINDS as readonly string[]).includes(kind);

/** A memory to write as a fact mergeFacts can fold; `at` is when it was said. */
export const mergeItem = (input: MemoryInput, at: Date | null, heldId?: string): MergeItem => ({
  input,
  kind: isFactKind(input.kind) ? input.kind : "other",
  key: input.key,
  text: input.text,
  at,
  ...(input.slot ? { slot: input.slot } : {}),
  ...(heldId ? { heldId } : {}),
});

/** What writing a merged fact stores: its input, with the wording and key the merge gave it. */
export const mergedInput = (i: MergeItem): MemoryInput => ({ ...i.input, text: i.text, key: i.key });

/** What writing `incoming` (already free of keys the profile holds) does to the agent's own memories. */
export async function mergeWithOwn(tx: Tx, owner: { userId: string; agentId: string }, incoming: readonly MemoryInput[], retractions: readonly Retraction[]): Promise<OwnMerge> {
  const kinds = new Set<string>([...incoming.map((i) => i.kind), ...retractions.flatMap((r) => r.kinds)]);
  const slots = incoming.flatMap((i) => (i.slot ? [i.slot] : []));
  if (!kinds.size) return { write: [], remove: [] };
  const held = await tx.memory.findMany({
    where: { ...ownMemories(owner.userId, owner.agentId), OR: [{ kind: { in: [...kinds] } }, ...(slots.length ? [{ slot: { in: slots } }] : [])] },
    select: { id: true, box: true, kind: true, key: true, text: true, slot: true, saidAt: true, learnedAt: true, provenance: true },
    orderBy: [{ learnedAt: "asc" }, { id: "asc" }],
  });
  const heldItems = held
    .filter((m) => isFactKind(m.kind))
    .map((m) =>
      mergeItem(
        { text: m.text, kind: m.kind, box: m.box, key: m.key, slot: m.slot, saidAt: m.saidAt, provenance: m.provenance as Record<string, unknown> },
        m.saidAt ?? m.learnedAt,
        m.id,
      ),
    );
  const merged = mergeFacts(
    heldItems,
    incoming.map((i) => mergeItem(i, i.saidAt ?? null)),
    retractions,
  );
  const unchanged = new Set<MergeItem>(heldItems);
  return {
    // New facts, and any the merge rewrote (a partner and the person close to the user made one: fusePartner).
    write: merged.filter((i) => !unchanged.has(i)).map(mergedInput),
    remove: heldItems.filter((h) => !merged.includes(h)).map((h) => h.heldId!),
  };
}
