// The composed profile: identity, preferences and a summary folded from memories. Writes fold their
// new memories into the stored composition; forgetting recomposes from the newest memories.
import { summarise } from "./distill/summary";
import type { DistilledFact, FactKind } from "./distill/types";

export interface ComposedEntry {
  text: string;
  kind: string;
  memory_id: string;
  key: string;
  /** When the user said it (ISO 8601): the original time of an import, else when it was learned. */
  at?: string;
}

export interface Composition {
  identity: { name?: ComposedEntry; location?: ComposedEntry; origin?: ComposedEntry; work?: ComposedEntry; relationships: ComposedEntry[] };
  preferences: ComposedEntry[];
  highlights: ComposedEntry[];
  summary: string;
}

export interface ComposableMemory {
  id: string;
  text: string;
  kind: string;
  key: string;
  saidAt: Date | null;
  learnedAt: Date;
}

/** How many entries of each list the stored composition keeps (reads may show fewer). */
export const COMPOSED_LIMITS = { relationships: 25, preferences: 100, highlights: 25 } as const;

const PREFERENCE_KINDS: ReadonlySet<string> = new Set(["like", "dislike", "preference"]);
const HIGHLIGHT_KINDS: ReadonlySet<string> = new Set(["project", "plan", "other"]);

export function emptyComposition(): Composition {
  return { identity: { relationships: [] }, preferences: [], highlights: [], summary: "" };
}

/** The single-valued identity slot a memory fills, if any. */
function identitySlot(m: ComposableMemory): "name" | "location" | "origin" | "work" | null {
  if (m.kind === "name") return "name";
  if (m.kind === "work") return "work";
  if (m.kind === "location") return m.key.startsWith("location:from:") ? "origin" : "location";
  return null;
}

/** Newest first, one entry per key, at most `limit`. */
function prepend(list: ComposedEntry[], entry: ComposedEntry, limit: number): ComposedEntry[] {
  return [entry, ...list.filter((e) => e.key !== entry.key)].slice(0, limit);
}

/**
 * Folds memories, oldest first, into a composition: the most recently said fact of a single-valued
 * kind wins, lists keep the newest entries. Pure: the caller loads and stores.
 */
export function fold(base: Composition, memoriesOldestFirst: readonly ComposableMemory[]): Composition {
  const next: Composition = {
    identity: { ...base.identity, relationships: [...base.identity.relationships] },
    preferences: [...base.preferences],
    highlights: [...base.highlights],
    summary: base.summary,
  };
  for (const m of memoriesOldestFirst) {
    const entry: ComposedEntry = { text: m.text, kind: m.kind, memory_id: m.id, key: m.key, at: (m.saidAt ?? m.learnedAt).toISOString() };
    const slot = identitySlot(m);
    // The fact the user said last wins, whatever order the memories arrive in (an import of old
    // statements must not override what the user said today).
    const current = slot ? next.identity[slot] : undefined;
    if (slot && (!current?.at || current.at <= entry.at!)) next.identity[slot] = entry;
    else if (slot) continue;
    else if (m.kind === "relationship") next.identity.relationships = prepend(next.identity.relationships, entry, COMPOSED_LIMITS.relationships);
    else if (PREFERENCE_KINDS.has(m.kind)) {
      // A like and a dislike of the same thing: the later one stands.
      const subject = m.key.replace(/^(like|dislike):/, "");
      const opposite = m.kind === "like" ? `dislike:${subject}` : m.kind === "dislike" ? `like:${subject}` : null;
      next.preferences = prepend(
        next.preferences.filter((e) => e.key !== opposite),
        entry,
        COMPOSED_LIMITS.preferences,
      );
    } else if (HIGHLIGHT_KINDS.has(m.kind)) next.highlights = prepend(next.highlights, entry, COMPOSED_LIMITS.highlights);
  }
  next.summary = summaryOf(next);
  return next;
}

function summaryOf(c: Composition): string {
  const asFact = (e: ComposedEntry): DistilledFact => ({ text: e.text, kind: e.kind as FactKind, box: "", key: e.key, at: null, messageIndex: 0 });
  const lead = [c.identity.name, c.identity.location, c.identity.work].filter((e): e is ComposedEntry => !!e);
  const rest = [...c.identity.relationships, ...c.preferences, ...c.highlights, ...(c.identity.origin ? [c.identity.origin] : [])];
  return summarise([...lead, ...rest].map(asFact));
}

/** Memories that can change the composition, for recomposing after a deletion. */
export const COMPOSABLE_KINDS = ["name", "location", "work", "relationship", "like", "dislike", "preference", "project", "plan", "other"];
