// Rules for how people talk about their tastes, plans and doings in chat: topic-first ("Rugby is my
// religion", "olives are disgusting"), perfect and progressive ("I've always loved chess", "still
// loving it"), habits with a frequency ("I play bridge every Tuesday"), plans with their date anywhere
// in the sentence, things started or taken up, projects by their progress, and standing requests.
import { FUTURE_TIME, RELATIONS } from "./lexicon";
import { cleanObject, isPointer, keyOf, slugOf, thirdPerson } from "./normalise";
import { CHORE } from "./rules-doing";
import type { Candidate } from "./candidate";
import { LANGUAGE_NAMES } from "./rules-languages";

const ADVERB = "(?:(?:really|honestly|genuinely|literally|definitely|basically|officially|absolutely|still|always|totally|now|just|also|kinda|so)\\s+)*";

function taste(kind: "like" | "dislike", raw: string, note = ""): Candidate[] {
  if (/\banymore\b/i.test(raw) || /^(?:being|eating|drinking|as)\b/i.test(raw)) return [];
  const object = cleanObject(raw, { maxWords: 8 })
    .replace(/^(?:the|my|their|our)\s+/i, "")
    .replace(/\s+(?:so much|at all|ever|forever|always)$/i, "")
    .replace(/\s+(?:last|this)\s+(?:week|month|year|spring|summer|autumn|fall|winter)$/i, "");
  if (isPointer(object) || object.length < 2 || /\s(?:it|them|that|this)$/i.test(object)) return [];
  return [{ kind, text: `${kind === "like" ? "Likes" : "Dislikes"} ${object}${note}`, key: keyOf(kind, object), slot: keyOf("taste", object) }];
}

