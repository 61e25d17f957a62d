// Folds what one session taught about the user into the facts already held, so the profile stays small
// and true as sessions accumulate. Pure: no I/O, no clock, the same output for the same input. The
// service's storage calls it with the stored facts; score.ts calls it between sessions.
import { keyOf } from "./normalise";
import type { FactKind } from "./types";

/** The least a held fact must carry to be merged: what it says, its kind and its dedupe key. */
export interface MergeableFact {
  text: string;
  kind: FactKind;
  key: string;
  /** Single-valued slot ("location:live", "work:job", "diet", "taste:<thing>"): a new value replaces the old. */
  slot?: string;
}

/** Something the user said has ended or is no longer true: a plan cancelled or done, a pet that died, "not vegan anymore". */
export interface Retraction {
  /** The kinds a held fact must have to be removed. */
  kinds: readonly FactKind[];
  /** Content words (as in keys) a held fact's key must all contain; or a slot it must be in. */
  words: string;
  slot?: string;
}

const PARTNER_KEY = /^relationship:(?:wife|husband|partner|spouse|boyfriend|girlfriend|fiance|close)(?::|$)/;

const wordsOf = (key: string) => new Set((key.split(":").pop() ?? "").split(" ").filter(Boolean));

/** Two facts of one kind say the same thing when one's content words hold all of the other's (at least one word). */
export function sameThing(a: MergeableFact, b: MergeableFact): boolean {
  if (a.key === b.key) return true;
  if (a.kind !== b.kind) return false;
  const wa = wordsOf(a.key);
  const wb = wordsOf(b.key);
  if (!wa.size || !wb.size) return false;
  const [small, large] = wa.size <= wb.size ? [wa, wb] : [wb, wa];
  for (const w of small) if (!large.has(w)) return false;
  // "Works as an electrician" and "Works as an electrician in Perth": the fuller one says it all.
  return true;
}

/** `a` names fewer of the same content words than `b`. */
export function narrower(a: MergeableFact, b: MergeableFact): boolean {
  if (a.kind !== b.kind) return false;
  const wa = wordsOf(a.key);
  const wb = wordsOf(b.key);
  if (!wa.size || wa.size >= wb.size) return false;
  for (const w of wa) if (!wb.has(w)) return false;
  return true;
}

function retracts(r: Retraction, fact: MergeableFact): boolean {
  if (!r.kinds.includes(fact.kind)) return false;
  if (r.slot && fact.slot === r.slot) return true;
  // A break-up ends whichever partner the profile holds.
  if (r.slot === "partner") return PARTNER_KEY.test(fact.key);
  const want = wordsOf(keyOf("x", r.words));
  if (!want.size) return false;
  const have = wordsOf(fact.key);
  for (const w of want) if (!have.has(w)) return false;
  return true;
}

/**
 * The held facts after a session: retracted facts removed; then each new fact either replaces the held
 * fact in its single-valued slot (a new job, a new city, a like turned dislike), replaces a held fact
 * that says the same thing (one entry per fact, the newer wording), or is added. Order: held facts keep
 * their place, new ones follow in the order given.
 */
export function mergeFacts<F extends MergeableFact>(held: readonly F[], incoming: readonly F[], retractions: readonly Retraction[] = []): F[] {
  const out: (F | null)[] = held.filter((f) => !retractions.some((r) => retracts(r, f)));
  for (const fact of incoming) {
    const clash = (h: F | null) => !!h && ((fact.slot !== undefined && h.slot === fact.slot) || sameThing(h, fact));
    const first = out.findIndex(clash);
    if (first < 0) {
      out.push(fact);
      continue;
    }
    // Said again with less detail ("Works as a nurse" after "Works as a nurse at St Mary's"): the held one stays.
    if (!fact.slot && fact.kind !== "relationship" && narrower(fact, out[first]!)) continue;
    out.forEach((h, j) => {
      if (j !== first && clash(h)) out[j] = null;
    });
    out[first] = fact;
  }
  return out.filter((f): f is F => f !== null);
}
