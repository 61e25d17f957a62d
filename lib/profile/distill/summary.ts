// The one- or two-sentence plain summary of the user built from distilled facts.
import type { DistilledFact, FactKind } from "./types";

const LEAD_KINDS: readonly FactKind[] = ["name", "location", "work"];
const REST_ORDER: readonly FactKind[] = ["relationship", "preference", "like", "dislike", "project", "plan", "other", "location", "work"];
const MAX_LEAD = 3;
const MAX_REST = 4;

function phrase(fact: DistilledFact): string {
  return fact.text.charAt(0).toLowerCase() + fact.text.slice(1);
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** "The user is called Sam, lives in Lisbon and works as a nurse. The user also likes trail running." */
export function summarise(facts: readonly DistilledFact[]): string {
  if (!facts.length) return "";
  const lead: DistilledFact[] = [];
  for (const kind of LEAD_KINDS) {
    const fact = facts.find((f) => f.kind === kind);
    if (fact && lead.length < MAX_LEAD) lead.push(fact);
  }
  const rest = REST_ORDER.flatMap((kind) => facts.filter((f) => f.kind === kind && !lead.includes(f))).slice(0, MAX_REST);
  const sentences: string[] = [];
  if (lead.length) sentences.push(`The user ${list(lead.map(phrase))}.`);
  if (rest.length) sentences.push(`The user ${lead.length ? "also " : ""}${list(rest.map(phrase))}.`);
  return sentences.join(" ");
}
