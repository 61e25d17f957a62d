// Who a clause is about. Chat drops its subjects ("Started a pottery class", "been playing chess",
// "can't stand olives"), says "we" ("me and Dan", "Maria and I") and quotes other people; the rules
// read clauses whose subject is the speaker, so the subject is restored, "we" is read as including
// the speaker, and what someone else says or is told is set aside.
import { NOT_NAMES, RELATIONS } from "./lexicon";

/** speaker: I, or we including I; other: the person spoken to; third: someone else; none: no subject found. */
export type About = "speaker" | "we" | "other" | "third" | "none";

// Past forms and plain forms that open a subjectless statement about the speaker.
const SUBJECTLESS_VERB =
  /^(?:(?:just|finally|also|recently|actually|still|already|officially|now)\s+)?(?:started|got|moved|settled|enrolled|registered|scheduled|filed|opened|launched|hired|grew up|took|quit|joined|signed|booked|bought|adopted|finished|did|made|went|switched|gave up|picked up|tried|found|decided|passed|handed|left|landed|learned|learnt|spent|love|loved|hate|hated|loathe|enjoy|prefer|live|work|play|miss|teach|run|own|have|need|want|reckon|eat|drink|go)\b/i;
// "pescatarian now I guess", "still veggie btw": a diet said without "I'm".
const SUBJECTLESS_DIET =
  /^(?:(?:still|now|also|fully)\s+)?(?:vegetarian|vegan|veggie|pescatarian|pescetarian|coeliac|celiac|lactose intolerant|teetotal)\b(?!\s+(?:food|options?|lunch|lunches|dinner|meals?|recipes?|places?|restaurants?|friends?|version)\b)/i;
const SUBJECTLESS_BORN = /^(?:(?:was|i was)\s+)?(born|raised)\b/i;
const SUBJECTLESS_CANT = /^(?:can't|cant|cannot|cannae|can not)\s+(?:stand|bear|wait)\b/i;
const SUBJECTLESS_BEEN = /^(?:been|bin)\s+(?!there|here|to\b)/i;
// "-ing" openers read as "I'm …", unless the "-ing" word is itself the subject ("Lambing started", "Being vegan is hard").
const SUBJECTLESS_ING = /^(?:(?:still|also|currently|now|finally|just|slowly)\s+)?([a-z]+ing)\b(?!'s\b|\s+(?:is|was|are|were|'s|has|started|starts|gets|makes|helps|keeps)\b)/i;
// What follows an "-ing" word used as a verb: "building a brick braai", "wedding my…" reads as one too.
const BEFORE_OBJECT = /^\s+(?:a|an|my|our|some)\s/i;
const NOT_PROGRESSIVE =
  /^(?:amazing|interesting|boring|exciting|annoying|amusing|charming|stunning|disgusting|terrifying|surprising|confusing|frustrating|embarrassing|relaxing|refreshing|satisfying|shocking|thrilling|tiring|exhausting|depressing|inspiring|fascinating|being|nothing|something|anything|everything|thing|king|morning|evening|ring|spring|string|wedding|building|ceiling|sibling|darling|pudding|clothing|feeling|meeting|painting|timing|ending|evening|lightning|during|according|including|bling|sing|wing|thing)$/i;

