// Rules for how the user wants answers: standing requests ("please keep answers short", "use kg please
// not lbs") and the way chat says them ("short answers pls", "no emoji", "use australian spelling pls").
import { cleanObject, keyOf, thirdPerson } from "./normalise";
import type { Candidate } from "./candidate";

// Standing requests: "please keep answers short", "use kg please not lbs", "pls dont send me voice notes".
const REQUEST = /^(?:(?:please|pls|plz)\s+)?(?:always\s+)?(keep|use|write|give|reply|answer|respond|format|explain|put|send)\s+(.+?)(?:\s+(?:please|pls|plz))?$/i;
const ABOUT_ANSWERS =
  /\b(?:answers?|responses?|repl(?:y|ies)|everything|prices|it simple|it short|english|metric|kg|km|grams|celsius|fahrenheit|litres|miles|cups|bullet|plain text|markdown|short|simple|step by step|always|from now on|in general|only|again)\b/i;
const DONT = /^(?:(?:please|pls|plz)\s+)?(?:don't|do not|dont)\s+(send|use|give|write|call|put)\s+(.+)/i;

const REQUEST_START = /^(?:please|pls|plz|keep|use|write|give|reply|answer|respond|format|explain|put|send|don't|do not|dont)\b/i;

const UNITS = /\b(?:metric|imperial|celsius|fahrenheit)\b/i;
// "Paces in min/km please", "prices in rupees please": what to give, said without a verb.
const NOUN_REQUEST = /^([\p{L}/ -]{2,30}?)\s+(in|as)\s+([\p{L}/ -]{1,30}?)(?:\s+(?:only|again|always))*(?:\s+(?:please|pls|plz))+(?:\s+(?:only|again))?$/iu;

// "Something short to go in her card please", "write it as a poem please": one task's wording, not how answers should look.
const ONE_TASK = /\b(?:card|poem|email|e-mail|note|letter|speech|toast|flyer|caption|invite|invitation|message|msg|essay|cover letter|post)\b/i;

export function requestSaid(clause: string): Candidate[] {
  if (ONE_TASK.test(clause)) return [];
  const noun = /(?:please|pls|plz)$/i.test(clause) ? NOUN_REQUEST.exec(clause) : null;
  if (noun && !/^(?:I|we|you|it|this|that)\b/i.test(noun[1]!)) {
    const what = `${noun[1]} ${noun[2]} ${noun[3]}`.replace(/^(?:and|also)\s+/i, "");
    return [{ kind: "preference", text: `Wants ${what.charAt(0).toLowerCase()}${what.slice(1)}`, key: keyOf("preference", what) }];
  }
  if (!REQUEST_START.test(clause)) return [];
  const dont = DONT.exec(clause);
  if (dont) {
    const what = cleanObject(`${dont[1]} ${dont[2]}`);
    return [{ kind: "preference", text: `Wants the assistant not to ${thirdPerson(what)}`, key: keyOf("preference", `not ${what}`) }];
  }
  const m = REQUEST.exec(clause);
  // Units have their own preference ("Prefers metric units").
  if (!m || !/^(?:please|pls|plz)\b|\b(?:please|pls|plz|always|from now on|in general|only|again|next time)\b/i.test(clause) || !ABOUT_ANSWERS.test(m[2]!) || UNITS.test(m[2]!))
    return [];
  // "…as plain text, no markdown": the "no …" after a comma belongs to the request.
  const no = /,\s*(no\s+[\p{L}-]+(?:\s+[\p{L}-]+)?)/iu.exec(m[2]!)?.[1];
  const what = `${cleanObject(`${m[1]} ${m[2]}`, { maxWords: 12 })}${no ? `, ${no}` : ""}`.replace(/\byour\b/gi, "its");
  return what ? [{ kind: "preference", text: `Wants the assistant to ${thirdPerson(what)}`, key: keyOf("preference", what) }] : [];
}

// How answers should look, said as chat says it: "keep it short", "short answers pls", "no emoji in
// anything", "use australian spelling pls", "always use CAD", "put the rates in rand not dollars".
const SHORT =
  /^(?:.*?(?:,\s*|\bgoing (?:fwd|forward)\s+|\bfrom now on\s+|\bin future\s+))?(?:(?:and|also|but|ok|so|pls|please|can (?:u|you)|could you)\s+)*(?:keep (?:it|them|things|it all|your answers|answers|responses|replies|drafts|messages|emails) (?:short|brief)|short(?:er)? answers)\b/i;
const NO_STYLE = /^(?:(?:and|also|but|ok|so|pls|please)\s+)*no (emojis?|bullet points|bullets|markdown|jargon)\b/i;
// "bullet points pls, paragraphs make my brain melt", "numbered steps please".
const YES_STYLE = /^(?:(?:and|also|but|ok|so)\s+)*(bullet points|numbered steps|step by step|tables?)\s+(?:pls|please|plz)\b/i;
// "And pounds, not dollars", "rand not dollars".
const NOT_DOLLARS = /\b(pounds|rand|euros?|pesos|rupees|naira|shillings|ringgit|yen|cedis|dirhams|AED|CAD|AUD|NZD|GBP|EUR)\s*,?\s+not\s+(?:dollars|pounds|euros|usd)\b/i;
const SPELLING = /\b(british|australian|american|canadian|uk|us|nz|kiwi)\s+(spelling|english)\b/i;
const CURRENCY = /\b(?:use|in)\s+(CAD|USD|AUD|NZD|GBP|EUR|euros?|pounds|rand|pesos|rupees|naira|shillings|ringgit|yen)\b/i;
// "prices in CAD obviously", "need costs in AUD", "yes in CAD": money the user counts in, said of prices or costs.
const PRICES_IN =
  /(?:\b(?:prices?|costs?|figures|amounts?|budget|numbers|quotes?|rates?)\s+(?:all\s+)?in|^(?:(?:yes|yeah|yep|ok|and|also)\s+)?in)\s+(CAD|USD|AUD|NZD|GBP|EUR|ZAR|INR|PHP|NGN|KES|SGD)\b/;
// "as a table, tables are easiest for me", "tables pls not walls of text", "in points not paragraphs".
const FORMAT =
  /\b(?:tables?\s+(?:pls|please|plz|are easiest|are best|not\b)|(?:as|in)\s+(?:a\s+)?tables?\b.*\b(?:easiest|best|always|for me)\b|always\s+(?:want\s+)?tables|(?:in|as)\s+(?:bullet\s+)?points\s+not\s+paragraphs)/i;
const ASKING = /\b(?:please|pls|plz|always|can (?:u|you)|could you|i'd like|i want|not dollars|not pounds|not euros)\b/i;

/** `asked`: said in a question ("can you keep it short?"), where a currency is the one task's ("an invoice in euros?"). */
export function answerStyleSaid(clause: string, asked = false): Candidate[] {
  const prefer = (text: string, basis: string): Candidate[] => [{ kind: "preference", text, key: keyOf("preference", basis) }];
  if (SHORT.test(clause)) return prefer("Wants short answers", "short answers");
  const no = NO_STYLE.exec(clause);
  if (no) return prefer(`Wants no ${no[1]!.toLowerCase()}`, `no ${no[1]!.toLowerCase()}`);
  const priced = PRICES_IN.exec(clause);
  if (priced) return prefer(`Wants prices in ${priced[1]}`, `prices in ${priced[1]!.toLowerCase()}`);
  const format = FORMAT.exec(clause);
  if (format) {
    const what = /points/i.test(format[0]) ? "points" : "tables";
    return prefer(`Wants answers in ${what}`, what === "points" ? "bullet points" : "tables");
  }
  const yes = YES_STYLE.exec(clause);
  if (yes) return prefer(`Wants ${yes[1]!.toLowerCase()}`, yes[1]!.toLowerCase());
  if (!ASKING.test(clause)) return [];
  const spelling = SPELLING.exec(clause);
  if (spelling) {
    const which = spelling[1]!.length <= 2 ? spelling[1]!.toUpperCase() : spelling[1]!.charAt(0).toUpperCase() + spelling[1]!.slice(1).toLowerCase();
    const what = spelling[2]!.toLowerCase() === "english" ? "English" : "spelling";
    return prefer(`Wants ${which} ${what}`, `${which} ${what}`);
  }
  if (asked) return [];
  const notDollars = NOT_DOLLARS.exec(clause);
  if (notDollars) return prefer(`Wants prices in ${notDollars[1]}`, `prices in ${notDollars[1]!.toLowerCase()}`);
  const currency = CURRENCY.exec(clause);
  if (currency) return prefer(`Wants prices in ${currency[1]}`, `prices in ${currency[1]!.toLowerCase()}`);
  return [];
}

export const requestRules = [requestSaid, answerStyleSaid];
