// Rules for who the user is: their name, where they live and come from, and their age.
import { NOT_NAMES } from "./lexicon";
import { cleanObject, keyOf, titleCase } from "./normalise";
import type { Candidate } from "./candidate";

const NAME_WORD = "\\p{L}[\\p{L}'-]*";

// Unambiguous openers: whatever follows is a name, even typed in lower case.
const NAMED = new RegExp(
  `^(?:my (?:full |first |real )?name is|my name's|name's|I go by|(?:you can |please |just )?call me|people call me|everyone calls me)\\s+(${NAME_WORD}(?:\\s+${NAME_WORD}){0,2})`,
  "iu",
);
// "I'm Sam" is a name only when capitalised and nothing else follows but a pause or "from …".
const INTRODUCED = new RegExp(`^I(?:'m| am)\\s+(\\p{Lu}[\\p{L}'-]*(?:\\s+\\p{Lu}[\\p{L}'-]*)?)\\s*(?:$|[,!-]|\\s+(?:and|from|here|btw|by the way)\\b)`, "u");

function nameWords(raw: string, requireCapital: boolean): string | null {
  const words: string[] = [];
  for (const word of raw.split(/\s+/)) {
    if (NOT_NAMES.has(word.toLowerCase()) || /^(?:please|thanks|though|lol|haha)$/i.test(word)) break;
    // A capital, and not a shout: "NO UNIFORM IM FREE" names no one.
    if (requireCapital && (!/^\p{Lu}/u.test(word) || /^\p{Lu}{3,}$/u.test(word))) break;
    words.push(word);
  }
  if (!words.length) return null;
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

function nameRule(clause: string): Candidate[] {
  const named = NAMED.exec(clause);
  const requireCapital = named ? /call me|calls me/i.test(named[0]) : true;
  const raw = named?.[1] ?? INTRODUCED.exec(clause)?.[1];
  const name = raw ? nameWords(raw, requireCapital) : null;
  if (!name) return [];
  return [{ kind: "name", text: `Is called ${name}`, key: keyOf("name", name), slot: "name" }];
}

const PLACE_END =
  /\s+(?:with|for|since|because|but|so|where|which|who|now|these days|at the moment|right now|for now|currently|last|this|next|ago|after|before|when|while|to be|from|\d+ (?:years?|yrs|months?|weeks?)|and (?:I|we|my|our|have|work|love)|in (?:january|february|march|april|may|june|july|august|september|october|november|december|\d{4}|the (?:spring|summer|autumn|fall|winter)))\b.*$/i;
const NOT_A_PLACE =
  /^(?:it|there|here|this|that|work|home|school|the office|(?:a|an|the|my|their)\s+(?:house|flat|apartment|condo|dorm|tent|van|studio|bungalow|building|room|basement|bubble))\b/i;

function place(raw: string): string | null {
  const cut = cleanObject(raw.replace(PLACE_END, ""), { maxWords: 7 });
  // "a condo in Scarborough": the place is the town, not the dwelling.
  const inside = /^(?:a|an|the|my|their)\s+(?:[\p{L}-]+\s+){0,2}(?:house|flat|apartment|condo|bungalow|studio|cottage|farmhouse)\s+in\s+(.+)$/iu.exec(cut);
  if (inside) return titleCase(inside[1]!);
  if (!cut || NOT_A_PLACE.test(cut)) return null;
  return titleCase(cut);
}

const DISTANCE =
  "(?:(?:about|around|roughly|just|only)\\s+)?(?:(?:\\d+|a few|a couple of|two|three|five|ten|twenty|thirty)\\s+(?:minutes?|mins?|miles?|km|kilometres?|kilometers?|hours?)\\s+)?";
const PREPOSITION = "(in|near|outside|just outside|on|by|close to|next to|north of|south of|east of|west of|out of)";
const RESIDENCE = [
  new RegExp(`^(?:I|we)\\s+(?:(?:currently|now|still|actually|also|both)\\s+)*(?:live|reside)\\s+(${DISTANCE})${PREPOSITION}\\s+(.+)`, "i"),
  new RegExp(`^(?:I|we)(?:'ve| have)\\s+(?:lived|been living|been based)\\s+(${DISTANCE})${PREPOSITION}\\s+(.+)`, "i"),
  new RegExp(`^(?:I'm|I am|we're|we are)\\s+(?:(?:currently|now|still|actually|also)\\s+)*(?:based|living|located|settled|residing)\\s+(${DISTANCE})${PREPOSITION}\\s+(.+)`, "i"),
];
const MOVED = /^(?:I|we)\s+(?:(?:just|recently|finally|actually|also)\s+)?(?:moved|relocated|shifted)\s+(?:(?:out|back|over|here|down|up)\s+)?(?:to|into)\s+(.+)/i;
// "I work for Shopify, remote from Montreal": where a remote worker works from is where they live.
const REMOTE = /^I\b.*?\bremote(?:ly)?\s+from\s+(.+)/i;
const ORIGIN = [
  /^(?:I'm|I am)\s+(?:originally\s+)?from\s+(.+)/i,
  /^I\s+(?:originally\s+)?(?:come|hail)\s+from\s+(.+)/i,
  /^I\s+(?:grew up|was born(?: and raised)?|was raised)\s+in\s+(.+)/i,
];

export function residence(prefix: string, where: string): Candidate {
  return {
    kind: "location",
    text: `Lives ${prefix}${where}`,
    key: keyOf("location", `${prefix}${where}`, "live"),
    slot: "location:live",
  };
}

export function origin(where: string): Candidate {
  return { kind: "location", text: `Is from ${where}`, key: keyOf("location", where, "from"), slot: "location:from" };
}

const ABOUT_PLACE = /\b(?:live|reside|lived|living|based|located|settled|residing|moved|relocated|from|grew up|born|raised)\b/i;

function locationRule(clause: string): Candidate[] {
  if (!ABOUT_PLACE.test(clause)) return [];
  for (const pattern of RESIDENCE) {
    const m = pattern.exec(clause);
    if (!m) continue;
    const where = place(m[3]!);
    // "based out of NYC" is "in NYC".
    const preposition = m[2]!.toLowerCase() === "out of" ? "in" : m[2]!.toLowerCase();
    if (where) return [residence(`${m[1]}${preposition} `.trimStart(), where)];
  }
  const moved = MOVED.exec(clause);
  // "moved to Texas at 12", "when I was a kid": a move in childhood is where they grew up, not where they live.
  if (moved && /\b(?:at \d+|when I was|as a (?:kid|child|baby|teen))\b/i.test(clause)) return [];
  if (moved) {
    const where = place(moved[1]!);
    if (where) return [residence(/^(?:near|outside)\b/i.test(where) ? "" : "in ", where)];
  }
  const remote = REMOTE.exec(clause);
  const remoteFrom = remote ? place(remote[1]!) : null;
  if (remoteFrom) return [residence("in ", remoteFrom)];
  for (const pattern of ORIGIN) {
    const m = pattern.exec(clause);
    const where = m ? place(m[1]!) : null;
    if (where) return [origin(where)];
  }
  return [];
}

const AGE = /^I(?:'m| am| just turned| turned)\s+(\d{1,3})(?:\s*(?:years old|yrs old|years|yo|y\/o))?$/i;

function ageRule(clause: string): Candidate[] {
  const age = Number(AGE.exec(clause)?.[1]);
  if (!(age >= 10 && age <= 110)) return [];
  return [{ kind: "other", text: `Is ${age} years old`, key: `other:age:${age}`, slot: "age" }];
}

export const identityRules = [nameRule, locationRule, ageRule];
