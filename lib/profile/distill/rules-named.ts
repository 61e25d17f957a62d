// Rules for the people, animals and things named in passing: "my collie Nell", "a rescue greyhound called Biscuit",
// "her name is Pepper", "Buster our old beagle", "wife Meera", "a bill-splitting app called Halfsies", and a
// relation said without "my" ("Wife's on call all weekend", "mum took my xbox").
import { NOT_NAMES, RELATIONS } from "./lexicon";
import { article, keyOf, slugOf } from "./normalise";
import type { Candidate } from "./candidate";

// A capitalised word other than "I": names are capitalised, except in "its cody, new number".
export const CAPITAL_WORD = /(?:^|\s)(?!I\b|I')\p{Lu}/u;

// People and animals named in passing: "my collie Nell", "a rescue greyhound called Biscuit", "her name is Pepper".
// A friend or a flatmate named ("my buddy Ron", "my flatmate Priya") is someone in the user's life; a boss, a
// colleague or a neighbour named in passing is not kept.
const NOT_KIN =
  /^(?:friends|mates|boss|manager|supervisor|colleague|coworker|co-worker|neighbour|neighbor|landlord|landlady|teacher|doctor|doc|physio|coach|trainer|therapist|client|customer|student|team|band|favourite|fav|fave|name|own|new|old|first|last|next|home|local|job|company|shop|store|restaurant|app|book|song|show|podcast|channel|page|series|project|business|cafe|bar|studio|group|club|brand|website|site|account|server|course|class|town|village|street|city|place|house|flat|car|van|boat|portfolio|gal|guy|lady|man|woman|bloke|fella|chap|dude|person|physio|nurse|vet|dentist|surgeon|agent|realtor|lawyer|solicitor|pastor|priest|vicar|tutor|instructor)$/i;
const MY_NAMED = /\b(?:my|our)\s+((?:[a-z-]+\s+)?)([a-z-]+)\s+(\p{Lu}\p{Ll}[\p{L}'-]*)(?!\s*(?:'s\s+)?(?:is|are)\s+(?:a|an|the)\s)/gu;
const FUNCTION_WORD = /^(?:in|at|on|with|and|or|has|have|is|are|was|only|after|before|named|called|to|from|for|of|the|a|an|own|new|old|little|first|last|whole|lovely)$/i;
const CALLED = /\b(?:a|an|my|our)\s+((?:[a-z-]+\s+){0,3}?)([a-z-]+),?\s+(?:called|named)\s+(\p{L}[\p{L}'-]+)/giu;
export const PRONOUN_NAMED = /^(?:(?:and\s+)?(?:her|his)\s+name(?:'s|\s+is)|(?:she|he)(?:'s|\s+is)\s+(?:called|named))\s+(\p{L}[\p{L}'-]+)/iu;

// "Siobhan, our girl, is getting married", "Buster our old beagle": the name first, then whose it is.
const NAME_THEN_OURS = /\b(\p{Lu}\p{Ll}+),?\s+(?:my|our)\s+(?:(?:old|little|young|eldest|youngest|baby|wee)\s+)?(girl|boy|[\p{Ll}-]+)\b/gu;
const BREED =
  /^(?:beagle|collie|terrier|spaniel|labrador|lab|retriever|poodle|pug|greyhound|whippet|husky|dachshund|boxer|staffie|westie|tabby|moggy|cockapoo|labradoodle|sheepdog|kelpie|heeler)$/;
// "wife Meera is CA in a firm", "family of 4, wife Shirley + 2 kids": a relation and its name, without "my".
const KIN_NAME = /(?:^|[,;+–—-]\s*|\bwith\s+)(wife|husband|hubby|partner|son|daughter|boyfriend|girlfriend|fiancée?|mum|mom|dad)\s+(\p{Lu}\p{Ll}+)\b/gu;

export function namedRule(clause: string): Candidate[] {
  if (!CAPITAL_WORD.test(clause) && !/\b(?:called|named|name)\b/i.test(clause)) return [];
  const out: Candidate[] = [];
  for (const m of clause.matchAll(NAME_THEN_OURS)) {
    const [, name, noun] = m as unknown as [string, string, string];
    const kin = noun === "girl" ? "daughter" : noun === "boy" ? "son" : noun;
    if (NOT_NAMES.has(name.toLowerCase()) || RELATIONS[name.toLowerCase()] || !(RELATIONS[kin] || BREED.test(kin))) continue;
    out.push({ kind: "relationship", text: `Has ${article(kin)} ${kin} named ${name}`, key: keyOf("relationship", name, RELATIONS[kin]?.[0] ?? kin) });
  }
  for (const m of clause.matchAll(KIN_NAME)) {
    const [, noun, name] = m as unknown as [string, string, string];
    const kin = noun.toLowerCase();
    if (NOT_NAMES.has(name.toLowerCase()) || !RELATIONS[kin]) continue;
    out.push({ kind: "relationship", text: `Has ${article(kin)} ${kin} named ${name}`, key: keyOf("relationship", name, RELATIONS[kin][0]) });
  }
  const add = (noun: string, name: string, describing = "") => {
    const n = noun.toLowerCase();
    // "a bill-splitting app for roommates called Halfsies": a thing the user makes, named.
    const made = MADE_THING.exec(`${describing}${n}`);
    if (made && /^\p{Lu}/u.test(name) && !NOT_NAMES.has(name.toLowerCase())) {
      const phrase = `${describing}${n}`.trim().slice(0, made.index + made[0].length);
      out.push({ kind: "project", text: `Is making ${article(phrase)} ${phrase} called ${name}`, key: keyOf("project", name), box: `projects/${slugOf(name)}` });
      return;
    }
    if (
      NOT_KIN.test(n) ||
      FUNCTION_WORD.test(n) ||
      /\b(?:in|at|on|with|and|has|is|only)\s*$/i.test(describing) ||
      NOT_NAMES.has(name.toLowerCase()) ||
      RELATIONS[n] ||
      !/^\p{Lu}/u.test(name)
    )
      return;
    const phrase = `${describing}${n}`.trim();
    out.push({ kind: "relationship", text: `Has ${article(phrase)} ${phrase} named ${name}`, key: keyOf("relationship", name, n) });
  };
  if (/\b(?:my|our)\s/i.test(clause)) for (const m of clause.matchAll(MY_NAMED)) add(m[2]!, m[3]!, m[1]);
  if (/\b(?:called|named)\b/i.test(clause)) {
    for (const m of clause.matchAll(CALLED)) add(m[2]!, m[3]!.charAt(0).toUpperCase() + m[3]!.slice(1), m[1]);
    // "got a kelpie pup, called her Dusty", "adopted a mutt from the shelter, named him Pickles": the animal or
    // child named is the last one the clause mentioned before.
    const after = NAMED_THEM.exec(clause);
    if (after && !NOT_NAMES.has(after[1]!.toLowerCase())) {
      const before = clause
        .slice(0, after.index)
        .toLowerCase()
        .split(/[^\p{L}-]+/u);
      const noun = before.reverse().find((w) => RELATIONS[w]?.[1] === "pet" || RELATIONS[w]?.[1] === "child" || BREED.test(w));
      if (noun) {
        const kin = RELATIONS[noun]?.[0] ?? "dog";
        out.push({ kind: "relationship", text: `Has ${article(noun)} ${noun} named ${after[1]}`, key: keyOf("relationship", after[1]!, kin) });
      }
    }
  }
  return out;
}
const MADE_THING =
  /^(?:[a-z-]+\s+){0,3}?(?:app|game|novel|podcast|album|ep|zine|comic|webcomic|brand|website|startup|channel|blog|newsletter|bot|deck|film|documentary|show|band|label|zine)\b/;
const NAMED_THEM = /\b(?:called|named)\s+(?:her|him|them|it)\s+(\p{Lu}[\p{L}'-]+)/u;

// "Wife's on call all weekend", "Son Dafydd wants…", "the wife's making perogies": a relation without "my".
const BARE_KIN =
  /^(?:[Tt]he\s+)?([Ww]ife|[Hh]usband|[Hh]ubby|[Mm]issus|[Ss]on|[Dd]aughter|[Kk]ids)(?:'s\b|\s+(\p{Lu}[\p{L}'-]+)|\s+(?:is|was|has|says|thinks|wants|and|[a-z]+s)\b)/u;

// "mum took my xbox", "mam keeps ringing", "Dad says hi": the user's own parent, named without "my".
const BARE_PARENT =
  /^(?:[Mm]um|[Mm]am|[Mm]om|[Mm]a|[Dd]ad|[Nn]an|[Nn]ana|[Gg]ran|[Gg]randma|[Gg]randad|[Gg]randpa)(?:'s\s+(?:been|got|gone|going|away|home|here|[a-z]+ing)\b|\s+(?:is|was|has|had|says|said|thinks|reckons|wants|keeps|kept|took|made|got|came|went|told|asked|called|rang|texted|sent|bought|gave|cooked|loves|hates|just|already|always|still|never|finally|will|would|can't|won't|doesn't|didn't)\b)/u;

export function bareKinRule(clause: string): Candidate[] {
  const parent = BARE_PARENT.exec(clause);
  if (parent) {
    const word = parent[0].replace(/['\s].*$/, "").toLowerCase();
    const entry = RELATIONS[word === "ma" ? "mum" : word];
    if (entry) return [{ kind: "relationship", text: `Has ${article(word)} ${word}`, key: keyOf("relationship", "", entry[0]) }];
  }
  const m = BARE_KIN.exec(clause);
  if (!m) return [];
  const word = m[1]!
    .toLowerCase()
    .replace(/^hubby$/, "husband")
    .replace(/^missus$/, "wife");
  const canonical = RELATIONS[word === "kids" ? "kid" : word]?.[0] ?? word;
  const name = m[2] && !NOT_NAMES.has(m[2].toLowerCase()) ? m[2] : "";
  const noun = word === "kids" ? "kids" : `${article(word)} ${word}`;
  return [{ kind: "relationship", text: `Has ${noun}${name ? ` named ${name}` : ""}`, key: keyOf("relationship", name, canonical) }];
}
