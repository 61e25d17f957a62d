// Rules for how people say who they are in chat, beyond "I am…": sign-offs and "sign it X", ages and
// faiths said in passing, jobs as "nurse life" or "got a job at…", and the people and animals named in
// passing ("my collie Nell", "a cat called Ringo"). Places are read in rules-places.ts.
import { NOT_NAMES, RELATIONS } from "./lexicon";
import { article, cleanObject, isPointer, keyOf, titleCase } from "./normalise";
import { jobPhrase, workInPassingRules } from "./rules-work";
import { placeSaidRule } from "./rules-places";
import { bareKinRule, CAPITAL_WORD, namedRule } from "./rules-named";
import type { Candidate } from "./candidate";

const NAME = "(\\p{Lu}[\\p{L}'-]+(?:\\s+\\p{Lu}[\\p{L}'-]+)?)";
// What may follow a name given for a signature: the role beside it ("Sign it Linda Kowalski, owner"), or the
// first name against the full one ("sign off as Jun not my full name").
const AFTER_SIGNATURE =
  "(?=,\\s*(?:the\\s+)?(?:owner|co-owner|manager|director|founder|proprietor|ceo|president|principal|secretary|treasurer|chair|head|lead)\\b|\\s+not\\s+(?:my|the)\\b)";
