// Rules for the people and pets in the user's life: partners, children, siblings, named parents, pets.
import { NOT_NAMES, NUMBER_WORDS, RELATION_PLURALS, RELATIONS } from "./lexicon";
import { article, keyOf } from "./normalise";
import type { Candidate } from "./candidate";

const RELATION_WORD = [...Object.keys(RELATIONS), ...Object.keys(RELATION_PLURALS)].sort((a, b) => b.length - a.length).join("|");
const DESCRIBING =
  "(?:little|older|younger|big|baby|eldest|oldest|youngest|middle|twin|new|beloved|lovely|amazing|rescue|adopted|teenage|grown-up|grown|adult|late|ex|former|future|one|two|three|four|five|six|\\d+|\\d+-year-old)";
const NOT_CURRENT: ReadonlySet<string> = new Set(["late", "ex", "former", "future"]);

// "my (little) sister", "our three kids", "my wife's": a relation the user has, wherever it is mentioned.
const MENTION = new RegExp(`\\b(?:my|our)\\s+((?:${DESCRIBING}[\\s-]+)*)(${RELATION_WORD})((?:-|\\s+)in(?:-|\\s+)law)?(?![\\p{L}])`, "giu");
// Cheap tests that let most clauses skip the long relation-word patterns.
const MY_OR_OUR = /\b(?:my|our)\s/i;
const WITH_COUNT = /\b(?:with|and)\s+(?:an?|one|two|three|four|five|six|\d)/i;
const HAVE = new RegExp(
  `^(?:I|we)\\s+(?:(?:also|both|now|already)\\s+)?have\\s+(?:got\\s+)?(?:(a|an|one|two|three|four|five|six|\\d+)\\s+)?((?:(?:little|young|old|older|younger|grown|grown-up|adult|teenage|rescue|beautiful|lovely|wonderful|crazy|\\d+[- ]year[- ]old|\\d+[- ]month[- ]old)\\s+)*)(${RELATION_WORD})(?:\\s+(girls|boys))?(?![\\p{L}-])`,
  "iu",
);
const WITH = new RegExp(`\\b(?:with|and)\\s+(a|an|one|two|three|four|five|six|\\d+)\\s+(${RELATION_WORD})(?![\\p{L}-])`, "giu");
const SUBJECT_I = /^(?:I|I'm|I am|I've|we|we're|we've|we are)\b/i;
const MARITAL =
  /^(?:I|we)(?:'m| am|'re| are| got| just got| recently got)\s+(?:(?:happily|recently|newly|now|also|just)\s+)?(married|engaged|divorced|separated|widowed|a widow|a widower|single)(?![\p{L}-])/iu;