// "me and Dan", "Dan and I", "my husband Luis and I": "we" that includes the speaker and names the other.
const ME_AND = /^(?:me and|me n|me &)\s+(\p{L}[\p{L}'-]*)/iu;
const AND_I = /^(?:(?:my|our)\s+[\p{L}-]+\s+)?(\p{L}[\p{L}'-]*)\s+(?:and|&|n)\s+(?:I|me)\b/iu;

export interface Subjected {
  text: string;
  about: About;
  /** A person named as part of "we" ("me and Dan"). */
  partner?: string;
}

export const isNameWord = (word: string) => !NOT_NAMES.has(word.toLowerCase()) && !/^(?:the|a|an|my|our|his|her|and|or|me|you|him|them|us)$/i.test(word);

/** The clause with its subject restored, and who it is about. */
const SPEAKER: ReadonlySet<string> = new Set(["i", "i'm", "i've", "i'd", "i'll", "my", "me"]);
const WE: ReadonlySet<string> = new Set(["we", "we're", "we've", "we'd", "we'll", "our", "us"]);
const OTHER: ReadonlySet<string> = new Set(["you", "you're", "your", "ur", "u", "you've", "you'll", "yours"]);
const THIRD: ReadonlySet<string> = new Set(["he", "she", "they", "he's", "she's", "they're", "his", "her", "their", "it", "it's", "its", "this", "that", "there"]);
const FIRST_WORD = /^[\p{L}']+/u;
const MAYBE_WE = /\s(?:and|n|&)\s/i;

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

export function subjectOf(clause: string, atSentenceStart: boolean): Subjected {
  const first = FIRST_WORD.exec(clause)?.[0].toLowerCase() ?? "";
  if (MAYBE_WE.test(clause)) {
    const meAnd = ME_AND.exec(clause) ?? AND_I.exec(clause);
    if (meAnd && isNameWord(meAnd[1]!)) {
      const name = meAnd[1]!;
      const rest = clause.slice(meAnd[0].length).replace(/^\s*(?:are|'re)\b/i, " are");
      return { text: `we${rest}`, about: "we", ...(RELATIONS[name.toLowerCase()] ? {} : { partner: name }) };
    }
  }
  if (SPEAKER.has(first)) return { text: clause, about: "speaker" };
  if (WE.has(first)) return { text: clause, about: "we" };
  if (OTHER.has(first)) return { text: clause, about: "other" };
  if (THIRD.has(first)) return { text: clause, about: "third" };
  if (!atSentenceStart) return { text: clause, about: "none" };
  if (SUBJECTLESS_DIET.test(clause)) return { text: `I'm ${lowerFirst(clause)}`, about: "speaker" };
  if (/^(?:got\s+|just\s+got\s+)?promoted\b/i.test(clause)) return { text: `I got ${lowerFirst(clause).replace(/^(?:just\s+)?got\s+/i, "")}`, about: "speaker" };
  if (SUBJECTLESS_CANT.test(clause)) return { text: `I ${lowerFirst(clause)}`, about: "speaker" };
  if (SUBJECTLESS_BEEN.test(clause)) return { text: `I've ${lowerFirst(clause)}`, about: "speaker" };
  const born = SUBJECTLESS_BORN.exec(clause);
  if (born) return { text: `I was ${clause.slice(born.index + born[0].length - born[1]!.length)}`, about: "speaker" };
  if (SUBJECTLESS_VERB.test(clause)) return { text: `I ${lowerFirst(clause)}`, about: "speaker" };
  // "bouldering on grit is my favourite thing": an "-ing" subject with its own verb later is a topic, not "I'm…".
  const ing = SUBJECTLESS_ING.exec(clause);
  // "building a brick braai": a word that is also a noun ("the building") is a verb before "a", "my"….
  const verb = ing && (!NOT_PROGRESSIVE.test(ing[1]!) || BEFORE_OBJECT.test(clause.slice(ing[0].length)));
  if (verb && !/\b(?:is|are|was|were)\b/i.test(clause.split(/,|\s(?:so|and|but|because|cause|cos)\s/)[0]!)) return { text: `I'm ${lowerFirst(clause)}`, about: "speaker" };
  return { text: clause, about: "none" };
}

/** "we" read as the speaker ("we live in Leeds" says the speaker lives in Leeds). */
export function weAsI(clause: string): string {
  return clause
    .replace(/^we're\b/i, "I'm")
    .replace(/^we've\b/i, "I've")
    .replace(/^we'll\b/i, "I'll")
    .replace(/^we'd\b/i, "I'd")
    .replace(/^we are\b/i, "I am")
    .replace(/^we\b/i, "I")
    .replace(/^our\b/i, "my");
}

// What someone else says, thinks or is quoted as saying is theirs, not the speaker's ("my mum keeps saying 'you'll never…'").
const QUOTED = /\b(?:say|says|said|saying|tell|tells|told|telling|ask|asks|asked|goes|went|like)\s*[:,]?\s*(?:'[^']{3,}'|"[^"]{3,}")/gi;
const REPORTED =
  /^(.*?\b(?:he|she|they|\p{Lu}\p{L}+|(?:my|our|his|her)\s+[\p{L}-]+(?:\s+\p{Lu}\p{L}+)?)\s+(?:says|said|thinks|thought|reckons|keeps saying|swears)\b)(?:\s+that)?\s+.*$/iu;

/** Quoted speech removed; a clause reporting what someone else says keeps only who says it. */
const OPENING_QUOTE = /(?:^|[\s:,(])['"]\S/;

export function withoutSpeech(text: string): string {
  if (!OPENING_QUOTE.test(text)) return text;
  return text.replace(QUOTED, (m) => m.replace(/(['"]).*\1/, ""));
}

const SPEECH_VERB = /\b(?:says|said|thinks|thought|reckons|saying|swears)\b/i;

export function withoutReported(clause: string): string {
  if (/^(?:I|we)\b/i.test(clause) || !SPEECH_VERB.test(clause)) return clause;
  const m = REPORTED.exec(clause);
  return m ? m[1]! : clause;
}
