// Rules for what the user is doing and means to do: projects, plans, and what they are learning.
import { FUTURE_TIME } from "./lexicon";
import { cleanObject, isPointer, keyOf, slugOf } from "./normalise";
import type { Candidate } from "./candidate";

function plan(text: string, basis: string): Candidate {
  return { kind: "plan", text, key: keyOf("plan", basis) };
}

const PLANNING = /^I(?:'m| am)\s+(?:(?:also|currently|now|seriously|really|actually)\s+)?(planning|hoping|aiming|intending|preparing|saving up)\s+(to|on|for)\s+(.+)/i;
const PLANNING_A = /^I(?:'m| am)\s+(?:(?:also|currently|now|actually)\s+)?planning\s+((?:a|an|my|our)\s+.+)/i;
// "planning Umrah with ammi in December": a plan named without an article, with its date.
const PLANNING_BARE = /^I(?:'m| am)\s+(?:(?:also|currently|now|actually)\s+)?planning\s+(?!to\b|on\b|for\b|it\b|this\b|that\b)(.+)/i;
const PLAN_TO = /^I\s+(?:(?:also|really|eventually|definitely)\s+)?(plan|intend|aim|hope)\s+to\s+(.+)/i;
const MY_PLAN = /^(?:my|our)\s+(?:(?:big|main|next)\s+)?(plan|goal|dream|aim)\s+is\s+to\s+(.+)/i;
const GOING_TO = /^(?:I'm|I am|we're|we are)\s+going\s+to\s+(?!be\b|need\b|have to\b)([\p{L}-]+\s+.+)/iu;
const WILL = /^(?:I|we)(?:'ll|\s+will|\s+shall)\s+(?!be\b|need\b|have to\b)(.+)/i;
const WANT_TO = /^I\s+(?:really\s+)?want\s+to\s+(.+)/i;
const DOING = /^(?:I'm|I am|we're|we are)\s+(?:(?:also|finally|actually)\s+)?([\p{L}]+ing)\s+(.+)/iu;
const NOT_ACTIONS =
  /^(?:going|planning|thinking|wondering|hoping|looking|trying|feeling|being|doing|asking|saying|having|getting ready|working|living|learning|studying|building|developing|writing|creating|designing|coding)$/i;
// A time phrase at the start ("Next year I will…") belongs at the end of the plan.
const LEADING_TIME = new RegExp(`^(${FUTURE_TIME.source}),?\\s+(.+)$`, "i");

const PLAN_VERB: Record<string, string> = {
  plan: "Plans to",
  intend: "Intends to",
  aim: "Aims to",
  hope: "Hopes to",
  planning: "Plans",
  hoping: "Hopes",
  aiming: "Aims",
  intending: "Intends",
  preparing: "Is preparing",
  "saving up": "Is saving up",
  goal: "Aims to",
  dream: "Hopes to",
};

function withoutTime(object: string): string {
  return object.replace(FUTURE_TIME, "").replace(/\s+/g, " ").trim();
}

export function planRule(clause: string): Candidate[] {
  const lead = LEADING_TIME.exec(clause);
  const text = lead ? `${lead[lead.length - 1]} ${lead[1]!.toLowerCase()}` : clause;
  const planning = PLANNING.exec(text);
  if (planning) {
    const what = cleanObject(planning[3]!);
    if (
      isPointer(what) ||
      !withoutTime(what) ||
      /^(?:january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter)$/i.test(what)
    )
      return [];
    return [plan(`${PLAN_VERB[planning[1]!.toLowerCase()]} ${planning[2]!.toLowerCase()} ${what}`, what)];
  }
  const planningA = PLANNING_A.exec(text);
  if (planningA) {
    const what = cleanObject(planningA[1]!);
    return CHORE.test(what) ? [] : [plan(`Is planning ${what}`, what)];
  }
  const planTo = PLAN_TO.exec(text) ?? MY_PLAN.exec(text);
  if (planTo) {
    const what = cleanObject(planTo[2]!);
    return isPointer(what) ? [] : [plan(`${PLAN_VERB[planTo[1]!.toLowerCase()] ?? "Plans to"} ${what}`, what)];
  }
  // Without a future time, "going to", "will" and "-ing" are as likely to be about this afternoon.
  if (!FUTURE_TIME.test(text)) return [];
  const bare = PLANNING_BARE.exec(text);
  if (bare) {
    const what = cleanObject(bare[1]!);
    if (withoutTime(what) && !isPointer(what) && !CHORE.test(what)) return [plan(`Is planning ${what}`, withoutTime(what))];
  }
  const going = GOING_TO.exec(text) ?? WILL.exec(text);
  if (going) {
    const what = cleanObject(going[1]!);
    return withoutTime(what).includes(" ") ? [plan(`Plans to ${what}`, what)] : [];
  }
  const want = WANT_TO.exec(text);
  if (want) {
    const what = cleanObject(want[1]!);
    return withoutTime(what) ? [plan(`Wants to ${what}`, what)] : [];
  }
  const doing = DOING.exec(text);
  // "redoing the kitchen this spring" is a project under way, not a plan.
  if (doing && /^(?:redoing|renovating|restoring|fixing|painting)$/i.test(doing[1]!)) {
    const what = cleanObject(doing[2]!.replace(FUTURE_TIME, ""));
    return what && !isPointer(what) ? [project(`Is ${doing[1]!.toLowerCase()} ${what}`, what)] : [];
  }
  // "doing the leeds liverpool canal ride in october": an event by name is a plan, "doing it" is not.
  const doingThe = !!doing && /^doing$/i.test(doing[1]!) && /^(?:the|a|an|our|my)\s+\p{L}/iu.test(doing[2]!) && !isPointer(cleanObject(doing[2]!));
  if (doing && (doingThe || !NOT_ACTIONS.test(doing[1]!)) && !/^starting$/i.test(doing[1]!)) {
    const what = cleanObject(`${doing[1]} ${doing[2]}`);
    return withoutTime(what).split(" ").length > 1 ? [plan(`Is ${what}`, what)] : [];
  }
  return [];
}

const LEARNING =
  /^I(?:'m| am|'ve been| have been)\s+(?:(?:currently|also|now|still|slowly|finally|actually)\s+)*(learning|studying|training for|practi[cs]ing|teaching myself)\s+(.+)/i;

function learningRule(clause: string): Candidate[] {
  if (FUTURE_TIME.test(clause)) return [];
  const m = LEARNING.exec(clause);
  if (!m) return [];
  const what = cleanObject(m[2]!);
  if (isPointer(what) || /^for (?:my|their|an?|the) (?:exams?|tests?|quiz)\b/i.test(what)) return [];
  const verb = m[1]!.toLowerCase();
  return [{ kind: "other", text: `Is ${verb} ${what}`, key: keyOf("other", `${verb} ${what}`) }];
}

const PROJECT =
  /^I(?:'m| am)\s+(?:(?:currently|also|now|still|actually|slowly)\s+)*(building|working on|developing|writing|creating|designing|coding|renovating|restoring|converting|organi[sz]ing|prototyping|launching)\s+(.+)/i;
const MY_PROJECT =
  /^(?:my|our)\s+((?:side|current|main|pet|passion|personal|latest|new|big)\s+)?(project|startup|thesis|dissertation|novel|book)\s+is\s+(?:(?:about|on|called)\s+)?(.+)/i;
// Chores, not projects: "I'm writing an email", "working on dinner".
export const CHORE = /^(?:an?\s+|the\s+|their\s+)?(?:e-?mail|message|text|reply|response|comment|tweet|note|dinner|lunch|breakfast|coffee|tea|bed|list|it|this|that)\b/i;

function project(text: string, object: string): Candidate {
  return { kind: "project", text, key: keyOf("project", object), box: `projects/${slugOf(object)}` };
}

// "i have a small khakhra business from home", "I run a little candle shop on etsy": a venture of the user's own.
const OWN_VENTURE =
  /^I\s+(?:(?:also|now)\s+)?(?:have|run|own)\s+(?:a|my|our)\s+((?:(?:small|little|tiny|side|own|online)\s+)*(?:[\p{L}-]+\s+){0,2}?(?:business|shop|stall|brand|channel|blog|podcast|bakery|catering))\b/iu;

function projectRule(clause: string): Candidate[] {
  const venture = OWN_VENTURE.exec(clause);
  if (venture) return [project(`Has a ${venture[1]!.toLowerCase()}`, venture[1]!)];
  if (FUTURE_TIME.test(clause)) return [];
  const m = PROJECT.exec(clause);
  if (m) {
    const what = cleanObject(m[2]!);
    if (isPointer(what) || CHORE.test(what) || /^(?:from|to|back|about|up|down)\b/i.test(what)) return [];
    return [project(`Is ${m[1]!.toLowerCase()} ${what}`, what)];
  }
  const mine = MY_PROJECT.exec(clause);
  if (mine) {
    const what = cleanObject(mine[3]!);
    if (isPointer(what)) return [];
    const noun = `${mine[1] ?? ""}${mine[2]!.toLowerCase()}`;
    return [project(`Has a ${noun}: ${what}`, what)];
  }
  return [];
}

export const doingRules = [learningRule, projectRule];
