// Runs every rule over one clause, by mood and by who the clause is about: statements about the speaker
// (or "we" including them) yield facts; questions and clauses about others only mention relations.
import type { Candidate, Rule } from "./candidate";
import type { FactKind } from "./types";
import type { Clause } from "./text";
import { keyOf } from "./normalise";
import { identityRules } from "./rules-identity";
import { workRules } from "./rules-work";
import { mentionRule, peopleRules } from "./rules-people";
import { tasteRules } from "./rules-taste";
import { doingRules, planRule } from "./rules-doing";
import { chatSelfRules, nameSaidRule } from "./rules-chat-self";
import { namedRule } from "./rules-named";
import { placeSaidRule, townOfJob } from "./rules-places";
import { chatLifeRules, planSaid } from "./rules-chat-life";
import { languageSaid } from "./rules-languages";
import { answerStyleSaid, requestRules, requestSaid } from "./rules-requests";
import { weAsI } from "./subject";

// Rules anchored on the speaker as subject ("I…", "we…", "my…"); they run only on clauses that open so.
const ANCHORED_RULES: Rule[] = [...identityRules, ...workRules, ...peopleRules, ...tasteRules, ...doingRules];
// Rules that read a fact wherever the clause puts it (topic-first, in passing, subject restored).
const CHAT_RULES: Rule[] = [...chatSelfRules, ...chatLifeRules, languageSaid, ...requestRules];
const RULE_OPENER =
  /^(?:I|I'm|I've|I'd|I'll|my|our|as|being|please|always|never|from|going|in|next|this|later|by|someday|one|eventually|after|call|you|people|everyone|name's|just|do|don't)\b/i;
// What a like or dislike cannot be about: an amount or a time ("like 9.", "like 4 months", "started
// monday"), a phrase that opens with a preposition ("start with the barn"), or a bare pronoun ("doing it").
const NOT_A_TASTE =
  /^(?:\S+\s+)(?:[\d.,]+(?:\s*(?:k|%|hrs?|hours?|mins?|minutes?|days?|weeks?|months?|years?|yrs?|am|pm))?(?!\S)|an?\s+(?:hour|minute|day|week|month|year)s?\b|(?:mon|tues?|wed|weds|thu|thurs?|fri|sat|sun)(?:day)?s?(?:\s+(?:night|morning|evening|afternoon)s?)?$|(?:january|february|march|april|may|june|july|august|september|october|november|december)$|(?:with|at|as|from|for|on|in|by|into|of)\s|(?:doing|having)\s+(?:it|that|this)\b|(?:it|that|this|them)$|every (?:minute|second|bit)\b|the stuff\b)/i;
// A passing state ("I'm working on a report right now") says nothing lasting about these kinds.
const FLEETING_KINDS: ReadonlySet<FactKind> = new Set(["like", "dislike", "project", "plan", "other"]);

/** The candidates of one clause; `retracting` when the clause ends something (then "we" names no partner). */
export function candidatesOf(clause: Clause, retracting = false): Candidate[] {
  if (clause.mood === "hypothetical") return [];
  const out = mentionRule(clause.text);
  // "can you put Sara Kim as the author?": a request that names the user.
  if (clause.mood === "question") {
    const asked = clause.text.replace(/^(?:can|could|would|will) you\s+(?:please\s+)?/i, "");
    // "can you keep responses to bullet points from now on?" is a standing request, not a one-off.
    const standing = /\b(?:from now on|going forward|in future|always)\b/i.test(asked) ? requestSaid(`please ${asked}`) : [];
    // "can you keep it short when I ask things": how answers should look, asked once, holds.
    return [...out, ...nameSaidRule(asked), ...(standing.length ? standing : answerStyleSaid(clause.text, true))];
  }
  if (clause.about === "other" || clause.about === "third") {
    // "she taught me to draw when I was growing up in Monterrey": the speaker's own past inside someone else's clause.
    // "it's Ron again from Dayton": the writer introducing themselves, with where they write from; "she is 68, from
    // Ibadan like me": where the user comes from, beside someone else.
    const grewUp = /\b[Ii] (?:was growing up|grew up)\b|\bfrom\s+\S+(?:\s+\S+)?\s+like\s+me\b|^(?:[Ii]t's|[Tt]his is)\s+\p{Lu}\p{Ll}+\s+(?:again\s+)?from\b/u.test(clause.text)
      ? placeSaidRule(clause.text)
      : [];
    return [...out, ...namedRule(clause.text), ...nameSaidRule(clause.text), ...grewUp];
  }
  if (clause.partner && !retracting) {
    const name = clause.partner.charAt(0).toUpperCase() + clause.partner.slice(1);
    out.push({ kind: "relationship", text: `Is close to ${name}`, key: keyOf("relationship", name, "close") });
  }
  const text = clause.about === "we" ? weAsI(clause.text) : clause.text;
  // "Paint next spring if the knee holds up", "no Chicago this year": a plan on a condition, or denied, is no plan.
  const unsure = clause.conditional || /^(?:no|not|never)\s/i.test(text);
  const keep = (candidate: Candidate) =>
    !(clause.transient && FLEETING_KINDS.has(candidate.kind)) &&
    !(candidate.kind === "plan" && (unsure || /\bturning\s+\d/i.test(candidate.text))) &&
    // "we are Jain" names a faith, not the user: one household has no one name.
    !(clause.about === "we" && candidate.kind === "name");
  const found: Candidate[] = [];
  // A one-word clause ("lol", "STOP", "thanks") states nothing.
  if (!/\s/.test(text.trim())) return out;
  const anchored = RULE_OPENER.test(text);
  if (anchored) for (const rule of ANCHORED_RULES) for (const candidate of rule(text)) found.push(candidate);
  for (const rule of CHAT_RULES) for (const candidate of rule(text)) found.push(candidate);
  const timed = clause.when && !text.includes(clause.when) ? `${text} ${clause.when}` : text;
  const plans = anchored ? planRule(timed) : [];
  found.push(...(plans.length ? plans : planSaid(text, clause.when)));
  const when = clause.when?.toLowerCase();
  for (const found1 of found) {
    // A plan carries its date even when the rule cut it off ("…a better camera, a Canon, in March").
    const candidate = when && found1.kind === "plan" && !found1.text.toLowerCase().includes(when) ? { ...found1, text: `${found1.text} ${when}` } : found1;
    if (!keep(candidate) || ((candidate.kind === "like" || candidate.kind === "dislike") && NOT_A_TASTE.test(candidate.text))) continue;
    out.push(candidate);
    // "a librarian at a public library in Cape Town": the job's town is where the user lives.
    const town = candidate.kind === "work" ? townOfJob(candidate.text) : null;
    if (town) out.push(town);
  }
  return out;
}
