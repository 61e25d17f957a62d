// Turns a user message into clauses the rules can read: cleanup, sentences, clauses and each clause's mood.
import { FICTION_MARKERS, FUTURE_TIME, HYPOTHETICAL_OPENERS, LEAD_WORDS, QUESTION_OPENERS, RELATIONS, TRANSIENT_TIME } from "./lexicon";
import { isNameWord, subjectOf, withoutReported, withoutSpeech, type About } from "./subject";

/** statement: may carry facts; question: only mentions of relations count; hypothetical: nothing counts. */
export type Mood = "statement" | "question" | "hypothetical";

export interface Clause {
  text: string;
  mood: Mood;
  /** About today rather than about the user ("right now", "tonight"): activities and plans are not taken. */
  transient: boolean;
  /** Who the clause is about once its subject is restored (subject.ts). */
  about: About;
  /** A person named in a "we" subject ("me and Dan"). */
  partner?: string;
  /** A future time said anywhere in the sentence ("…a better camera, a Canon, in March"). */
  when?: string;
  /** Followed by an "if" clause in the same sentence: plans in it are not taken. */
  conditional?: boolean;
}

// Chat typing habits the rules would otherwise miss: lower-case "i", missing apostrophes, slang.
const WORD_FIXES: Record<string, string> = {
  i: "I",
  im: "I'm",
  ive: "I've",
  dont: "don't",
  doesnt: "doesn't",
  cant: "can't",
  isnt: "isn't",
  didnt: "didn't",
  luv: "love",
  wanna: "want to",
  gonna: "going to",
  fav: "favourite",
  fave: "favourite",
  favorite: "favourite",
  realy: "really",
  rly: "really",
  cuz: "because",
  wifes: "wife's",
};
const WORD_FIX = new RegExp(`\\b(?:${Object.keys(WORD_FIXES).join("|")})\\b`, "gi");
const CHARACTER_FIXES: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u02bc": "'",
  "\u00b4": "'",
  "`": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u2013": " - ",
  "\u2014": " - ",
  "\u2026": "...",
  "&": " and ",
};
const CHARACTER_FIX = /[\u2018\u2019\u02bc\u00b4`\u201c\u201d\u2013\u2014\u2026&]/g;

export function cleanMessage(text: string): string {
  return text
    .replace(CHARACTER_FIX, (c) => CHARACTER_FIXES[c]!)
    .replace(WORD_FIX, (w) => (w === "I" ? w : (WORD_FIXES[w.toLowerCase()] ?? w)))
    .replace(/[ \t]+/g, " ")
    .trim();
}

// A full stop after these is not the end of a sentence ("St. Mary's", "e.g. pasta").
const ABBREVIATION = /(?:^|\s)(?:st|dr|mr|mrs|ms|prof|jr|sr|vs|etc|e\.g|i\.e|approx|mt|ft|inc|ltd|u\.s|u\.k|a\.m|p\.m)$/i;
const INITIAL = /(?:^|\s)[A-HJ-Z]$/;

// An emoji ends a sentence in chat ("onion soup tonight 🤢 i hate onions").
const EMOJI = /^\p{Extended_Pictographic}/u;

export interface Sentence {
  text: string;
  question: boolean;
}

export function sentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const push = (from: number, to: number, question: boolean) => {
    const body = text.slice(from, to).trim();
    if (/[\p{L}\p{N}]/u.test(body)) out.push({ text: body, question });
  };
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n" || c === ";" || (c >= "\u2600" && EMOJI.test(text.slice(i, i + 2)))) {
      push(start, i, false);
      if (c >= "\ud800" && c <= "\udbff") i++;
      start = i + 1;
      continue;
    }
    if (c !== "." && c !== "!" && c !== "?") continue;
    let end = i;
    while (end + 1 < text.length && ".!?".includes(text[end + 1]!)) end++;
    const next = text[end + 1];
    const terminator = text.slice(i, end + 1);
    const atBoundary = next === undefined || /[\s"')\]]/.test(next);
    if (!atBoundary || (terminator === "." && (ABBREVIATION.test(text.slice(start, i)) || INITIAL.test(text.slice(start, i))))) {
      i = end;
      continue;
    }
    push(start, end + 1, terminator.includes("?"));
    start = end + 1;
    i = end;
  }
  push(start, text.length, false);
  return out;
}

// Commas, colons, brackets and dashes, the conjunctions that can open a new clause, and a run-on's next
// statement about the speaker ("i need a sleep schedule im an icu nurse at riverside", as dictated), unless a
// word before it makes it part of the clause ("because I'm", "what I'm doing", "she says I'm").
const CLAUSE_BREAK =
  /(\s*[,:()]\s*|\s+-\s+|\s+(?=(?:and|but|so|because|though|although|while|whereas|plus)\s)|(?<!\b(?:if|when|whenever|because|cause|cos|coz|bc|since|unless|while|whether|that|what|where|how|why|who|which|said|says|say|think|thinks|thought|guess|know|knows|hope|til|till|until|before|after|like|as|than|and|but|or|so|tho|though|although|bet|reckon|sure|glad|sorry|wish|whatever|cuz|once|now|even|honestly|tbh|ngl|lol|haha|lmao))\s+(?=(?:I'm|I am|I work|I live|I've been)\s))/i;

// A segment that opens with one of these is its own clause; any other is part of the previous one.
const CLAUSE_OPENER =
  /^(?:i|i'm|i've|i'd|i'll|my|we|we're|we've|we'd|we'll|our|you|you're|your|he|she|they|it|it's|this|that|there|please|as an?|always|never|from now on|thanks|thank you)\b/i;

// After "and"/"but" with no subject, the user is still the subject ("I'm from Brazil but live in Lisbon").
const ELIDED_VERB = /^(?:(?:just|recently|finally|also)\s+)?(?:live|work|love|like|enjoy|hate|prefer|have|teach|manage|moved|own|run|spend|plan|grew|speak|study)\b/i;
// After a comma or "and", a participle continues the user's "I'm" ("I'm 34, originally from Nairobi").
const ELIDED_STATE = /^(?:(?:now|currently|also|still)\s+)?(?:living|based|originally|working (?:as|at|on|for|in)|building|developing|studying|learning|allergic|married)\b/i;
const SUBJECT_I = /^(?:I|I'm|I am|I've|we|we're|we've|we are)\b/i;

export function stripLead(text: string): string {
  let out = text.trim();
  for (let guard = 0; guard < 6; guard++) {
    const next = out.replace(LEAD_WORDS, "").replace(/^[,\s!.]+/, "");
    if (next === out) break;
    out = next;
  }
  return out;
}

function splitClauses(sentence: string): string[] {
  const parts = sentence.split(CLAUSE_BREAK);
  const clauses: string[] = [];
  let separator = "";
  let previousIsI = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i % 2 === 1) {
      separator = part;
      continue;
    }
    const stripped = stripLead(part);
    let opened: string | null = null;
    if (!clauses.length || CLAUSE_OPENER.test(stripped) || QUESTION_OPENERS.test(stripped) || HYPOTHETICAL_OPENERS.test(stripped)) {
      opened = stripped;
    } else if (previousIsI && ELIDED_VERB.test(stripped) && (/^\s*(?:and|but)\b/i.test(part) || /^(?:just|recently)?\s*moved\b/i.test(stripped))) {
      opened = `I ${stripped}`;
    } else if (previousIsI && ELIDED_STATE.test(stripped)) {
      opened = `I'm ${stripped}`;
    }
    if (opened === null) {
      clauses[clauses.length - 1] += separator + part;
    } else {
      clauses.push(opened);
      previousIsI = SUBJECT_I.test(opened);
    }
  }
  return clauses;
}

