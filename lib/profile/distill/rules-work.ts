// Rules for what the user does for a living: job titles, employers, fields, shifts and work status.
import { DIETS, JOB_HEADS, NOT_JOB_MODIFIERS, RELATIONS } from "./lexicon";
import { article, cleanObject, isPointer, keyOf } from "./normalise";
import { origin } from "./rules-identity";
import type { Candidate } from "./candidate";

function work(text: string, basis: string): Candidate {
  return { kind: "work", text, key: keyOf("work", basis) };
}

// Where a job phrase's own words stop and what follows it begins.
const AFTER_JOB = /^(?:at|for|in|with|from|and|or|but|so|who|which|of|on|,)$/i;

interface Job {
  title: string;
  /** "at St Mary's", "in the ER": kept with the title. */
  place: string;
  /** "from Cork" after a job is where the user comes from. */
  from: string;
}

/** "a senior backend engineer at Stripe" → title "senior backend engineer", place "at Stripe". */
export function jobPhrase(raw: string): Job | null {
  const words = raw
    .replace(/[,.;:!?].*$/, "")
    .split(/\s+/)
    .filter(Boolean);
  let head = -1;
  for (let i = 0; i < Math.min(words.length, 5); i++) {
    const word = words[i]!.toLowerCase();
    if (AFTER_JOB.test(word)) break;
    if (JOB_HEADS.has(word)) head = i;
  }
  if (head < 0) return null;
  const title = words.slice(0, head + 1);
  if (title.some((w) => NOT_JOB_MODIFIERS.has(w.toLowerCase()) || DIETS[w.toLowerCase()] || RELATIONS[w.toLowerCase()])) return null;
  const rest = words
    .slice(head + 1)
    .join(" ")
    .replace(/\s+(?:and|or)\s.*$/i, "")
    .replace(/\s+(?:is|are|was|were|in (?:summer|winter|spring|autumn|the fall))\b.*$/i, "");
  const from = /^from\s+(.+)/i.exec(rest)?.[1] ?? "";
  const at = /^((?:at|for|in|with)\s+.+)/i.exec(rest)?.[1] ?? "";
  return { title: title.join(" "), place: at ? cleanObject(at.replace(/\s+from\s.*$/i, ""), { maxWords: 8 }) : "", from };
}

function jobFacts(job: Job): Candidate[] {
  const out: Candidate[] = [];
  const isStudent = /\b(?:student|undergrad|undergraduate|postdoc|intern|apprentice)$/i.test(job.title);
  const phrase = `${article(job.title)} ${job.title}${job.place ? ` ${job.place}` : ""}`;
  out.push(work(isStudent ? `Is ${phrase}` : `Works as ${phrase}`, `${job.title} ${job.place}`));
  const from = job.from ? cleanObject(job.from, { maxWords: 5 }) : "";
  if (from) out.push(origin(from));
  return out;
}