const NAME_SAID = [
  // "sign it Camille Martin", "write Tomasz Nowak at the end", "put Sara Kim as the author", "name on the form is Rhys".
  new RegExp(
    `(?:^|,\\s*)(?:(?:please|pls)\\s+)?(?:[Ss]ign(?: (?:it|off|them|the \\w+))?(?: as| with| from)?|[Ww]rite|[Pp]ut)\\s+['"‘“]?${NAME}['"’”]?(?:\\s+(?:at (?:the )?(?:end|bottom)|as (?:the )?(?:author|sender|signature|name))|$|${AFTER_SIGNATURE})`,
    "u",
  ),
  new RegExp(`^(?:the\\s+)?name on (?:the|my) [\\p{L}]+ (?:is|should be)\\s+${NAME}`, "iu"),
  // "sign it sunita", "sign it from owen", "keep it short, from kayla": a lower-case name where a signature goes.
  /(?:^|,\s*)(?:(?:please|pls)\s+)?(?:sign(?:\s+(?:it|off|them))?(?:\s+(?:as|with|from))?|(?:love\s+)?from)\s+([a-z][a-z'-]+)$/,
  // "everybody calls me Dee", "they all call me mais in halls": what people call the user.

  // A sign-off or a greeting with the name: "All the best, Gerry", "it's Bex, new number", "Maureen here again".
  new RegExp(`^(?:all the best|best wishes|best|cheers|thanks|regards|kind regards|love|take care|speak soon)\\s*,?\\s+${NAME}$`, "iu"),
  new RegExp(`^(?:[Ii]t's|[Ii]ts|[Tt]his is)\\s+${NAME}(?=\\s*,?\\s*(?:new number|here)\\b)`, "u"),
  // "heeej it's Aga!! long time", "Gord its Wayne. New phone": a greeting, or the friend's name, then who is writing.
  new RegExp(
    `^(?:(?:[Hh]e+y+a?|[Hh]i+|[Hh]iya|[Hh]ello+|[Hh]e+j|[Aa]wright|[Oo]i|[Yy]o)\\b\\s*(?:\\p{L}+\\s+)?|\\p{Lu}\\p{Ll}+\\s+)(?:[Ii]t's|[Ii]ts|[Tt]his is)\\s+(\\p{Lu}[\\p{L}'-]+)$`,
    "u",
  ),
  // "they call me nurse tasha": a title, then the name, in any case.
  /\b(?:they|people|everyone|everybody|the kids|kids|the patients)\s+calls?\s+me\s+(?:nurse|doctor|dr|coach|miss|mr|mrs|ms|auntie|aunty|uncle|teacher|chef|sister)\s+([a-z][a-z'-]+)/i,
  // "Maureen here again", "Wayne here." ("Winters here get to you" is no greeting).
  new RegExp(`^${NAME}\\s+here(?=\\s*(?:$|[,.!:;—-]|again\\b|from\\b|with\\b|btw\\b|lol\\b))`, "u"),
  /(?:^|,\s*)(?:it's|its|this is)\s+([a-z][a-z'-]+)(?=\s*,?\s*(?:new number|new phone|here|btw)\b)/i,
  // "put my name at the bottom, Ray Delgado", "Sign with my name, Fernanda Lima", "sign it from me, Siobhán Keane",
  // "nobody can spell my name, its Kaia not Kya", "Linda is me haha".
  new RegExp(`\\bmy name(?:\\s+(?:at|on)\\s+the\\s+\\w+)?\\s*(?:[,:]|,\\s*(?:it's|its))\\s+${NAME}`, "u"),
  new RegExp(`\\bfrom me,\\s+${NAME}`, "u"),
  new RegExp(`(?:^|,\\s*)${NAME}\\s+is me\\b`, "u"),
  // "marcus here. just graduated…": a lower-case name introducing the user.
  /^([a-z][a-z-]+)\s+here(?=$|,\s*new (?:number|phone)\b)/,
  // "salam, my name Saima.", "my name Khaled Al-Masri, i live in Malmö": "is" left out.
  new RegExp(`\\bmy name\\s+${NAME}(?=\\s*(?:$|[,.!;]|\\s+and\\b))`, "u"),
  // "new email signature pls: Dani Kowalchuk, Owner / Journeyperson Mechanic".
  new RegExp(`\\bsignature\\b[^:]{0,20}:\\s*${NAME}(?=\\s*(?:$|[,/|]))`, "u"),
  // "need an invoice for a load i ran direct for a local guy. from Wade Pruitt": a full name the writing comes from.
  /^from\s+(\p{Lu}\p{Ll}+\s+\p{Lu}[\p{L}'-]+)$/u,
];

const NAME_WORDS = /\b(?:sign|signature|write|put|name|best|cheers|thanks|regards|love|care|soon|it's|its|this is|here|call|calls|from|is me)\b/i;

// "authors are me (Noor Haddad)": the user's own name in brackets after "me".
const ME_BRACKETED = /\bme\s+\((\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?)(?:\)|$)/u;

// "everybody calls me Dee", "they all call me mais in halls": what people call the user (fused with a name said beside it).
const CALLS_ME = /\b(?:everyone|everybody|they all|people|my friends|friends|most people)\s+calls?\s+me\s+(\p{L}[\p{L}'-]+)/iu;

export function nameSaidRule(clause: string): Candidate[] {
  const calls = /\bcalls?\s+me\b/i.test(clause) ? CALLS_ME.exec(clause)?.[1] : undefined;
  if (calls && !NOT_NAMES.has(calls.toLowerCase()) && !RELATIONS[calls.toLowerCase()] && !/^(?:a|an|the|crazy|mad|nuts|names|out)$/i.test(calls)) {
    const name = calls.charAt(0).toUpperCase() + calls.slice(1);
    return [{ kind: "name", text: `Goes by ${name}`, key: keyOf("name", name, "nickname"), slot: "nickname" }];
  }
  const bracketed = clause.includes("(") ? ME_BRACKETED.exec(clause)?.[1] : undefined;
  if (bracketed && !NOT_NAMES.has(bracketed.split(/\s+/)[0]!.toLowerCase())) {
    return [{ kind: "name", text: `Is called ${bracketed}`, key: keyOf("name", bracketed), slot: "name" }];
  }
  if (!NAME_WORDS.test(clause) || !(CAPITAL_WORD.test(clause) || /new number|new phone|here\b|btw|calls? me\b|\bsign\b|\bfrom\s+[a-z]+$|^(?:it's|its)\s+[a-z]+$/i.test(clause)))
    return [];
  for (const pattern of NAME_SAID) {
    const m = pattern.exec(clause);
    const raw = m?.[1]?.replace(/['’]+$/, "");
    if (!raw) continue;
    const first = raw.split(/\s+/)[0]!;
    if (NOT_NAMES.has(first.toLowerCase()) || RELATIONS[first.toLowerCase()] || /ing$/i.test(first)) continue;
    const name = raw.replace(/(^|\s)(\p{L})/gu, (_, s: string, l: string) => s + l.toUpperCase());
    return [{ kind: "name", text: `Is called ${name}`, key: keyOf("name", name), slot: "name" }];
  }
  return [];
}

// "I'm 29 and…", "im 31 now", "at 74 I've earned…", "38 and starting a new career", "turning 16".
const AGE_SAID = [
  /^I(?:'m| am)\s+(?:now\s+|only\s+|just\s+)?(\d{2})(?:\s*(?:years old|yrs old|years of age|yo))?(?:\s+(?:and|now|so|but|lol|haha|tho|though|already|with|I|I'm|I've)\b|\s*[,(]|$)/i,
  /^at\s+(\d{2}),?\s+I\b/i,
  /^(\d{2})\s+and\s+(?:still|starting|now|already|loving|living|feeling|counting|i'm|im)\b/i,
  /^I(?:'m| am)\s+(?:\p{Lu}[\p{L}'-]+),\s+(\d{2})\b/iu,
  /^I(?:'m| am)\s+(?:now\s+)?(?:a\s+)?(\d{2})[- ]year[- ]old\b/i,
];

// A message that ends with the writer's name on its own: "Thank you.  Margaret", "Ta, Linda", "Mind
// yourself. Bridie x", "talk soon buddy. Gord". The name is capitalised and follows a full stop or a comma.
const SIGNED_OFF = /(?:[.!?,]|\n)\s*(\p{Lu}\p{Ll}+)(?:\s+x+)?\s*$/u;
const NOT_SIGN_OFF =
  /^(?:thanks|thankyou|cheers|perfect|brilliant|great|amazing|lovely|cool|nice|awesome|sure|done|agreed|exactly|right|true|wow|bye|night|morning|congrats|sorry|please|help|anyway|whatever|same|totally|absolutely|definitely|fab|sweet|ace|grand|legend|mint|sound|noted|cheers|ta|love|regards|best|thx|ty|later|soon|again|there|here|too|now|then|x|xx|xo|hugs|bless|amen|enjoy|anyways|honestly|seriously|literally|obviously|basically|yay|ugh|phew|oops|nope|yep|yup|yeah|yes|no|ok|okay|hi|hello|hey|welcome|goodnight|night|tonight|today|tomorrow|yesterday|ready|why|what|how|when|where|who)$/i;

// "awright gordy, its tam. new phone", "it's Nour, I changed my number": who is writing from a new number.
const NEW_NUMBER = /\bnew (?:phone|number|line|sim)\b|\bchanged my (?:number|phone)\b|\bstole my phone\b|\blost my phone\b/i;
const ITS_NAME = /(?:^|[\s,.!])(?:it's|its|this is)\s+(\p{L}[\p{L}'-]+)/iu;
const NOT_AFTER_ITS =
  /^(?:me|my|a|an|the|him|her|them|new|official|over|done|fine|true|gone|late|early|raining|cold|hot|time|finally|real|happening|confirmed|settled|mine|yours|ours|free|back|great|good|bad|amazing|crazy|weird|huge|big|small|sorted|booked|chaos|madness|insane|wild|broken|dead|working|been|going|not|just|so|very|really|all|only|still)$/i;

/** The name of a message that says it comes from a new number ("its tam. new phone"). */
export function newNumberName(message: string): Candidate | null {
  if (!NEW_NUMBER.test(message)) return null;
  const raw = ITS_NAME.exec(message)?.[1];
  if (!raw || NOT_NAMES.has(raw.toLowerCase()) || RELATIONS[raw.toLowerCase()] || NOT_SIGN_OFF.test(raw) || NOT_AFTER_ITS.test(raw)) return null;
  const name = raw.charAt(0).toUpperCase() + raw.slice(1);
  return { kind: "name", text: `Is called ${name}`, key: keyOf("name", name), slot: "name" };
}

/** The name a user message ends with, as a sign-off; only for a message of more than one sentence. */
export function signedOffName(message: string): Candidate | null {
  const m = SIGNED_OFF.exec(message.trim());
  const name = m?.[1];
  if (!name || m.index < 12 || NOT_SIGN_OFF.test(name) || NOT_NAMES.has(name.toLowerCase()) || RELATIONS[name.toLowerCase()]) return null;
  return { kind: "name", text: `Is called ${name}`, key: keyOf("name", name), slot: "name" };
}

// "turning 23 next month", "I turn 40 in February": the age the user is about to be.
const TURNING =
  /^I(?:'m|\s+am)?\s+(?:turning|turn)\s+(\d{2})\b|^I(?:'m|\s+am)\s+(\d{2})\s+(?:next|on|this)\s+(?:week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i;
// "turned 20 in dec", "71 years old with a titanium knee", "…anymore I'm 66 and I have more sense now".
const AGE_IN_PASSING = /^(?:I\s+)?turned\s+(\d{2})\b|^(\d{2})\s+(?:years|yrs)\s+old\b|\bI(?:'m|\s+am)\s+(\d{2})\s+(?:and|now|years old|yrs old)\b/i;
// "im muslim", "We're Methodist", "we are Syrian Christians": a faith, said with "I" or the household's "we".
const FAITH =
  /^I(?:'m|\s+am)\s+(?:(?:a|also|proud|practising|practicing|devout|born)\s+)*(?:(?!not\b|no\b)\p{L}+\s+)?(muslim|hindu|sikh|jain|christian|catholic|methodist|anglican|baptist|jewish|buddhist|orthodox|mormon|pentecostal|presbyterian|evangelical)s?\b/iu;

function faithSaidRule(clause: string): Candidate[] {
  const faith = FAITH.exec(clause);
  if (!faith) return [];
  const name = faith[1]!.charAt(0).toUpperCase() + faith[1]!.slice(1).toLowerCase();
  return [{ kind: "other", text: `Is ${name}`, key: keyOf("other", name, "faith"), slot: "faith" }];
}

// Conditions the user lives with, a closed class: "metformin for my diabetes", "I've got macular degeneration in my
// left eye", "the arthritis in my hip", "my cholesterol is up". Someone else's ("my dad's diabetes") is not matched.
const CONDITION =
  "((?:type\\s*[12]\\s+|pre[- ]?)?diabetes|asthma|arthritis|(?:an underactive |an overactive )?thyroid|heart failure|atrial fibrillation|afib|(?:high )?blood pressure|cholesterol|macular degeneration|glaucoma|cataracts?|copd|epilepsy|migraines?|ibs|crohn's|adhd|dyslexia|anxiety|depression|pcos|endometriosis|ms|parkinson's|tinnitus|sciatica|gout|psoriasis|eczema|lupus|fibromyalgia|long covid|sleep apnoea|sleep apnea|hearing aids?|a bad (?:back|knee|hip))";
const HEALTH = [
  new RegExp(`\\b(?:for|with|manage|managing)\\s+my\\s+${CONDITION}\\b`, "i"),
  new RegExp(`^my\\s+${CONDITION}\\s+(?:is|has|'s|was|keeps|flared|got)\\b`, "i"),
  new RegExp(`^I(?:'ve|\\s+have)?\\s+(?:got\\s+|been diagnosed with\\s+|developed\\s+|have\\s+)?(?:a\\s+touch of\\s+)?${CONDITION}\\b`, "i"),
  new RegExp(`\\bthe\\s+${CONDITION}\\s+in\\s+my\\s+(?:hip|knee|back|hands?|eyes?|left eye|right eye|shoulder|neck|feet|foot|ears?)\\b`, "i"),
  new RegExp(`\\bI\\s+(?:take|'m on|am on)\\s+(?:the\\s+)?[\\p{L}-]+(?:\\s+\\d+\\s*mg)?\\s+for\\s+(?:my\\s+)?${CONDITION}\\b`, "iu"),
];

function healthSaidRule(clause: string): Candidate[] {
  if (!/\b(?:my|I|I've|the)\b/i.test(clause)) return [];
  for (const pattern of HEALTH) {
    const m = pattern.exec(clause);
    if (!m) continue;
    const condition = m[1]!.toLowerCase().replace(/\s+/g, " ");
    return [{ kind: "other", text: `Has ${condition}`, key: keyOf("other", condition, "health") }];
  }
  return [];
}

function ageSaidRule(clause: string): Candidate[] {
  if (!/\d/.test(clause)) return [];
  const turning = TURNING.exec(clause);
  const soon = turning?.[1] ?? turning?.[2];
  if (soon) return [{ kind: "other", text: `Is turning ${soon}`, key: `other:age:${soon}`, slot: "age" }];
  const passing = AGE_IN_PASSING.exec(clause);
  const years = Number(passing?.[1] ?? passing?.[2] ?? passing?.[3]);
  if (years >= 10 && years <= 110) return [{ kind: "other", text: `Is ${years} years old`, key: `other:age:${years}`, slot: "age" }];
  for (const pattern of AGE_SAID) {
    const age = Number(pattern.exec(clause)?.[1]);
    if (age >= 10 && age <= 110) return [{ kind: "other", text: `Is ${age} years old`, key: `other:age:${age}`, slot: "age" }];
  }
  return [];
}

const work = (text: string, basis: string): Candidate => ({ kind: "work", text, key: keyOf("work", basis) });
// "vet life", "sous chef life", "SRE life": a job said as a way of life.
const JOB_LIFE = /^(?:(?:still\s+)?(?:loving\s+)?(?:the\s+)?)([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+life\b/iu;
// "12 years being a chef", "being an electrician in perth is…", "I love being a nurse".
const BEING_A = /\bbeing\s+(?:an?|the)\s+(.+)/i;
// "got a job at Target", "took a job at the small animal clinic", "starting at the public defender's office".
const NEW_JOB =
  /^I(?:'m|\s+am|'ve|\s+have)?\s+(?:just\s+|finally\s+|now\s+|also\s+)?(?:got|took|landed|accepted|started|start|starting|begin|began|got promoted to|been promoted to)\s+(?:(?:a|the|my)\s+(?:new\s+)?(?:job|role|position)\s+)?(at|with|as|in(?=\s+(?:the\s+)?\p{L}+(?:\s+on|\s*,|\s+in|\s*$)))\s+(.+)/iu;
// "oh and im at strathclyde doing architecture": where the user studies, and what.
const AT_DOING = /^I(?:'m|\s+am)\s+at\s+(\p{L}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?)\s+(?:doing|studying|reading)\s+(\p{L}[\p{L} -]{2,40}?)(?=\s*(?:,|$|\s+(?:and|so|but|now|\d)))/iu;
// "full time painter now btw", "I'm doing drum lessons full time now".
const FULL_TIME = /^(?:I'm\s+(?:a\s+)?|a\s+)?(full[- ]time|part[- ]time)\s+(.+)/i;
const DOING_FULL_TIME = /^I(?:'m|\s+am)\s+(?:now\s+)?doing\s+(.+?)\s+(full[- ]time|part[- ]time)\b/i;
const PROMOTED = /^I\s+(?:just\s+)?got\s+promoted(?:\s+to|,)\s+(?:the\s+)?(.+)/i;
// "got night ops manager at sainsburys in stratton", "got the charge nurse post": a title the user now holds.
const GOT_TITLE = /^I\s+(?:(?:just|finally|also)\s+)?got\s+(?:the\s+)?(?!an?\b|my\b|our\b|his\b|her\b|their\b|promoted\b)(.+)/i;
const NOW_AT = /^I(?:'m| am)\s+now\s+(?:at|with)\s+(.+)/i;
const RUNNING_OWN = /^I(?:'m| am)\s+(?:now\s+)?(?:running|starting|opening)\s+(?:my|our)\s+own\s+(.+)/i;

// "19 year a bus driver", "9 yrs a hairdresser now", "2 yrs as a barista at little ox": years in a job.
const YEARS_A =
  /\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty)(?:-\w+)?\s+(?:years?|yrs?)\s+(?:now\s+)?(?:as\s+)?(?:an?\s+)(.+)/i;

const JOB_WORDS = /\b(?:life|being|promoted|got|job|role|position|at|with|as|own|time|years?|yrs?|in)\b/i;

function jobSaidRule(clause: string): Candidate[] {
  const out: Candidate[] = [];
  if (!JOB_WORDS.test(clause)) return out;
  const life = JOB_LIFE.exec(clause);
  const lifeJob = life ? jobPhrase(life[1]!) : null;
  if (lifeJob) return [work(`Works as ${article(lifeJob.title)} ${lifeJob.title}`, lifeJob.title)];
  const years = YEARS_A.exec(clause);
  const yearsJob = years ? jobPhrase(years[1]!) : null;
  if (yearsJob && !/\b(?:ago|was|were|used to|retired)\b/i.test(clause)) {
    out.push(work(`Works as ${article(yearsJob.title)} ${yearsJob.title}${yearsJob.place ? ` ${yearsJob.place}` : ""}`, `${yearsJob.title} ${yearsJob.place}`));
  }
  const being = BEING_A.exec(clause);
  const beingJob = being ? jobPhrase(being[1]!.replace(/\s+(?:in|at)\s+.*$/i, "")) : null;
  if (beingJob) out.push(work(`Works as ${article(beingJob.title)} ${beingJob.title}`, beingJob.title));
  const status = /\bbeing\s+(retired|semi-retired|self-employed|freelance)\b/i.exec(clause);
  if (status) out.push(work(`Is ${status[1]!.toLowerCase()}`, status[1]!.toLowerCase()));
  const fullTime = FULL_TIME.exec(clause);
  const fullJob = fullTime ? jobPhrase(fullTime[2]!) : null;
  if (fullJob) out.push(work(`Works ${fullTime![1]!.toLowerCase()} as ${article(fullJob.title)} ${fullJob.title}`, fullJob.title));
  const doingFull = DOING_FULL_TIME.exec(clause);
  if (doingFull) out.push(work(`Does ${cleanObject(doingFull[1]!, { maxWords: 5 })} ${doingFull[2]!.toLowerCase()}`, doingFull[1]!));
  const promoted = PROMOTED.exec(clause);
  if (promoted) {
    const role = cleanObject(promoted[1]!.replace(/\s+from\s+.*$/i, ""), { maxWords: 8 });
    if (role) return [work(`Works as ${role}`, role)];
  }
  const title = GOT_TITLE.exec(clause);
  const held = title ? jobPhrase(title[1]!.replace(/\s+(?:post|position|role|spot|job)\b/i, "")) : null;
  if (held && held.place && !/\b(?:a|an|the|my)\b/i.test(held.title)) {
    return [work(`Works as ${article(held.title)} ${held.title} ${held.place}`, `${held.title} ${held.place}`)];
  }
  const job = NEW_JOB.exec(clause);
  if (job) {
    const what = cleanObject(
      job[2]!.replace(/\s+(?:stocking|doing|working|in (?:january|february|march|april|may|june|july|august|september|october|november|december))\b.*$/i, ""),
      { maxWords: 8 },
    );
    if (what && !isPointer(what)) out.push(work(job[1]!.toLowerCase() === "as" ? `Works as ${what}` : `Works ${job[1]!.toLowerCase()} ${what}`, what));
  }
  const studies = AT_DOING.exec(clause);
  if (studies) {
    const [school, subject] = [titleCase(studies[1]!), studies[2]!.trim()];
    out.push(work(`Studies ${subject} at ${school}`, `study ${subject} ${school}`));
  }
  const now = NOW_AT.exec(clause);
  if (now && /\p{Lu}/u.test(now[1]!)) {
    const what = cleanObject(now[1]!, { maxWords: 8 });
    if (what && !isPointer(what)) out.push(work(`Works at ${what}`, what));
  }
  const own = RUNNING_OWN.exec(clause);
  if (own) {
    const what = cleanObject(own[1]!, { maxWords: 6 });
    if (what) out.push(work(`Runs their own ${what}`, `own ${what}`));
  }
  return out;
}

export const chatSelfRules = [nameSaidRule, ageSaidRule, faithSaidRule, healthSaidRule, placeSaidRule, jobSaidRule, namedRule, bareKinRule, ...workInPassingRules];