// Openers that make the clause a guess, a wish or a conditional rather than a statement.
const UNSURE_OPENER =
  /^(?:I (?:think|guess|suppose|might|may|could|should|wish|hope I|would(?! (?:much )?(?:prefer|rather)))|I'd(?! (?:much )?(?:prefer|rather))|maybe|perhaps|probably)\b/i;

// "…in Asturias, where I'm from", "galway, that's where I'm from": the place is where the speaker is from.
const WHERE_FROM = /\b((?!(?:in|at|to|from|near)\s)[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?),?\s+(?:that's\s+|thats\s+|which is\s+)?where\s+I(?:'m|\s+am)\s+(?:originally\s+)?from\b/u;
// Every future time names one of these; most sentences name none and skip the long pattern.
const TIME_WORD =
  /(?:uary|march|april|may|june|july|august|ember|october|spring|summer|autumn|fall|winter|week|month|year|day|eventually|graduat|\d{4}|christmas|xmas|easter|thanksgiving|ramadan|eid|diwali|hanukkah)/i;
const MAYBE_PAIR = /\s(?:and|&|n)\s+(?:I|me)\b|\b(?:me|I)\s+(?:and|&|n)\s/i;
const PAIR =
  /(^|[,;]\s*|\b(?:and|but|so|then)\s+)((?:my|our)\s+[\p{L}-]+\s+)?(?:(\p{L}[\p{L}'-]*)\s+(?:and|&|n)\s+(?:I|me)|(?:me|I)\s+(?:and|&|n)\s+(\p{L}[\p{L}'-]*))(?=\s+(?:are|were|have|'re|got|went|both|just|will|'ll|had|split|broke|did|finally|also|knit|play|go|love|live|moved|bought|decided|want|need|still|already|speak)\b)/giu;

export function clausesOf(message: string): Clause[] {
  const text = withoutSpeech(cleanMessage(message));
  if (FICTION_MARKERS.test(text)) return [];
  const out: Clause[] = [];
  for (const sentence of sentences(text)) {
    // "Maria and I are…", "me and Dan are…": one subject, "we", that names the other person.
    let partner: string | undefined;
    // A short lead-in ("Good news: …", "Update: …") is not part of the statement.
    const plain = sentence.text.replace(/[.!?]+$/, "").replace(/^(?:[\p{L}']+\s+){0,2}[\p{L}']+:\s+(?=\S)/u, "");
    const body = !MAYBE_PAIR.test(plain)
      ? plain
      : plain.replace(PAIR, (whole, lead: string, kin: string | undefined, name?: string, other?: string) => {
          const who = name ?? other ?? "";
          if (!isNameWord(who)) return whole;
          // "my husband Luis and I are…" keeps "my husband Luis" for the relation; "Maria and I are…" names a partner.
          if (kin) return `${lead}${kin}${who}, we`;
          if (!RELATIONS[who.toLowerCase()]) partner = who;
          return `${lead}we`;
        });
    const raw = splitClauses(WHERE_FROM.test(body) ? body.replace(WHERE_FROM, (_, where: string) => `${where}, I'm from ${where}`) : body);
    const when = TIME_WORD.test(sentence.text) ? FUTURE_TIME.exec(sentence.text)?.[0] : undefined;
    let hypothetical = false;
    raw.forEach((part, index) => {
      let clause = stripLead(part);
      if (!clause) return;
      if (HYPOTHETICAL_OPENERS.test(clause)) hypothetical = true;
      // What follows "if" inside a clause is a condition, not a fact.
      const conditionInside = /\s+(?:if|unless|in case)\s/i.test(clause);
      clause = clause.replace(/\s+(?:if|unless|in case)\s.*$/i, "");
      // After a short lead-in ("Good news: promoted to manager") a clause still opens its sentence.
      const opens = index === 0 || raw[index - 1]!.trim().split(/\s+/).length <= 3;
      const subject = subjectOf(withoutReported(clause), opens);
      // "I want to do a masters one day, if I ever have money": a plan that hangs on a condition after it; a bare
      // phrase with its condition inside ("Paint next spring if the knee holds up") too. "thinking about a second
      // site next year if the numbers hold" is still a plan being weighed.
      const conditional = (conditionInside && subject.about === "none") || /^\s*(?:if|unless|in case)\b/i.test(stripLead(raw[index + 1] ?? ""));
      clause = subject.text;
      let mood: Mood = "statement";
      if (hypothetical || UNSURE_OPENER.test(clause)) mood = "hypothetical";
      else if (QUESTION_OPENERS.test(clause) || (sentence.question && index === raw.length - 1)) mood = "question";
      out.push({
        text: clause,
        mood,
        transient: TRANSIENT_TIME.test(clause),
        about: subject.about,
        ...((subject.partner ?? (subject.about === "we" ? partner : undefined)) ? { partner: subject.partner ?? partner } : {}),
        ...(when ? { when } : {}),
        ...(conditional ? { conditional } : {}),
      });
    });
  }
  return out;
}
