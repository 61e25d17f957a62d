// The built-in distiller: deterministic rules over the user's own messages (and over what a connected
// app shows, lib/profile/distill/apps.ts), no network and no model.
import { distillAppSync } from "./apps";
import { clausesOf } from "./text";
import type { Candidate } from "./candidate";
import { candidatesOf } from "./rules";
import { factText } from "./normalise";
import { summarise } from "./summary";
import { BOX_OF_KIND } from "./boxes";
import type { DistilledFact, Distiller, DistillInput, DistillResult } from "./types";

// Messages are capped by the commit route; the cap here only bounds the work on unchecked callers.
const MAX_MESSAGE_CHARS = 16_000;

interface Found extends Candidate {
  messageIndex: number;
  at: Date | null;
}

function collect(input: DistillInput): Found[] {
  const found: Found[] = [];
  input.messages.forEach((message, messageIndex) => {
    // Only the user speaks for the user: an assistant's "You live in Paris, right?" is not a fact.
    if (message.role !== "user" || typeof message.content !== "string") return;
    for (const clause of clausesOf(message.content.slice(0, MAX_MESSAGE_CHARS))) {
      for (const candidate of candidatesOf(clause)) {
        found.push({ ...candidate, messageIndex, at: message.at ?? null });
      }
    }
  });
  return found;
}

/** Latest wins per single-valued slot; one fact per key; nothing the profile already holds. */
function resolve(found: Found[], known: ReadonlySet<string>): Found[] {
  const lastOfSlot = new Map<string, number>();
  found.forEach((f, i) => f.slot && lastOfSlot.set(f.slot, i));
  const lastOfKey = new Map<string, number>();
  found.forEach((f, i) => {
    if (!f.slot || lastOfSlot.get(f.slot) === i) lastOfKey.set(f.key, i);
  });
  // "Has a wife" adds nothing next to "Has a wife named Helen" (relationship:wife vs relationship:wife:helen).
  const named = new Set<string>();
  for (const key of [...lastOfKey.keys(), ...known]) {
    const parts = key.split(":");
    if (parts[0] === "relationship" && parts.length > 2) named.add(parts.slice(0, -1).join(":"));
  }
  return found.filter((f, i) => lastOfKey.get(f.key) === i && !known.has(f.key) && !(f.kind === "relationship" && named.has(f.key)));
}

export function distillSync(input: DistillInput): DistillResult {
  const known = new Set((input.known ?? []).map((k) => k.key));
  const facts: DistilledFact[] = resolve(collect(input), known).map((f) => ({
    text: factText(f.text),
    kind: f.kind,
    box: f.box ?? BOX_OF_KIND[f.kind],
    key: f.key,
    at: f.at,
    messageIndex: f.messageIndex,
  }));
  return { facts, summary: summarise(facts) };
}

export const builtinDistiller: Distiller = {
  name: "builtin",
  async distill(input) {
    return distillSync(input);
  },
  async distillApp(input) {
    return distillAppSync(input);
  },
};
