// Runs every rule over one clause, by mood: statements yield facts, questions only mention relations.
import type { Candidate, Rule } from "./candidate";
import type { FactKind } from "./types";
import type { Clause } from "./text";
import { identityRules } from "./rules-identity";
import { workRules } from "./rules-work";
import { mentionRule, peopleRules } from "./rules-people";
import { tasteRules } from "./rules-taste";
import { doingRules } from "./rules-doing";

const STATEMENT_RULES: Rule[] = [...identityRules, ...workRules, ...peopleRules, ...tasteRules, ...doingRules];
// A passing state ("I'm working on a report right now") says nothing lasting about these kinds.
const FLEETING_KINDS: ReadonlySet<FactKind> = new Set(["like", "dislike", "project", "plan", "other"]);

// Every statement rule is anchored on one of these openers; other clauses can only mention relations.
const RULE_OPENER =
  /^(?:I|I'm|I've|I'd|I'll|we|we're|we've|we'll|my|our|as|being|please|always|never|from|going|in|next|this|later|by|someday|one|eventually|after|call|you|people|everyone|name's|just|do|don't)\b/i;

export function candidatesOf(clause: Clause): Candidate[] {
  if (clause.mood === "hypothetical") return [];
  const out = mentionRule(clause.text);
  if (clause.mood === "question" || !RULE_OPENER.test(clause.text)) return out;
  for (const rule of STATEMENT_RULES) {
    for (const candidate of rule(clause.text)) {
      if (!(clause.transient && FLEETING_KINDS.has(candidate.kind))) out.push(candidate);
    }
  }
  return out;
}
