// Turning what an agent sends (one fact, a chunk of text) into memory inputs.
import { BOX_OF_KIND } from "./distill/boxes";
import { distillSync } from "./distill/builtin";
import { factText, keyOf } from "./distill/normalise";
import type { DistilledFact } from "./distill/types";
import type { MemoryInput } from "./memories";

/** Kinds an agent may name on a write; they match what the distillers produce. */
export const MEMORY_KINDS = ["name", "location", "work", "relationship", "like", "dislike", "preference", "project", "plan", "other", "note"] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

// An agent's own "note" kind is filed with the distiller's "other"; a project named by kind alone has no slug.
const BOX_OF: Record<string, string> = { ...BOX_OF_KIND, project: "other", note: "other" };

// Agents usually write about the user in the third person ("The user prefers aisle seats"); the
// distiller reads first-person speech, so such a fact is read as the user saying it.
function asFirstPerson(text: string): string {
  return text
    .replace(
      /^\s*(?:the\s+)?user(?:'s)?\s+(is|was|has|does)\b/i,
      (_, verb: string) => `I ${({ is: "am", was: "was", has: "have", does: "do" } as Record<string, string>)[verb.toLowerCase()]}`,
    )
    .replace(/^\s*(?:the\s+)?user\s+(\w+?)s\b/i, "I $1")
    .replace(/^\s*(?:the\s+)?user's\b/i, "My");
}

export function fromDistilled(f: DistilledFact, overrides: { box?: string; kind?: string } = {}): MemoryInput {
  const kind = overrides.kind ?? f.kind;
  return {
    text: f.text,
    kind,
    box: overrides.box ?? (kind === f.kind ? f.box : (BOX_OF[kind] ?? "other")),
    key: overrides.kind && overrides.kind !== f.kind ? keyOf(kind, f.text) : f.key,
    // A fact filed under another kind than the distiller's is no longer in the distiller's slot.
    ...(f.slot && kind === f.kind ? { slot: f.slot } : {}),
  };
}

/**
 * One durable fact as a memory. The built-in distiller recognises it when it can (so "I live in
 * Lisbon" and "The user lives in Lisbon" share a key); otherwise the text is kept as said.
 */
export function factToMemory(text: string, overrides: { box?: string; kind?: string } = {}): MemoryInput {
  const [recognised] = distillSync({ messages: [{ role: "user", content: asFirstPerson(text) }] }).facts;
  if (recognised) return fromDistilled(recognised, overrides);
  const kind = overrides.kind ?? "note";
  const clean = factText(text);
  return { text: clean, kind, box: overrides.box ?? BOX_OF[kind] ?? "other", key: keyOf(kind, clean) };
}
