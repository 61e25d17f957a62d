// Shapes captured phrases into fact text and dedupe keys: trimming, pronouns, stems, slugs, the 200-character cap.
import { KEY_STOP_WORDS } from "./lexicon";

export const MAX_FACT_CHARS = 200;

// Where an object phrase ends: the next clause-like turn ("but", "because", "which", …).
const OBJECT_END =
  /\s+(?:but|because|cause|since|although|though|whereas|while|when|whenever|which|who|whom|where|if|unless|so that|so|lol|lmao|haha|tbh|btw|anyway|and I|and I'm|and we|and my|and it|and the|and then|and that|and this|and they|and she|and he|and now|and also|and so)\b.*$/i;
const PUNCTUATION_END = /\s*[,;:()"].*$/;
const TRAILING_FILLER =
  /\s+(?:a lot|a ton|so much|very much|too|as well|lately|these days|nowadays|anymore|any more|honestly|actually|really|tbh|though|now|right now|for now|at the moment|in general|generally|the most|most of all|more than anything|haha|lol|please|thanks|btw|by the way|either|personally)$/i;

export interface ObjectOptions {
  /** Keep commas: lists of likes ("hiking, climbing and kayaking") are one phrase. */
  lists?: boolean;
  maxWords?: number;
}

/** The phrase a rule captured, cut at the end of its clause and tidied; "" when nothing is left. */
export function cleanObject(raw: string, options: ObjectOptions = {}): string {
  let out = raw.replace(OBJECT_END, "");
  // In a list, a comma before a new statement ("fishing, been too busy") still ends the phrase.
  out = options.lists
    ? out
        .replace(/\s*[;:()"].*$/, "")
        .replace(/,\s*(?:been|was|is|it's|its|it|so|but|lol|haha|I|I'm|we|they|he|she|that's|thats)\b.*$/i, "")
        .replace(/,\s*$/, "")
    : out.replace(PUNCTUATION_END, "");
  out = out.replace(/[.!?…]+$/, "").trim();
  for (let guard = 0; guard < 4; guard++) {
    const next = out.replace(TRAILING_FILLER, "").replace(/[,\s]+$/, "");
    if (next === out) break;
    out = next;
  }
  const words = out.split(/\s+/).filter(Boolean);
  const max = options.maxWords ?? 12;
  return thirdPerson(words.slice(0, max).join(" "));
}

/** The user's own words about themselves, retold without "I". */
export function thirdPerson(text: string): string {
  return text
    .replace(/\bmyself\b/gi, "themselves")
    .replace(/\bmine\b/gi, "theirs")
    .replace(/\b(?:my|our)\b/gi, "their")
    .replace(/\bme\b/gi, "them")
    .replace(/\bI'm\b/g, "they're")
    .replace(/\bI\b/g, "they");
}

// Objects that point back at the conversation rather than name a thing.
const POINTER_OBJECT =
  /^(?:it|it's|this|that|these|those|them|they|you|your|yours|him|her|his|how|what|when|where|why|who|whatever|everything you|the idea|the way|the fact|the thought|one|some|something|anything|nothing|to (?:know|ask|see if|think|say|hear|clarify|mention|point out|add|check|confirm|thank|share|learn more|know more))\b/i;

export function isPointer(object: string): boolean {
  return !object || POINTER_OBJECT.test(object);
}

export function article(noun: string): string {
  return /^[aeiou]/i.test(noun) && !/^(?:uni|eu|one|us[aeu])/i.test(noun) ? "an" : "a";
}

/** Places and names typed in lower case get capitals ("dublin" → "Dublin"); phrases are left alone. */
export function titleCase(text: string): string {
  if (/\p{Lu}/u.test(text) || text.split(/\s+/).length > 3 || /^(?:a|an|the|about|near|outside)\b/i.test(text)) return text;
  return text.replace(/(^|[\s-])(\p{L})/gu, (_, lead: string, letter: string) => lead + letter.toUpperCase());
}

// Lemmatised-ish: enough that "olives"/"olive" and "running"/"run" share a key.
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith("ing")) {
    w = w.slice(0, -3);
    if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|ff|zz)$/.test(w)) w = w.slice(0, -1);
  } else if (w.length > 4 && /(?:s|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

/** "like:run trail" — kind-prefixed, lower case, stop words out, stemmed, order-free. */
export function keyOf(kind: string, basis: string, qualifier?: string): string {
  const words = basis
    .toLowerCase()
    .replace(/'s\b/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !KEY_STOP_WORDS.has(w))
    .map(stem);
  const unique = [...new Set(words)].sort();
  return [kind, qualifier, unique.join(" ")].filter((p) => p !== undefined && p !== "").join(":");
}

const SLUG_STOP = /^(?:a|an|the|their|my|our|this|that|some|new|little|small|big|side)$/;
const SLUG_END = /^(?:in|for|about|with|on|at|using|to|that|which|from|by|called|named|where|so|and)$/;

/** The projects/<slug> box name: the project's head words ("a budgeting app in Rust" → "budgeting-app"). */
export function slugOf(object: string): string {
  const words = object
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
  while (words.length && SLUG_STOP.test(words[0]!)) words.shift();
  const end = words.findIndex((w, i) => i > 0 && SLUG_END.test(w));
  const head = (end > 0 ? words.slice(0, end) : words).slice(0, 4);
  const slug = head.join("-").replace(/-+/g, "-").replace(/^-|-$/g, "").slice(0, 40).replace(/-$/, "");
  return slug || "untitled";
}

/** Final fact text: one line, no end punctuation, a capital first letter, at most 200 characters. */
export function factText(text: string): string {
  let out = text
    .replace(/\s+/g, " ")
    .replace(/\s+([,.!?])/g, "$1")
    .replace(/[\s,.;:!?]+$/, "")
    .trim();
  out = out.charAt(0).toUpperCase() + out.slice(1);
  if (out.length <= MAX_FACT_CHARS) return out;
  const cut = out.slice(0, MAX_FACT_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX_FACT_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, "")}…`;
}
