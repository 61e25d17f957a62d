// Rules for what the user likes, dislikes and prefers: tastes, diets, allergies, units and standing instructions.
import { DIETS, EXCLUSIVE_DIETS, INSTRUCTION_VERBS } from "./lexicon";
import { cleanObject, isPointer, keyOf, thirdPerson } from "./normalise";
import type { Candidate } from "./candidate";

const ADVERBS =
  "(?:(?:really|absolutely|just|also|truly|totally|honestly|genuinely|especially|do|still|kinda|kind of|sort of|quite|actually|definitely|seriously|simply|super|always|generally|mostly)\\s+)*";
const LIKE = new RegExp(`^I\\s+${ADVERBS}(love|like|enjoy|adore|dig)\\s+(.+)`, "i");
const INTO =
  /^I(?:'m| am)\s+(?:(?:really|very|super|so|totally|pretty|quite|also|big|huge)\s+)*(?:into|obsessed with|passionate about|crazy about|mad about|(?:a\s+)?(?:huge\s+|big\s+|massive\s+)?fan of)\s+(.+)/i;
const FAN =
  /^(?:I(?:'m| am|'ve been| have been)\s+(?:a|an)\s+|(?:a\s+)?(?:lifelong|life-long|massive|huge|big)\s+)(?:(?:huge|big|massive|total|real|proper|lifelong|life-long)\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+(?:fan|lover|nerd|enthusiast|buff|geek|addict|fanatic)\b/iu;
const FAVOURITE = /^(?:my|our)\s+(?:all-time\s+|absolute\s+)?favourite\s+([\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)\s+(?:is|are)\s+(.+)/iu;
const PASTIME =
  /^(?:I\s+spend\s+(?:my|most of my|all my|a lot of my)\s+(?:free time|spare time|weekends|evenings|days|summers|holidays)|in\s+my\s+(?:free|spare|down)\s+time,?\s+I(?:\s+(?:love|like|enjoy))?(?:\s+to)?)\s+(.+)/i;
const HATE = new RegExp(`^I\\s+${ADVERBS}(hate|dislike|detest|loathe|despise|can't stand|cannot stand|can not stand|can't bear)\\s+(.+)`, "i");
const NOT_LIKE = /^I\s+(?:do not|don't)\s+(?:(?:really|particularly|much|actually|even|like)\s+)*(?:like|enjoy|love)\s+(.+)/i;
const NOT_INTO = /^I(?:'m| am)\s+not\s+(?:(?:really|much|a|big|huge|very|too)\s+)*(?:fan of|into|keen on)\s+(.+)/i;
// "I'm not a morning person", "im not a thrillers person", "I'm not big on fish".
const NOT_A_PERSON = /^I(?:'m| am)\s+(?:just\s+|really\s+)?not\s+(?:a|an)\s+(?:big\s+|huge\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+(?:person|guy|girl|gal)\b/iu;
const NOT_BIG_ON = /^I(?:'m| am)\s+not\s+(?:big|huge|mad|keen|great)\s+on\s+(.+)/i;

// Likes about the assistant's own output are preferences about how to answer.
const ABOUT_ANSWERS = /\b(?:answers?|responses?|repl(?:y|ies)|explanations?|bullet points?|summar(?:y|ies)|code snippets?|snippets?|emojis?|tone|examples?)\b/i;

function taste(kind: "like" | "dislike", raw: string, note = ""): Candidate[] {
  // "not into valo anymore" ends a like (retract.ts); "I love being a nurse" is about the job.
  if (/\b(?:anymore|any more)\b/i.test(raw) || /^being\s/i.test(raw)) return [];
  const object = cleanObject(raw, { lists: true });
  if (isPointer(object)) return [];
  const text = `${kind === "like" ? "Likes" : "Dislikes"} ${object}${note}`;
  const kindOut = ABOUT_ANSWERS.test(object) ? "preference" : kind;
  const basis = object.replace(/^to\s+/i, "");
  // A like and a dislike of the same thing contradict: the later one wins.
  return [{ kind: kindOut, text: kindOut === "preference" && kind === "like" ? `Prefers ${object}` : text, key: keyOf(kindOut, basis), slot: keyOf("taste", basis) }];
}

const ABOUT_TASTE =
  /\b(?:love|like|enjoy|adore|dig|into|obsessed|passionate|crazy|mad|fan|lover|nerd|enthusiast|buff|geek|addict|fanatic|favourite|spend|time|hate|dislike|detest|loathe|despise|stand|bear|keen|person|big|huge)\b/i;

function tasteRule(clause: string): Candidate[] {
  if (!ABOUT_TASTE.test(clause)) return [];
  const hate = HATE.exec(clause);
  if (hate) return taste("dislike", hate[2]!);
  const notLike = NOT_LIKE.exec(clause) ?? NOT_INTO.exec(clause) ?? NOT_A_PERSON.exec(clause) ?? NOT_BIG_ON.exec(clause);
  if (notLike) return taste("dislike", notLike[1]!);
  const like = LIKE.exec(clause);
  if (like) return taste("like", like[2]!);
  const into = INTO.exec(clause);
  if (into) return taste("like", into[1]!);
  const fan = FAN.exec(clause);
  if (fan) return taste("like", fan[1]!);
  const favourite = FAVOURITE.exec(clause);
  if (favourite) return taste("like", favourite[2]!, ` (favourite ${favourite[1]!.toLowerCase()})`);
  const pastime = PASTIME.exec(clause);
  if (pastime) return taste("like", pastime[1]!);
  return [];
}

function preference(text: string, basis: string, slot?: string): Candidate {
  return { kind: "preference", text, key: keyOf("preference", basis), ...(slot ? { slot } : {}) };
}

const DIET_WORDS = Object.keys(DIETS)
  .sort((a, b) => b.length - a.length)
  .join("|");
const DIET = new RegExp(
  `^(?:(?:as|since|because|cos|coz)\\s+)?(?:I'm|I am|I've been|I have been|we're|we are|I eat|I keep|we eat|we keep|I'm doing|I am doing)\\s+(?:(?:a|an|strict|strictly|fully|mostly|now|also|pretty|very|severely|completely|pure|type [12]|borderline)\\s+)*(${DIET_WORDS})(?![\\p{L}-])`,
  "iu",
);
const ALLERGIC = /^(?:I'm|I am)\s+(?:(?:also|very|severely|mildly|badly|really|deathly)\s+)*allergic\s+to\s+(.+)/i;
const ALLERGY = /^I\s+have\s+(?:a|an)\s+(?:(?:severe|mild|bad|serious)\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+allergy\b/iu;
const NO_EAT = /^I\s+(?:do not|don't|never|can't|cannot|no longer|won't)\s+(eat|drink)\s+(.+)/i;
const AVOID = /^I\s+(?:(?:always|try to|strictly)\s+)?avoid\s+(.+)/i;

function dietRule(clause: string): Candidate[] {
  const diet = DIET.exec(clause);
  if (diet) {
    const text = DIETS[diet[1]!.toLowerCase()]!;
    return [preference(text, text, EXCLUSIVE_DIETS.has(text) ? "diet" : undefined)];
  }
  const allergic = ALLERGIC.exec(clause);
  if (allergic) {
    const what = cleanObject(allergic[1]!, { lists: true });
    return what ? [preference(`Is allergic to ${what}`, `allergic ${what}`)] : [];
  }
  const allergy = ALLERGY.exec(clause);
  if (allergy) return [preference(`Is allergic to ${allergy[1]!.toLowerCase()}`, `allergic ${allergy[1]}`)];
  const noEat = NO_EAT.exec(clause);
  if (noEat) {
    const what = cleanObject(noEat[2]!, { lists: true });
    return what && !isPointer(what) ? [preference(`Doesn't ${noEat[1]!.toLowerCase()} ${what}`, `not ${noEat[1]} ${what}`)] : [];
  }
  const avoid = AVOID.exec(clause);
  if (avoid) {
    const what = cleanObject(avoid[1]!, { lists: true });
    return what && !isPointer(what) ? [preference(`Avoids ${what}`, `avoid ${what}`)] : [];
  }
  return [];
}

const UNIT_VERB = /\b(?:use|using|prefer|always|stick (?:to|with)|work in|think in|everything in|give me|measure in|want)\b/i;
// [pattern, what is preferred, slot]: the key matches "I prefer metric units" said outright.
const UNITS: [RegExp, string, string][] = [
  [/\bmetric\b|\bkilomet(?:re|er)s\b/i, "metric units", "units"],
  [/\bimperial\b/i, "imperial units", "units"],
  [/\bcelsius\b/i, "Celsius", "temperature"],
  [/\bfahrenheit\b/i, "Fahrenheit", "temperature"],
];

function unitsRule(clause: string): Candidate[] {
  if (!UNIT_VERB.test(clause)) return [];
  return UNITS.filter(([pattern]) => pattern.test(clause)).map(([, what, slot]) => preference(`Prefers ${what}`, what, slot));
}

const PREFER = /^I\s+(?:(?:much|really|generally|usually|always|definitely|strongly|also|do)\s+)*prefer\s+(.+)/i;
const WOULD_PREFER = /^I(?:'d| would)\s+(?:much\s+|really\s+)?prefer\s+(.+)/i;
const RATHER = /^I(?:'d| would)\s+(?:much\s+)?rather\s+(not\s+)?(?:have\s+|get\s+|see\s+)?(.+)/i;
const ALWAYS_WANT = /^I\s+(always|never)\s+want\s+(.+)/i;
const INSTRUCTION = /^(?:please\s+)?(?:(?:do\s+not|don't)\s+ever\s+|(always|never)\s+)([\p{L}-]+)(.*)$/iu;
const STANDING =
  /^(?:(?:please\s+)?(?:from now on|going forward|in future|in the future),?\s+(?:please\s+)?(.+)|please\s+(.+?)\s+(?:from now on|going forward|in future|in the future))$/i;

function preferRule(clause: string): Candidate[] {
  const prefer = PREFER.exec(clause) ?? WOULD_PREFER.exec(clause);
  if (prefer) {
    const what = cleanObject(prefer[1]!, { lists: true });
    return what && !isPointer(what) ? [preference(`Prefers ${what}`, what)] : [];
  }
  const rather = RATHER.exec(clause);
  if (rather) {
    const what = cleanObject(rather[2]!, { lists: true }).replace(/\s+than\s+/i, " over ");
    // "i'd rather not talk about it": about this moment, not a standing preference.
    if (!what || isPointer(what) || /\b(?:it|that|this)$/i.test(what)) return [];
    return [preference(rather[1] ? `Prefers not to ${what}` : `Prefers ${what}`, `${rather[1] ?? ""}${what}`)];
  }
  const want = ALWAYS_WANT.exec(clause);
  if (want) {
    const what = cleanObject(want[2]!, { lists: true });
    const adverb = want[1]!.toLowerCase();
    return what ? [preference(`${adverb === "always" ? "Always" : "Never"} wants ${what}`, `${adverb} ${what}`)] : [];
  }
  const instruction = INSTRUCTION.exec(clause);
  if (instruction && INSTRUCTION_VERBS.has(instruction[2]!.toLowerCase())) {
    const adverb = instruction[1]?.toLowerCase() ?? "never";
    const what = cleanObject(`${instruction[2]}${instruction[3]}`, { lists: true });
    return [preference(`Wants the assistant to ${adverb} ${what}`, `${adverb} ${what}`)];
  }
  const standing = STANDING.exec(clause);
  if (standing) {
    const what = cleanObject(standing[1] ?? standing[2]!, { lists: true });
    return what && !isPointer(what) ? [preference(`Wants the assistant to ${thirdPerson(what)}`, what)] : [];
  }
  return [];
}

export const tasteRules = [tasteRule, dietRule, unitsRule, preferRule];
