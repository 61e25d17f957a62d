// Folds what one session taught about the user into the facts already held, so the profile stays small
// and true as sessions accumulate. Pure: no I/O, no clock, the same output for the same input. The
// service's storage calls it with the stored facts; score.ts calls it between sessions.
import { keyOf } from "./normalise";
import type { FactKind, Retraction } from "./types";

export type { Retraction } from "./types";

/** The least a held fact must carry to be merged: what it says, its kind and its dedupe key. */
export interface MergeableFact {
  text: string;
  kind: FactKind;
  key: string;
  /** When it was said; a plan's date is read from its text relative to this. */
  at?: Date | null;
  /** Single-valued slot ("location:live", "work:job", "diet", "taste:<thing>"): a new value replaces the old. */
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

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const SEASON_END: Record<string, number> = { spring: 5, summer: 8, autumn: 11, fall: 11, winter: 2 };
const MONTH_OR_SEASON = new RegExp(`\\b(next\\s+)?(${MONTHS.join("|")}|spring|summer|autumn|fall|winter)\\b`, "i");

/**
 * When a plan is over: the end of the month or season its text names (the first one at or after the
 * day it was said; "next spring" said in spring is the one after), the end of next month for "next
 * month", the end of next year for "next year". null when the text names no date or the fact has no time.
 */
export function planEnds(fact: MergeableFact): Date | null {
  if (fact.kind !== "plan" || !fact.at) return null;
  const said = fact.at;
  const text = fact.text.toLowerCase();
  const endOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 1));
  if (/\bnext month\b/.test(text)) return endOfMonth(said.getUTCFullYear(), said.getUTCMonth() + 1);
  if (/\bnext year\b/.test(text)) return new Date(Date.UTC(said.getUTCFullYear() + 2, 0, 1));
  const m = MONTH_OR_SEASON.exec(text);
  if (!m) return null;
  const name = m[2]!.toLowerCase();
  const month = MONTHS.includes(name) ? MONTHS.indexOf(name) : SEASON_END[name]!;
  const year = said.getUTCFullYear() + (month < said.getUTCMonth() || (m[1] && month === said.getUTCMonth()) ? 1 : 0);
  return endOfMonth(year, month);
}

const UNNAMED_PARTNER = /^relationship:(wife|husband|partner|spouse|boyfriend|girlfriend|fiance|status:engaged|status:married)$/;
const CLOSE = /^relationship:close:(.+)$/;

/**
 * "me and Dan…" and "my husband…" in one profile: the one person close to the user and the one unnamed
 * partner are taken to be the same, "Has a husband named Dan". Left alone when either is not unique.
 */
export function fusePartner<F extends MergeableFact>(facts: F[]): F[] {
  const partners = facts.filter((f) => UNNAMED_PARTNER.test(f.key));
  const close = facts.filter((f) => CLOSE.test(f.key));
  if (partners.length !== 1 || close.length !== 1) return facts;
  const partner = partners[0]!;
  const person = close[0]!;
  const word = UNNAMED_PARTNER.exec(partner.key)![1]!;
  const name = person.text.replace(/^Is close to\s+/, "");
  const status = word.startsWith("status:") ? word.slice(7) : null;
  // "Is engaged" and "Is close to Camila" become "Is engaged to Camila" (a fiancée); "Has a husband" becomes "Has a husband named Dan".
  const text = status ? `${partner.text} to ${name}` : `${partner.text} named ${name}`;
  const fused = { ...person, text, key: `relationship:${status === "engaged" ? "fiance" : status === "married" ? "spouse" : word}:${CLOSE.exec(person.key)![1]}` };
  return facts.filter((f) => f !== partner).map((f) => (f === person ? fused : f));
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

/** Whether a retraction ends a fact: by slot, by the partner it names, or by the content words the fact's key holds. */
export function retracts(r: Retraction, fact: MergeableFact): boolean {
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
 * that says the same thing (one entry per fact, the newer wording), or is added. With `now`, plans whose
 * date has passed (planEnds) are dropped. Order: held facts keep their place, new ones follow in the order given.
 */
export function mergeFacts<F extends MergeableFact>(held: readonly F[], incoming: readonly F[], retractions: readonly Retraction[] = [], now?: Date): F[] {
  // A plan whose date has passed is over: it happened or it did not, and either way it is no longer a plan.
  const current = (f: F) => {
    const ends = now ? planEnds(f) : null;
    return !ends || ends > now!;
  };
  const out: (F | null)[] = held.filter((f) => current(f) && !retractions.some((r) => retracts(r, f)));
  for (const fact of incoming) {
    // "Has a wife named Ada" replaces "Has a wife" (relationship:wife:ada over relationship:wife).
    const clash = (h: F | null) =>
      !!h && ((fact.slot !== undefined && h.slot === fact.slot) || sameThing(h, fact) || (h.kind === "relationship" && fact.key.startsWith(`${h.key}:`)));
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
  return fusePartner(out.filter((f): f is F => f !== null && current(f)));
}
