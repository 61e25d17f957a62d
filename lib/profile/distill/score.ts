// Measures a distiller against labelled conversations: the matching rule, precision, recall and F1.
import { FACT_KINDS, type DistilledFact, type DistillMessage, type Distiller, type FactKind } from "./types";
import { mergeFacts } from "./merge";

/** A fact a labelled conversation should yield: its kind and words its text must contain. */
export interface ExpectedFact {
  kind: FactKind;
  words: string[];
}

export interface DistillCase {
  id: string;
  messages: DistillMessage[];
  expected: ExpectedFact[];
  known?: { key: string }[];
  /** A multi-session case: scored session by session, each distilled with what is held so far and merged in. */
  sessions?: { messages: DistillMessage[] }[];
}

export interface Tally {
  extracted: number;
  expected: number;
  matched: number;
}

export interface Score extends Tally {
  precision: number;
  recall: number;
  f1: number;
}

export interface CaseResult {
  id: string;
  extracted: { kind: FactKind; text: string }[];
  expected: ExpectedFact[];
  /** [extracted index, expected index] for each match. */
  pairs: [number, number][];
}

export interface SetScore {
  overall: Score;
  byKind: Record<FactKind, Score>;
  cases: CaseResult[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Same kind, and every expected word appears in the text as a whole word, ignoring case. */
export function factMatches(fact: { kind: FactKind; text: string }, expected: ExpectedFact): boolean {
  if (fact.kind !== expected.kind) return false;
  return expected.words.every((word) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(word.trim())}(?![\\p{L}\\p{N}])`, "iu").test(fact.text));
}

/** A maximum one-to-one matching, so the score does not depend on the order facts come in. */
export function matchFacts(extracted: { kind: FactKind; text: string }[], expected: ExpectedFact[]): [number, number][] {
  const edges = expected.map((e) => extracted.flatMap((f, i) => (factMatches(f, e) ? [i] : [])));
  const ownerOf = new Map<number, number>();
  const augment = (e: number, seen: Set<number>): boolean => {
    for (const f of edges[e]!) {
      if (seen.has(f)) continue;
      seen.add(f);
      const owner = ownerOf.get(f);
      if (owner === undefined || augment(owner, seen)) {
        ownerOf.set(f, e);
        return true;
      }
    }
    return false;
  };
  expected.forEach((_, e) => augment(e, new Set()));
  return [...ownerOf.entries()].map(([f, e]) => [f, e] as [number, number]).sort((a, b) => a[0] - b[0]);
}

/** Precision = matched / extracted, recall = matched / expected; an empty side counts as perfect. */
export function scoreOf(t: Tally): Score {
  const precision = t.extracted ? t.matched / t.extracted : 1;
  const recall = t.expected ? t.matched / t.expected : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { ...t, precision, recall, f1 };
}

/** The facts a case ends with: one distillation, or for sessions the running profile after the last one. */
export async function factsOf(distiller: Distiller, c: DistillCase): Promise<DistilledFact[]> {
  if (!c.sessions?.length) return (await distiller.distill({ messages: c.messages, known: c.known })).facts;
  let held: DistilledFact[] = [];
  for (const session of c.sessions) {
    const result = await distiller.distill({ messages: session.messages, known: [...(c.known ?? []), ...held.map((f) => ({ key: f.key }))] });
    const now = session.messages.find((m) => m.at)?.at ?? undefined;
    held = mergeFacts(held, result.facts, result.retractions, now);
  }
  return held;
}

/** Runs the distiller over every case and micro-averages: every fact in the set weighs the same. */
export async function scoreDistiller(input: { distiller: Distiller; cases: readonly DistillCase[] }): Promise<SetScore> {
  const total: Tally = { extracted: 0, expected: 0, matched: 0 };
  const perKind = Object.fromEntries(FACT_KINDS.map((k) => [k, { extracted: 0, expected: 0, matched: 0 }])) as Record<FactKind, Tally>;
  const cases: CaseResult[] = [];
  for (const c of input.cases) {
    const facts = await factsOf(input.distiller, c);
    const extracted = facts.map((f) => ({ kind: f.kind, text: f.text }));
    const pairs = matchFacts(extracted, c.expected);
    total.extracted += extracted.length;
    total.expected += c.expected.length;
    total.matched += pairs.length;
    for (const f of extracted) perKind[f.kind].extracted++;
    for (const e of c.expected) perKind[e.kind].expected++;
    for (const [f] of pairs) perKind[extracted[f]!.kind].matched++;
    cases.push({ id: c.id, extracted, expected: c.expected, pairs });
  }
  const byKind = Object.fromEntries(FACT_KINDS.map((k) => [k, scoreOf(perKind[k])])) as Record<FactKind, Score>;
  return { overall: scoreOf(total), byKind, cases };
}
