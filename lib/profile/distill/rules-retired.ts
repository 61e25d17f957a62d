// A retirement said in passing, read over a whole message, with the job it ended where the same message
// names it: "I was a nurse for 38 years at Baptist Medical Center retired in 2021", "fifty years a dairy
// farmer and now I'm officially retired", "41 years an electrician … 6 years retired", "I am retired from
// Canada Post 17 years now". Someone else's retirement ("since he retired from John Deere") and one still
// ahead ("when I retire") are not the user's.
import { article, keyOf } from "./normalise";
import { jobPhrase } from "./rules-work";
import type { Candidate } from "./candidate";

const RETIRED = [
  /\bI\s+(?:just\s+|finally\s+|recently\s+|officially\s+)?retired\b/i,
  /\bI(?:'m|\s+am|'ve\s+been|\s+have\s+been)\s+(?:(?:now|officially|finally|happily|fully|semi)[\s-]+)*retired\b/i,
  /(?:^|[.!?,;]\s*|\band\s+)(?:now\s+)?officially\s+retired\b/i,
  /(?:^|[.!?,;]\s*|\band\s+)\d+\s+(?:years?|yrs?)\s+retired\b/i,
  /\bI\s+was\b[^.!?]{3,80}\bretired\s+in\s+(?:19|20)\d\d\b/i,
  /\bI\s+retire\s+liao\b/i,
];
const NOT_YET = /\b(?:not|never)\s+(?:yet\s+)?retired\b|\b(?:when|if|once|until|till|before)\s+I\s+retire\b(?!d)/i;
// The job before it: "I was a nurse for 38 years", "fifty years a dairy farmer", "my years as a letter carrier",
// "I was head teacher at the village school".
const PAST_JOB = [
  /\bI\s+was\s+(?:an?\s+|the\s+)?([\p{L} -]{2,40}?)\s+(?:for|at|in|with)\s/iu,
  /\b(?:\d+|twenty|thirty|forty|fifty|sixty|[a-z]+ty-[a-z]+)\s+(?:years?|yrs?)\s+(?:as\s+)?(?:an?\s+)([\p{L} -]{2,30}?)(?=\s+(?:and|at|in|for|will)\b|\s*[,.!;]|$)/iu,
  /\bmy\s+years\s+as\s+(?:an?\s+)([\p{L} -]{2,30}?)(?=\s+(?:and|at|in)\b|\s*[,.!;]|$)/iu,
];
const RETIRED_FROM = /\bretired\s+from\s+(\p{Lu}[\p{L}&'-]*(?:\s+\p{Lu}[\p{L}&'-]*){0,3})/u;

/** The user's retirement as a work fact, and the job it ended ("" when the message names none). */
export function retiredFrom(message: string): { fact: Candidate; job: string } | null {
  if (!/\bretire/i.test(message) || NOT_YET.test(message) || !RETIRED.some((r) => r.test(message))) return null;
  let job = "";
  for (const pattern of PAST_JOB) {
    const m = pattern.exec(message);
    const phrase = m ? jobPhrase(m[1]!) : null;
    if (phrase) {
      job = phrase.title.toLowerCase();
      break;
    }
  }
  const from = RETIRED_FROM.exec(message)?.[1];
  const text = `Is retired${job ? `, was ${article(job)} ${job}` : ""}${from ? ` from ${from}` : ""}`;
  return { fact: { kind: "work", text, key: keyOf("work", "retired") }, job };
}