const PARENT_OF = /^I(?:'m| am)\s+a\s+(?:(?:proud|single|busy|working|tired)\s+)?(?:mom|mum|mother|dad|father|parent)\s+(?:of|to)\s+(one|two|three|four|five|six|\d+)\b/i;

const NAME = "(\\p{Lu}[\\p{L}'-]+)";
// "my daughter Ana", "my son's name is Leo", "my wife is Funke Adeyemi" (a name, then nothing but a pause).
const NAME_AFTER = new RegExp(
  `^(?:'s name is|\\s+(?:is|are) (?:called|named)|,?\\s+(?:named|called|whose name is)|\\s*,|\\s+is(?=\\s+\\p{Lu}\\p{Ll}+(?:\\s+\\p{Lu}[\\p{L}'-]+)?\\s*(?:$|[,.!])))?\\s*${NAME}(?:(?:\\s*,\\s*|\\s+and\\s+|\\s*&\\s*)${NAME})?`,
  "u",
);

// Names typed in lower case count when a verb or a pause follows: "my brother tom is useless", "my dog chispa loves…",
// or their day: "my sister carmen's wedding".
const LOWER_NAME =
  /^\s+([a-z][a-z'-]{1,15})(?=\s*(?:$|[,.!?]|\s(?:is|are|was|says|said|has|had|loves|hates|thinks|and|who|just|already|keeps|got|made|cooked|broke|took|came|went|told|won|ate|fell|ran|goes|reckons|wants|does|can|will|would|[a-z]+ed)\b|'s\s+(?:wedding|birthday|party|graduation|funeral|christening|baptism|hen|stag|engagement)\b))/;
const NOT_LOWER_NAME =
  /^(?:of|in|at|on|to|for|from|with|by|\w+s|always|never|usually|even|finally|actually|once|literally|is|was|and|who|just|already|too|lol|tho|though|btw|again|now|here|there|says|said|has|had|so|but|or|then|still|also|really|haha|lmao|omg|pls|please|thinks|loves|hates|keeps|got|made|cooked)$/;

function namesAfter(rest: string): string[] {
  if (/^'s(?! name is)/.test(rest)) return [];
  const m = NAME_AFTER.exec(rest);
  if (!m) {
    const lower = LOWER_NAME.exec(rest)?.[1]?.replace(/'s$/, "");
    if (!lower || NOT_LOWER_NAME.test(lower) || NOT_NAMES.has(lower) || RELATIONS[lower] || /(?:ing|ed|ly)$|'/.test(lower)) return [];
    return [lower.charAt(0).toUpperCase() + lower.slice(1)];
  }
  const names = [m[1], m[2]].filter((n): n is string => !!n && !NOT_NAMES.has(n.toLowerCase()) && !RELATIONS[n.toLowerCase()]);
  // "my wife, I think" or "my son Is…": the first word must itself be a name.
  return names.length && names[0] === m[1] ? names : [];
}

interface Relation {
  word: string;
  describing: string[];
  count: string | null;
  names: string[];
  inLaw?: boolean;
  extra?: string;
}

function relationFact(r: Relation): Candidate | null {
  const lower = r.word.toLowerCase();
  const singular = RELATION_PLURALS[lower] ?? lower;
  const entry = RELATIONS[singular];
  if (!entry || r.describing.some((d) => NOT_CURRENT.has(d.toLowerCase()))) return null;
  const [canonical] = entry;
  if (r.inLaw && !r.names.length) return null;
  const plural = lower !== singular || /^(?:children|grandchildren)$/.test(lower);
  const count = r.count ?? (r.names.length > 1 ? "two" : null);
  const noun = [...r.describing, r.word + (r.inLaw ? "-in-law" : ""), r.extra].filter(Boolean).join(" ").toLowerCase();
  const lead = count && !/^(?:a|an|one)$/i.test(count) ? count : plural ? "" : article(noun);
  const named = r.names.length ? ` named ${r.names.join(" and ")}` : "";
  const key = keyOf("relationship", r.names.join(" "), `${canonical}${r.inLaw ? "-in-law" : ""}`);
  return { kind: "relationship", text: `Has ${lead ? `${lead} ` : ""}${noun}${named}`, key };
}

function splitDescribing(raw: string): { describing: string[]; count: string | null } {
  const words = raw.split(/[\s-]+/).filter(Boolean);
  const count = words.find((w) => NUMBER_WORDS.has(w.toLowerCase()) || /^\d+$/.test(w)) ?? null;
  return { describing: words.filter((w) => w !== count), count };
}

/** Mentions count in questions too ("a gift for my wife?"): having a wife is not what is being asked. */
export function mentionRule(clause: string): Candidate[] {
  const out: Candidate[] = [];
  if (!MY_OR_OUR.test(clause)) return out;
  for (const m of clause.matchAll(MENTION)) {
    const rest = clause.slice(m.index + m[0].length);
    const fact = relationFact({ word: m[2]!, ...splitDescribing(m[1]!), names: namesAfter(rest), inLaw: !!m[3] });
    if (fact) out.push(fact);
  }
  return out;
}

const ABOUT_FAMILY = /\b(?:have|'ve|with|and|got|married|engaged|divorced|separated|widowed|widow|widower|single|of|to)\b/i;

function haveRule(clause: string): Candidate[] {
  if (!ABOUT_FAMILY.test(clause)) return [];
  const text = clause.replace(/\b(I|we)'ve\b/gi, "$1 have");
  const out: Candidate[] = [];
  const have = HAVE.exec(text);
  if (have) {
    const rest = text.slice(have.index + have[0].length);
    const describing = have[2]!.trim() ? [have[2]!.trim()] : [];
    const fact = relationFact({ word: have[3]!, describing, count: have[1] ?? null, names: namesAfter(rest), extra: have[4] });
    if (fact) out.push(fact);
  }
  // "married with two kids", "we live in Denver with a dog named Max": the user's, since they are the subject.
  for (const m of SUBJECT_I.test(clause) && WITH_COUNT.test(clause) ? clause.matchAll(WITH) : []) {
    const rest = clause.slice(m.index + m[0].length);
    const fact = relationFact({ word: m[2]!, describing: [], count: m[1]!, names: namesAfter(rest) });
    if (fact) out.push(fact);
  }
  const marital = MARITAL.exec(clause);
  if (marital) {
    const status = marital[1]!.toLowerCase();
    out.push({ kind: "relationship", text: `Is ${status}`, key: keyOf("relationship", status, "status"), slot: "marital" });
  }
  const parent = PARENT_OF.exec(clause);
  if (parent) {
    const count = parent[1]!.toLowerCase();
    out.push({ kind: "relationship", text: `Has ${count === "one" ? "a child" : `${count} children`}`, key: "relationship:child" });
  }
  return out;
}

export const peopleRules = [haveRule];