const NP = "((?:[\\p{L}\\p{N}'&-]+\\s+){0,4}?[\\p{L}\\p{N}'&-]+)";
const TOPIC_LIKE = new RegExp(
  `(?:^|\\b(?:but|and|so|while)\\s+|,\\s*)${NP}(?:'s|\\s+(?:is|are|'s|has become|have become))\\s+${ADVERB}(?:my|our)\\s+(?:(?:all-time|absolute|great|greatest|new|current|big|whole|entire|only)\\s+)*(?:favourite|passion|religion|obsession|happy place|thing|jam|love|personality|stress relief|comfort|vice|sanity|therapy|guy)\\b|^${NP}\\s+(?:is|are)\\s+${ADVERB}(?:life|sacred|everything)(?:\\s+(?:in this house|to me|tbh|lol|honestly))?$`,
  "iu",
);
// "hot yoga on my days off is the only thing keeping me sane": the topic may carry when it happens.
const TOPIC_ONLY = new RegExp(
  `^((?:[\\p{L}\\p{N}'&-]+\\s+){0,6}?[\\p{L}\\p{N}'&-]+)(?:'s|\\s+is|\\s+are)\\s+(?:literally\\s+|honestly\\s+)?the\\s+only\\s+thing\\s+(?:that\\s+)?(?:keeps|keeping|keepin|resets|gets|getting|gettin|makes|holding)\\b`,
  "iu",
);
const TOPIC_NOT_FOR_ME = new RegExp(`^${NP}\\s+(?:is|are)\\s+(?:just\\s+|really\\s+|definitely\\s+)?not\\s+for\\s+me\\b`, "iu");
const TOPIC_BEST = new RegExp(
  `^${NP}\\s+(?:is|are)\\s+${ADVERB}the\\s+best\\s+(?:[\\p{L}-]+(?:\\s+[\\p{L}-]+)?\\s+(?:ever|in the world|of all time)|part of (?:my|the) (?:day|week|weekend|month|year))\\b`,
  "iu",
);
const TOPIC_DISLIKE = new RegExp(
  `^${NP}\\s+(?:is|are)\\s+${ADVERB}(?:the worst(?:\\s+(?:part|bit|thing))?|disgusting|gross|vile|the bane of my life|my least favourite|my nemesis)\\b`,
  "iu",
);
// "Sauti Sol on repeat for race day", "Bossa nova playlist all day".
const ON_REPEAT = new RegExp(`^${NP}\\s+(?:on repeat|playlist|on loop)\\b`, "iu");
const THING_I = /^(?:one|the only|the|my least favourite)\s+thing\s+I\s+(love|hate|like|enjoy|can't stand|loathe)(?:\s+most)?\s+(?:is|are)\s+(.+)/i;
const PERFECT = /^I(?:'ve|\s+have)\s+(?:always|long|forever|honestly)\s+(loved|liked|enjoyed|hated|disliked)\s+(.+)/i;
const STILL_LOVING = /^I(?:'m|\s+am)\s+(?:still\s+)?(loving|enjoying|hating)\s+(.+)/i;
const HOW_MUCH = /\bhow much I\s+(love|hate|miss|enjoy)\s+(.+)/i;
const A_PERSON = /^I(?:'m|\s+am)\s+(?:officially\s+|apparently\s+|basically\s+|definitely\s+)*(?:a|an)\s+([\p{L}-]+)\s+(?:person|fan|girl|guy)\b/iu;
const LIKE_VERBS = /^(?:loved|liked|enjoyed|loving|enjoying|love|miss)$/i;
// A habit with its frequency: "I play bridge every Tuesday", "I go surfing in Ericeira almost every weekend".
const HABIT =
  /^I(?:'m|\s+am)?\s+(?:(?:usually|always|often|still|also|mostly|normally|now)\s+)*(go(?:ing)?|play(?:ing)?|do(?:ing)?|listen(?:ing)? to|watch(?:ing)?|cook(?:ing)?|read(?:ing)?|swim(?:ming)?|run(?:ning)?|rid(?:e|ing)|surf(?:ing)?|climb(?:ing)?|knit(?:ting)?|bak(?:e|ing)|paint(?:ing)?|grow(?:ing)?|collect(?:ing)?)\s+(.+?)\s+((?:almost |nearly |pretty much )?(?:(?:every|each)\s+\w+.*|on (?:weekends|the weekend|\w+days)\b.*|(?:once|twice|three times|two times|\d+x|\d+ times) a (?:week|month)\b.*|most (?:days|weekends|mornings|evenings|nights|\w+days)\b.*|all day.*))$/i;
// "been climbing 8 years", "I've been teaching for ten years": a long-running activity; a trade when it is one.
// "been playing fiddle since I was a boy": since childhood.
const BEEN_YEARS =
  /^I(?:'ve|\s+have)\s+been\s+([a-z]+ing)\b(.*?)\s+(?:(?:for\s+)?(?:like\s+|about\s+|over\s+|almost\s+)?(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twenty|many)\s+(?:years|yrs)|since\s+(?:I\s+was\s+(?:a\s+)?(?:boy|girl|kid|child|teenager|teen|little|small|young|\d+)|school|uni|college|childhood|forever))\b/i;
// "i curl tuesdays", "I bowl on thursdays": a sport on its day, without an object.
const SPORT_DAY =
  /^I\s+(?:still\s+|also\s+|usually\s+)?(curl|bowl|golf|dance|sing|hike|skate|row|cycle|swim|run|climb|surf|box|fence|sail|skydive|ski)\s+(?:on\s+)?((?:mon|tues|wednes|thurs|fri|satur|sun)days|weekends)\b/i;
// "come on you bristol bears", "come on you spurs": a team cheered.
const CHANT = /^come on\s+(?:you\s+)?(\p{L}[\p{L}'&-]*(?:\s+\p{L}[\p{L}'&-]*){0,2})$/iu;
const TRADE = /^(?:teaching|nursing|driving|coaching|working|farming|guiding|lecturing|tutoring|cooking|baking|bartending|practi[cs]ing)$/i;
const GOTTEN_INTO = /^I(?:'ve|\s+have)\s+(?:gotten|got|become)\s+(?:\w+ly\s+)?(?:really\s+)?(?:into|obsessed with|hooked on|addicted to)\s+(.+)/i;
const NOT_MISS = /^I\s+(?:do not|don't|dont)\s+miss\s+(.+)/i;
// "I always take the aisle": a standing choice.
const ALWAYS_CHOOSE = /^I\s+always\s+(take|get|book|order|choose|pick|sit in|sit on|ask for)\s+(.+)/i;
const NEVER_MISS = /^I\s+never\s+miss\s+(?:a|an|the)?\s*(.+)/i;
const THIRD: Record<string, string> = { go: "Goes", do: "Does", "listen to": "Listens to", watch: "Watches", play: "Plays" };
// Taken up: "I started a pottery class", "I've taken up knitting again", "I joined the parish choir".
const TAKEN_UP =
  /^I(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+|also\s+)?(?:started|start|taken up|took up|picked up|joined|started going to|signed up for|been playing|been doing)\s+(.+)/i;

const STARTS_I = /^I\b/;
const MEMBER =
  /^I(?:'m|\s+am|'ve been|\s+have been)\s+(?:(?:also|still|now)\s+)?in\s+(?:the|a|our)\s+((?:[\p{L}-]+\s+){0,2}?(?:choir|band|orchestra|book club|running club|quiz team|football team|netball team|league|brass band|ensemble))\b/iu;
// Cheap tests that let most clauses skip the topic-first patterns.
const LIKE_PREDICATE =
  /\b(?:my|our)\s+(?:[\p{L}-]+\s+)?(?:favourite|passion|religion|obsession|happy place|thing|jam|love|personality|stress relief|comfort|vice|sanity|therapy|guy)\b|\b(?:is|are)\s+(?:[\p{L}-]+\s+)?(?:life|sacred|everything)\b/iu;
const DISLIKE_PREDICATE = /\b(?:worst|disgusting|gross|vile|bane|least favourite|nemesis)\b/i;
const TOPIC_WORDS =
  /\b(?:life|sacred|everything|favourite|passion|religion|obsession|happy place|thing|jam|love|personality|stress relief|comfort|vice|sanity|therapy|guy|best|worst|disgusting|gross|vile|bane|least favourite|nemesis)\b/i;

// Every "I …" taste pattern below needs one of these words.
const I_TASTE_WORDS =
  /\b(?:since|curl|bowl|golf|dance|sing|hike|skate|row|cycle|swim|run|climb|surf|box|fence|sail|ski|skydive|gotten|got|become|miss|take|get|book|order|choose|pick|sit|ask|always|long|forever|honestly|loving|enjoying|hating|how much|person|fan|girl|guy|been|never|go|play|do|listen|watch|cook|read|swim|run|ride|surf|climb|knit|bake|paint|grow|collect|start|started|taken|took|picked|joined|signed|got into|entered|every|most|twice|once|times|\d+x)\b/i;

// "spurs fan til i die", "big CSK fan", "Arsenal till I die", "I've been a broncos man since I was a kid".
const FAN =
  /(?:^|,\s*|\b(?:big|huge|massive|lifelong|die-hard|diehard|proper)\s+)(\p{L}[\p{L}'&-]*(?:\s+\p{L}[\p{L}'&-]*)?)\s+(?:fan|supporter)(?:\s+(?:til|till|until|since|for life|through and through)\b|\s*$)/iu;
const TILL_I_DIE = /^(\p{L}[\p{L}'&-]*(?:\s+\p{L}[\p{L}'&-]*)?)\s+(?:til|till|until)\s+I\s+die\b/iu;
const FAN_SINCE = /^I(?:'ve|\s+have)\s+been\s+an?\s+(\p{L}[\p{L}'&-]*(?:\s+\p{L}[\p{L}'&-]*)?)\s+(?:fan|man|girl|supporter)\s+(?:since|for|all my life|my whole life)\b/iu;
const NOT_A_TEAM = /^(?:a|an|the|not|no|big|huge|massive|such|real|true|i|i'm|me|my|your|his|her|their|our|this|that|biggest|number one)$/i;

function fandom(clause: string): Candidate[] {
  if (!/\b(?:fan|supporter|die|man|girl)\b/i.test(clause) || /\bnot\s+(?:a\s+)?(?:big\s+|huge\s+)?\S+\s+fan\b|\bfan of\b/i.test(clause)) return [];
  const m = FAN_SINCE.exec(clause) ?? TILL_I_DIE.exec(clause) ?? FAN.exec(clause);
  const team = m?.[1]?.replace(/^(?:a|an|the|big|huge|massive|lifelong)\s+/i, "");
  if (!team || team.split(/\s+/).some((w) => NOT_A_TEAM.test(w))) return [];
  return taste("like", team);
}

function tasteSaid(clause: string): Candidate[] {
  const fan = fandom(clause);
  if (fan.length) return fan;
  const chant = /^come on\b/i.test(clause) ? CHANT.exec(clause) : null;
  if (chant && !/^(?:then|now|man|mate|guys|lads|girls|babe|love|seriously|already|over|in|down|up)\b/i.test(chant[1]!)) return taste("like", chant[1]!);
  if (!STARTS_I.test(clause)) {
    const thingFirst = /\bthing\s+I\b/i.test(clause) ? THING_I.exec(clause) : null;
    if (thingFirst) return taste(/hate|stand|loathe/i.test(thingFirst[1]!) ? "dislike" : "like", thingFirst[2]!);
    const repeat = /\b(?:on repeat|playlist|on loop)\b/i.test(clause) ? ON_REPEAT.exec(clause) : null;
    if (repeat) return taste("like", repeat[1]!);
    const only = /\bonly thing\b/i.test(clause) ? TOPIC_ONLY.exec(clause) : null;
    if (only) return taste("like", only[1]!);
    const notForMe = /\bnot for me\b/i.test(clause) ? TOPIC_NOT_FOR_ME.exec(clause) : null;
    if (notForMe) return taste("dislike", notForMe[1]!);
    if (!TOPIC_WORDS.test(clause)) return [];
    const topic = (LIKE_PREDICATE.test(clause) ? TOPIC_LIKE.exec(clause) : null) ?? (/\bthe best\b/i.test(clause) ? TOPIC_BEST.exec(clause) : null);
    const topicNp = topic ? (topic[1] ?? topic[2]) : undefined;
    if (topicNp && !/^(?:it|this|that|he|she|they|you|which|what|there)$/i.test(topicNp)) return taste("like", topicNp);
    const bad = DISLIKE_PREDICATE.test(clause) ? TOPIC_DISLIKE.exec(clause) : null;
    if (bad && !/^(?:it|this|that|he|she|they|you|which|what|there)$/i.test(bad[1]!)) return taste("dislike", bad[1]!);
    return [];
  }
  // "im more about food, ramen is my entire personality": a topic-first clause after the "I" one.
  const comma = clause.indexOf(", ");
  if (comma > 0 && TOPIC_WORDS.test(clause.slice(comma))) {
    const tail = clause.slice(comma + 2);
    const found = STARTS_I.test(tail) ? [] : tasteSaid(tail);
    if (found.length) return found;
  }
  // "I'm in the choir there as well", "I've been in the choir 15 years": a group the user belongs to.
  const member = MEMBER.exec(clause);
  if (member) return [{ kind: "like", text: `Is a member of the ${member[1]!.toLowerCase()}`, key: keyOf("like", member[1]!), slot: keyOf("taste", member[1]!) }];
  if (!I_TASTE_WORDS.test(clause)) return [];
  const perfect = PERFECT.exec(clause) ?? STILL_LOVING.exec(clause) ?? HOW_MUCH.exec(clause);
  if (perfect) return taste(LIKE_VERBS.test(perfect[1]!) || /^enjoy/i.test(perfect[1]!) ? "like" : "dislike", perfect[2]!);
  const years = BEEN_YEARS.exec(clause);
  if (years) {
    const rest = cleanObject(years[2]!, { maxWords: 5 });
    const what = `${years[1]}${rest ? ` ${rest}` : ""}`.toLowerCase();
    if (TRADE.test(years[1]!)) return [{ kind: "work", text: `Has been ${what} for years`, key: keyOf("work", what) }];
    return taste("like", what);
  }
  const into = GOTTEN_INTO.exec(clause);
  if (into) return taste("like", into[1]!);
  const notMiss = NOT_MISS.exec(clause);
  if (notMiss) return taste("dislike", notMiss[1]!.replace(/\s+at all\b.*$/i, ""));
  const choose = ALWAYS_CHOOSE.exec(clause);
  if (choose) {
    const what = cleanObject(choose[2]!, { maxWords: 6 });
    return what && !isPointer(what) ? [{ kind: "preference", text: `Always ${choose[1]!.toLowerCase().replace(/^(\w+)/, "$1s")} ${what}`, key: keyOf("preference", what) }] : [];
  }
  const never = NEVER_MISS.exec(clause);
  if (never) return taste("like", never[1]!);
  const person = A_PERSON.exec(clause);
  // "I'm a Duluth girl" says where the user is from (rules-chat-self), not a taste.
  if (person && !/^(?:people|morning|night|dog|cat)$/i.test(person[1]!) && !/^\p{Lu}/u.test(person[1]!)) return taste("like", person[1]!);
  const sport = SPORT_DAY.exec(clause);
  if (sport) {
    const verb = sport[1]!.toLowerCase();
    return [{ kind: "like", text: `Likes to ${verb} on ${sport[2]!.toLowerCase()}`, key: keyOf("like", verb), slot: keyOf("taste", verb) }];
  }
  const habit = HABIT.exec(clause);
  // "every 5 minutes" is how often something happens to the user, not a pastime.
  if (habit && !/^(?:almost |nearly |pretty much )?every\s+(?:\d+|few|couple of)\s*(?:secs?|seconds?|mins?|minutes?|hours?|hrs?)\b/i.test(habit[3]!)) {
    // "baking" → "bake", "swimming" → "swim", "listening to" → "listen to": the plain verb.
    const verb = habit[1]!
      .toLowerCase()
      .replace(/(\w)\1ing\b/, "$1")
      .replace(/^(rid|bak)ing\b/, "$1e")
      .replace(/ing\b/, "");
    const what = cleanObject(habit[2]!, { maxWords: 6 });
    if (!what || isPointer(what) || /^(?:like|about|around|maybe|to|at|in|on|for|with)$/i.test(what) || /^to\s/i.test(what)) return [];
    const verbed = THIRD[verb] ?? `${verb.charAt(0).toUpperCase()}${verb.slice(1)}s`;
    return [{ kind: "like", text: `${verbed} ${what} ${thirdPerson(habit[3]!)}`, key: keyOf("like", what), slot: keyOf("taste", what) }];
  }
  const up = TAKEN_UP.exec(clause);
  if (up) {
    const what = cleanObject(up[1]!, { maxWords: 7 }).replace(/^(?:a|an|the|some)\s+/i, "");
    if (!what || isPointer(what) || CHORE.test(what)) return [];
    if (/^as\s/i.test(what)) return [{ kind: "work", text: `Works ${what}`, key: keyOf("work", what) }];
    if (/^(?:teaching|coaching|working)\s/i.test(what)) return [{ kind: "work", text: `Started ${what}`, key: keyOf("work", what) }];
    if (/^(?:writing|building|making|restoring|renovating)\s/i.test(what)) {
      return [{ kind: "project", text: `Started ${what}`, key: keyOf("project", what), box: `projects/${slugOf(what)}` }];
    }
    if (LANGUAGE.test(what)) return [{ kind: "other", text: `Is learning ${what}`, key: keyOf("other", `learn ${what}`) }];
    if (/^(?:learning|studying)\s+/i.test(what)) return [{ kind: "other", text: `Is ${what}`, key: keyOf("other", what) }];
    // "a salsa class" is a pastime; "an online accounting class" is study.
    if (/\b(?:course|support group|lessons|degree|masters|committee)\b/i.test(what) || (/\bclass(?:es)?\b/i.test(what) && ACADEMIC.test(what))) {
      return [{ kind: "other", text: `Takes ${what}`, key: keyOf("other", what) }];
    }
    if (/\b(?:thesis|dissertation)\b/i.test(what)) return [{ kind: "project", text: `Started ${what}`, key: keyOf("project", what), box: `projects/${slugOf(what)}` }];
    if (/^(?:my own|an?\s)/i.test(what) || /\b(?:page|channel|business|company|podcast|blog|newsletter)\b/i.test(what)) {
      return [{ kind: "project", text: `Started ${what}`, key: keyOf("project", what), box: `projects/${slugOf(what)}` }];
    }
    if (/^(?:signed up for|entered)\b/i.test(up[0].replace(/^I(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+|also\s+)?/i, ""))) return [];
    return taste("like", what);
  }
  return [];
}

const ACADEMIC =
  /\b(?:online|night|evening|college|uni|university|accounting|bookkeeping|maths?|statistics|economics|business|law|computing|computer|coding|programming|python|nursing|chemistry|physics|biology|history|english|esl|citizenship)\b/i;

// Languages are a closed class: "I've started Danish" is learning it.
const LANGUAGE = new RegExp(`^(?:${LANGUAGE_NAMES})\\b`, "i");

// What the user is learning or studying, said other ways: "I learn dutch in evening school", "I'm doing a masters in education".
const LEARN = /^I\s+(?:(?:also|still|now)\s+)?(learn|study)\s+(.+)/i;
const DOING_COURSE =
  /^I(?:'m|\s+am|'ve been|\s+have been)\s+(?:(?:also|still|now|currently|finally)\s+)?(?:doing|taking|registered for|enrolled in|signed up for)\s+(?:an?\s+|me\s+|my\s+)?(.*?\b(?:course|class|classes|lessons|driving school|night school|masters|master's|degree|phd|diploma|certificate|accreditation|MBA|apprenticeship)\b.*)/i;

const LANGUAGE_LESSONS = /\b(?:my|our)\s+([\p{L}-]+)\s+(?:lessons|classes|course|tutor)\b/iu;
const QUIT_HABIT = /^I(?:'ve|\s+have)?\s+(?:finally\s+|just\s+)?(?:quit|stopped|gave up|given up)\s+(smoking|drinking|vaping|alcohol|caffeine|sugar)\b/i;

function learningSaid(clause: string): Candidate[] {
  const lessons = /\b(?:lessons|classes|course|tutor)\b/i.test(clause) ? LANGUAGE_LESSONS.exec(clause) : null;
  if (lessons && LANGUAGE.test(lessons[1]!)) return [{ kind: "other", text: `Is learning ${lessons[1]}`, key: keyOf("other", `learn ${lessons[1]}`) }];
  if (!STARTS_I.test(clause)) return [];
  const quit = QUIT_HABIT.exec(clause);
  if (quit) return [{ kind: "other", text: `Has quit ${quit[1]!.toLowerCase()}`, key: keyOf("other", `quit ${quit[1]}`) }];
  const learn = LEARN.exec(clause);
  if (learn) {
    const what = cleanObject(learn[2]!, { maxWords: 6 });
    if (!what || isPointer(what)) return [];
    // "I study heart regeneration in zebrafish": studying as one's work, not a class.
    if (learn[1]!.toLowerCase() === "study" && !LANGUAGE.test(what)) return [{ kind: "work", text: `Studies ${what}`, key: keyOf("work", `study ${what}`) }];
    return [{ kind: "other", text: `Is learning ${what}`, key: keyOf("other", `learn ${what}`) }];
  }
  // "doing drum lessons full time" is work (rules-chat-self), not a class.
  const course = /\b(?:full|part)[- ]time\b/i.test(clause) ? null : DOING_COURSE.exec(clause);
  if (course) {
    const what = cleanObject(course[1]!, { maxWords: 8 });
    return what ? [{ kind: "other", text: `Is doing ${what}`, key: keyOf("other", what) }] : [];
  }
  return [];
}

const plan = (text: string, basis: string): Candidate => ({ kind: "plan", text, key: keyOf("plan", basis) });
const THINKING = /^I(?:'m|\s+am)\s+(?:(?:seriously|also|still|now)\s+)?(?:thinking (?:about|of)|considering)\s+(.+)/i;
const OFF_TO =
  /(?:^|\s)(?:I'm|I\s+am|we're|we\s+are)\s+(?:(?:also|finally|still)\s+)?(?:off to|heading to|flying to|going to|travelling to|traveling to|going on|(?:going|heading|flying)\s+(?:back\s+)?home\s+to)\s+(.+)/i;
// With a time in the sentence, the present is the future: "in december we all go Lagos and Ibadan for christmas",
// "Lerato and I fly to Joburg … in September", "i plan visit my brother in gaziantep in december".
// "we go sea swimming every morning in january" is a habit, not a plan.
const GO_PRESENT =
  /^(?!.*\b(?:every|each|most|usually|always|often|sometimes)\b)(?:(?:then|so|and|also)\s+)?(?:(?:in|on|by|this|next|end of)\s+[\p{L}\d]+\s+)?(?:I|we)\s+(?:(?:all|both|still|also|then|will)\s+)*(?:plan\s+)?(?:go|fly|drive|travel|visit|head)\s+(?:all\s+)?(?:(?:back\s+)?home\s+)?(?:to\s+)?(.+)/iu;
const BOOKED =
  /^I(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|already\s+)?(?:booked|book|scheduled|signed up for|entered)\s+(?!(?:a|an|the)\s+(?:[\p{L}-]+\s+){0,3}(?:course|class|classes)\b)(.+)/iu;
// "I've gone and done it, booked Lake Garda for September": booked after a comma, read when nothing else is.
const BOOKED_AFTER = /,\s*(?:just\s+|finally\s+|already\s+)?(?:booked|signed up for|entered)\s+(?!(?:a|an|the)\s+(?:[\p{L}-]+\s+){0,3}(?:course|class|classes)\b)(.+)/iu;
const TOPIC_DATE = new RegExp(
  `(?:^|,\\s*)(?:my|our|the)?\\s*${NP}\\s+(?:is|are|'s)\\s+(?:(?:still|now|all|officially|finally)\\s+)*(?:planned|booked|set|scheduled|on|confirmed)?\\s*(?=${FUTURE_TIME.source})`,
  "iu",
);
const PLAN_IS = /^(?:the\s+)?plan\s+is\s+(?:to\s+)?(.+)/i;
// "i have ISTQB advanced test manager exam in august", "I've got my driving test next month".
const HAVE_EVENT =
  /^I\s+(?:have|'ve got|have got|got)\s+(?:my\s+|an?\s+|the\s+|our\s+)?((?:[\p{L}\d-]+\s+){0,5}?(?:exam|exams|test|interview|appointment|surgery|operation|wedding|graduation|party|trip|flight|race|marathon|concert|gig|match|finals|audition|assessment))\b/iu;
const WANT = /^I\s+(?:really\s+)?(?:want|wanna|would love|hope)\s+to\s+(.+)/i;

/** Plans said with their time anywhere in the sentence (`when`). */
export function planSaid(clause: string, when?: string): Candidate[] {
  const time = when;
  if (!time) {
    if (!/\bplan\s+is\b/i.test(clause)) return [];
    const planIs = PLAN_IS.exec(clause);
    const what = planIs ? cleanObject(planIs[1]!) : "";
    return what && !isPointer(what) ? [plan(`Plans to ${what}`, what)] : [];
  }
  const withTime = (what: string) => (FUTURE_TIME.test(what) ? what : `${what} ${time.toLowerCase()}`);
  const untimed = (raw: string) => cleanObject(raw.replace(FUTURE_TIME, " ").replace(/\s+/g, " "));
  for (const [pattern, verb] of [
    [THINKING, "Is thinking about"],
    [OFF_TO, "Is going to"],
    [GO_PRESENT, "Is going to"],
    [BOOKED, "Has booked"],
    [HAVE_EVENT, "Has"],
    [PLAN_IS, "Plans to"],
    [WANT, "Wants to"],
  ] as const) {
    const m = pattern.exec(clause);
    const what = m ? untimed(m[1]!) : "";
    if (what && !isPointer(what) && !CHORE.test(what)) return [plan(`${verb} ${withTime(what)}`, what)];
  }
  // "Next target: Tokyo Marathon in March", "camino next year": a bare noun phrase with a date.
  // "japan trip in october, 18th to 30th", "lisbon in october 100% on": the phrase before a comma, without "on".
  // "pole, one more - Kiprop is travelling … next weekend": the date must be in the phrase's own part.
  const head = clause.split(",")[0]!;
  const bare = (FUTURE_TIME.test(head) ? head : "")
    .replace(FUTURE_TIME, " ")
    .replace(/\s+(?:\d+%\s+)?(?:on|confirmed|booked|happening|sorted)\s*$/i, "")
    .replace(/\s+/g, " ")
    .trim();
  if (
    bare &&
    bare.split(" ").length <= 4 &&
    !/\b(?:I|I'm|we|is|are|was|were|it|it's|this|that|you|he|she|they|maybe|lol|back|my|our|your|at|first|work|school|home|no|not|never|if|unless|love|to|one|more|said|says|once|came|went|got|yesterday|today|last|\w+ed|\w+ing|\w+ly|\w+'s|\w+s)\b/i.test(
      bare,
    ) &&
    !CHORE.test(bare)
  ) {
    return [plan(`Plans ${bare} ${time.toLowerCase()}`, bare)];
  }
  const topic = TOPIC_DATE.exec(clause);
  if (topic) {
    const what = cleanObject(topic[1]!);
    // "Zara's O levels are next May", "Kofi's BECE is next year": someone else's date.
    if (what && !isPointer(what) && !/^\p{Lu}[\p{L}-]*'s\s/u.test(what) && !/^(?:it|this|that|he|she|they|you|I|we|everything|school|work)$/i.test(what))
      return [plan(`Has ${what} planned ${withTime("").trim()}`, what)];
  }
  const after = BOOKED_AFTER.exec(clause);
  const booked = after ? untimed(after[1]!) : "";
  if (booked && !isPointer(booked) && !CHORE.test(booked)) return [plan(`Has booked ${withTime(booked)}`, booked)];
  return [];
}

// A project by its progress: "the portfolio is slowly happening", "the kitchen is still half done", "cookbook's got 40 recipes".
const PROGRESS = new RegExp(
  `^(?:the|my|our)?\\s*${NP}(?:'s|\\s+is|\\s+has)\\s+(?:(?:slowly|finally|still|now|nearly|almost|already|going|coming)\\s+)*(?:almost done|nearly done|half done|going (?:well|great|ok|okay)|happening|coming along|at chapter|up to|got \\d+|underway|taking shape)`,
  "iu",
);
const PROJECT_VERB = /^I(?:'m|\s+am)\s+(?:(?:also|still|now|currently|slowly)\s+)*(making|doing up|setting up|restoring|renovating|redoing|fixing up|writing down)\s+(.+)/i;

const PROGRESS_WORDS = /\b(?:done|going|happening|coming|chapter|up|got|in|underway|shape)\b/i;

function projectSaid(clause: string): Candidate[] {
  const verb = STARTS_I.test(clause) ? PROJECT_VERB.exec(clause) : null;
  if (verb) {
    const what = cleanObject(verb[2]!);
    if (!what || isPointer(what) || CHORE.test(what) || /^(?:from|to|back|about|up|down|on)\b/i.test(what)) return [];
    return [{ kind: "project", text: `Is ${verb[1]!.toLowerCase()} ${what}`, key: keyOf("project", what), box: `projects/${slugOf(what)}` }];
  }
  const progress = !STARTS_I.test(clause) && PROGRESS_WORDS.test(clause) ? PROGRESS.exec(clause) : null;
  if (progress) {
    const what = cleanObject(progress[1]!).replace(/^(?:the|my|our)\s+/i, "");
    if (
      !what ||
      isPointer(what) ||
      /^(?:it|this|that|he|she|they|you|I|we|life|everything|work|weather|sleep|lunch|dinner)$/i.test(what) ||
      RELATIONS[what.split(" ")[0]!.toLowerCase()]
    )
      return [];
    return [{ kind: "project", text: `Is working on ${thirdPerson(what)}`, key: keyOf("project", what), box: `projects/${slugOf(what)}` }];
  }
  return [];
}

export const chatLifeRules = [tasteSaid, learningSaid, projectSaid];