const WORK_AS = /^(?:I|we)\s+(?:(?:currently|now|also|still|actually|mainly|mostly)\s+)?(?:work|am working|'m working)\s+as\s+(?:an?\s+)?(.+)/i;
const WORKING_AS = /^I(?:'m| am)\s+(?:(?:currently|now|also|still)\s+)?working\s+as\s+(?:an?\s+)?(.+)/i;
const I_AM_A = /^(?:I'm|I am|as|being)\s+(?:(?:currently|now|also|still|actually|just|officially)\s+)?(?:an?\s+|the\s+)?(.+)/i;
// "I'm Sam, a nurse from Leeds": the job in apposition to the name.
const APPOSITION = /^I(?:'m| am)\s+\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)?,\s+(?:\d{2},\s+)?(?:an?\s+)?(.+)/u;
// "I work at…", "i work 2nd shift at the distribution center", "I'm working at a bakery".
const WORK_AT =
  /^I(?:'m|\s+am)?\s+(?:(?:currently|now|also|still|actually)\s+)?(?:work|working)\s+((?:\w+ shift|nights|days|weekends|part[- ]time|full[- ]time)\s+)?(at|for|with)\s+(.+)/i;
// "got a shift at waterstones", "got casual work at a servo", "picked up shifts as a hca in a nursing home",
// "got a front desk job at a dental office", "got taken on as an apprentice with Tees Valley Electrical".
const GOT_WORK =
  /^I\s+(?:(?:just|finally|also)\s+)?(?:got|landed|picked up|started)\s+(?:(?:a|an|some)\s+)?(?:(?:casual|part[- ]time|full[- ]time|weekend|new|summer|saturday)\s+)*(?:(shifts?|work|job|gig)\s+(?:at|in|with)\s+(.+)|([\p{L} -]{2,25}?)\s+job\s+(?:at|in|with)\s+(.+)|(?:shifts?\s+|taken on\s+|hired\s+)?as\s+(?:an?\s+)?(.+))/iu;
// "11 years I'm a volunteer in the Vincent de Paul shop", "I volunteer at the Fletcher Free Library book sale".
const VOLUNTEER = /\bI(?:'m|\s+am)?\s+(?:(?:also|still)\s+)?(?:a\s+)?volunteer(?:s|ing)?\s+(?:in|at|with|for)\s+(.+)/i;
// "im in grade 12", "I'm in year 10", "im in sixth form": a pupil's year.
const SCHOOL_YEAR = /^I(?:'m|\s+am)\s+(?:now\s+)?in\s+((?:grade|year|form)\s+\d{1,2}|sixth form|(?:first|second|third|final|1st|2nd|3rd|4th)\s+year)\b/i;
const WORK_IN = /^I\s+(?:(?:currently|now|also|still|actually)\s+)?work\s+(in|on)\s+(.+)/i;
const WORK_PATTERN =
  /^I\s+(?:(?:currently|now|also|still|actually|mostly|usually|mainly)\s+)?work\s+(nights|night shifts|days|weekends|shifts|part[- ]time|full[- ]time|remotely|from home|two jobs|freelance|nine to five|9 to 5|9-5)\b/i;
const MY_JOB = /^my\s+(?:(?:current|new|day|full-time|main)\s+)?job\s+is\s+(?:(in\s+.+)|as\s+(?:an?\s+)?(.+)|an?\s+(.+)|(?:at|with)\s+(.+))/i;
const JOB_VERB = /^I\s+(?:(?:currently|now|also|still|actually)\s+)?(teach|manage|run|own|lead|supervise|coach|train|coordinate|organise|organize)\s+(.+)/i;
const BUSINESS =
  /\b(?:business|company|shop|store|bakery|restaurant|cafe|café|startup|agency|studio|salon|farm|practice|clinic|bar|pub|gym|firm|consultancy|nonprofit|charity|school|hotel|team|department|lab|service|pantry|food bank|choir|ward|branch|warehouse|kitchen)\b/i;
const STATUS =
  /^I(?:'m| am)\s+(?:(?:now|currently|happily|recently|semi)\s*-?\s*)?(retired|semi-retired|self-employed|unemployed|freelance|freelancing|between jobs|on (?:parental|maternity|paternity) leave|a stay-at-home (?:mom|mum|dad|parent))\b/i;

const THIRD_PERSON: Record<string, string> = {
  teach: "Teaches",
  manage: "Manages",
  run: "Runs",
  own: "Owns",
  lead: "Leads",
  supervise: "Supervises",
  coach: "Coaches",
  train: "Trains",
  coordinate: "Coordinates",
  organise: "Organises",
  organize: "Organizes",
};

const ABOUT_WORK =
  /\bI(?:'m| am)\b|\b(?:work|working|job|teach|manage|run|own|lead|supervise|coach|train|coordinate|organise|organize|volunteer|shifts?|got|landed|picked|started|retired|semi-retired|self-employed|unemployed|freelance|freelancing|between|leave|stay-at-home|an?)\b/i;

function workRule(clause: string): Candidate[] {
  if (!ABOUT_WORK.test(clause)) return [];
  const as = WORK_AS.exec(clause) ?? WORKING_AS.exec(clause);
  if (as) {
    const role = cleanObject(as[1]!, { maxWords: 10 });
    return role && !isPointer(role) ? [work(`Works as ${article(role)} ${role}`, role)] : [];
  }
  const at = WORK_AT.exec(clause);
  if (at) {
    const [, shift = "", prep, where] = at as unknown as [string, string | undefined, string, string];
    if (/^(?:myself|my own)\b/i.test(where)) return [work("Is self-employed", "self-employed")];
    const org = cleanObject(where.replace(/\s+as\s+.*$/i, ""), { maxWords: 8 });
    const role = /\s+as\s+(?:an?\s+)?(.+)$/i.exec(where)?.[1];
    const roleText = role ? cleanObject(role, { maxWords: 6 }) : "";
    if (!org || isPointer(org)) return [];
    return [work(`Works ${shift.toLowerCase()}${prep.toLowerCase()} ${org}${roleText ? ` as ${article(roleText)} ${roleText}` : ""}`, `${org} ${roleText}`)];
  }
  const shift = WORK_PATTERN.exec(clause);
  if (shift) return [work(`Works ${shift[1]!.toLowerCase()}`, shift[1]!)];
  const got = GOT_WORK.exec(clause);
  if (got) {
    const [, kind, where, title, titleWhere, as] = got;
    const org = cleanObject(where ?? titleWhere ?? "", { maxWords: 8 });
    if (kind && org && !isPointer(org)) return [work(`Works at ${org}`, org)];
    const role = cleanObject(title ?? "", { maxWords: 4 });
    if (role && org && !isPointer(org) && !/^(?:new|good|great|proper|real)$/i.test(role)) return [work(`Has ${article(role)} ${role} job at ${org}`, `${role} ${org}`)];
    const job = as ? jobPhrase(as) : null;
    if (job) return jobFacts(job);
  }
  const volunteer = VOLUNTEER.exec(clause);
  if (volunteer) {
    const where = cleanObject(volunteer[1]!, { maxWords: 8 });
    if (where && !isPointer(where)) return [work(`Volunteers at ${where}`, `volunteer ${where}`)];
  }
  const year = SCHOOL_YEAR.exec(clause);
  if (year) return [work(`Is in ${year[1]!.toLowerCase()}`, year[1]!)];
  const field = WORK_IN.exec(clause);
  if (field) {
    const what = cleanObject(field[2]!, { maxWords: 8 });
    return what && !isPointer(what) ? [work(`Works ${field[1]!.toLowerCase()} ${what}`, what)] : [];
  }
  const status = STATUS.exec(clause);
  if (status) {
    const what = status[1]!.toLowerCase().replace(/^freelancing$/, "freelance");
    return [work(`Is ${what}`, what)];
  }
  const myJob = MY_JOB.exec(clause);
  if (myJob) {
    const [, inField, asRole, aRole, atOrg] = myJob;
    if (inField) {
      const what = cleanObject(inField, { maxWords: 8 });
      return [work(`Works ${what}`, what.replace(/^in\s+/i, ""))];
    }
    const job = jobPhrase(asRole ?? aRole ?? "");
    if (job) return jobFacts(job);
    const org = atOrg ? cleanObject(atOrg, { maxWords: 8 }) : "";
    return org ? [work(`Works at ${org}`, org)] : [];
  }
  const verb = JOB_VERB.exec(clause);
  if (verb) {
    const what = cleanObject(verb[2]!, { maxWords: 10 });
    const name = verb[1]!.toLowerCase();
    if (!what || isPointer(what) || /^to\b/i.test(what)) return [];
    // "i run Kowalchuk Auto in yorkton": a business, by its kind or by a name of two capitalised words.
    if ((name === "run" || name === "own" || name === "lead") && !BUSINESS.test(what) && !/^\p{Lu}[\p{L}'-]*\s+(?:and\s+)?\p{Lu}/u.test(what)) return [];
    return [work(`${THIRD_PERSON[name]} ${what}`, `${name} ${what}`)];
  }
  const iAm = I_AM_A.exec(clause) ?? APPOSITION.exec(clause);
  let job = iAm ? jobPhrase(iAm[1]!) : null;
  // Without an article ("im cabin crew", "i am truck driver") the title must be plain nouns.
  const bare = iAm && !/\b(?:an?|the)\s+$/i.test(iAm[0].slice(0, iAm[0].length - iAm[1]!.length));
  if (job && bare && /\b(?:a|an|the|like|\w+ing)\b/i.test(job.title)) job = null;
  return job ? jobFacts(job) : [];
}

// Work said in passing, wherever the clause puts it.
// "3rd year phd in neuroscience at mcgill", "trinity is wrecking me, 2nd year history and politics", "I'm on 3rd year of psychology".
const STUDY_YEAR =
  /\b(?:1st|2nd|3rd|4th|5th|first|second|third|fourth|final)\s+year\s+(?:of\s+)?(?:(?:phd|masters|degree|msc|ba|bsc)\s+)?(?:student\s+)?(?:in\s+)?([\p{L}][\p{L} &]{2,40}?)(?:\s+(?:at|on|in)\s+([\p{L}][\p{L}'&-]*(?:\s+[\p{L}][\p{L}'&-]*)?))?(?=\s+(?:is|now|so)\b|\s*[,.!]|$)/iu;
// "start at tripwell monday", "joining Freshworks in Chennai from july 1st".
const STARTING_AT =
  /^(?:I(?:'m|\s+am)?\s+)?(?:start(?:ing)?\s+at\s+([\p{L}][\p{L}'&-]*(?:\s+[\p{L}][\p{L}'&-]*)?)\s+(?:on\s+)?(?:monday|tuesday|wednesday|thursday|friday|tomorrow|next|in|on|from)\b|joining\s+(\p{Lu}[\p{L}&'-]+(?:\s+\p{Lu}[\p{L}&'-]+)?(?:\s+in\s+\p{Lu}[\p{L}'-]+)?))/u;
// "I only do 3 days a week as a dental nurse", "standing all day as a dentist", "being pharmacist and business owner".
const AS_JOB = /\b(?:all day|a week|years|shifts?|nights|working|work|job|career)\s+as\s+(?:an?\s+)?(.+)|\bbeing\s+(?:an?\s+)?(.+)/i;
// "I have a taqueria in Guadalajara", "we run a little bakery in Hobart": a business of the user's own, and where.
const OWN_PLACE =
  /^I\s+(?:(?:also|still)\s+)?(?:have|own|run)\s+(?:a|an|my own|my)\s+((?:(?:small|little|tiny|family)\s+)?(?:business|shop|store|bakery|restaurant|cafe|café|salon|farm|practice|clinic|bar|pub|gym|firm|stall|taqueria|pharmacy|boutique|studio|agency|garage|workshop|guesthouse|hotel|food truck|catering company)\s+in\s+\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?)/u;

function workInPassingRule(clause: string): Candidate[] {
  const study = STUDY_YEAR.exec(clause);
  if (study && !/^(?:(?:of|the|my|our|a|an|and|uni|university|college|school)$|(?:at|on|in|for|of|her|his|my|the|is|was|and)\s)/i.test(study[1]!.trim())) {
    const subject = cleanObject(study[1]!, { maxWords: 5 });
    if (subject && !isPointer(subject)) return [work(`Studies ${subject}${study[2] ? ` at ${study[2]}` : ""}`, `study ${subject} ${study[2] ?? ""}`)];
  }
  const start = STARTING_AT.exec(clause);
  const where = start?.[1] ?? start?.[2];
  if (where && !NOT_JOB_MODIFIERS.has(where.toLowerCase())) return [work(`Works at ${where}`, where)];
  const own = OWN_PLACE.exec(clause);
  if (own) return [work(`Has a ${own[1]}`, own[1]!)];
  const as = /\b(?:day|week|years|shifts?|days|nights|working|work|job|career|being)\b/i.test(clause) ? AS_JOB.exec(clause) : null;
  const job = as ? jobPhrase((as[1] ?? as[2])!) : null;
  return job ? [work(`Works as ${article(job.title)} ${job.title}`, job.title)] : [];
}

export const workRules = [workRule];
export const workInPassingRules = [workInPassingRule];
