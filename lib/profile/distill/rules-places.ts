// Rules for where the user lives and comes from, said the way chat says it: places as topics ("Leeds is
// home now", "here in Leeds"), homes found or rented ("renting a room in drumcondra"), years somewhere,
// "born and bred in", "a manchester girl", and the town a job is in.
import { NOT_NAMES } from "./lexicon";
import { cleanObject, isPointer, titleCase } from "./normalise";
import { origin, residence } from "./rules-identity";
import type { Candidate } from "./candidate";

// A capitalised place takes a capitalised second word ("Cape Town", not "Kettering two"), a lower-case one a lower-case
// one ("logan square"); a direction goes with either ("north Austin").
const PLACE =
  "((?:\\p{Lu}[\\p{L}'-]+(?:\\s+\\p{Lu}[\\p{L}'-]+)?|(?:north|south|east|west|central|downtown|upstate|greater)\\s+\\p{L}[\\p{L}'-]+|\\p{Ll}[\\p{Ll}'-]+(?:\\s+\\p{Ll}[\\p{Ll}'-]+)?)(?:,\\s+\\p{Lu}[\\p{L}'-]+)?)";
const NOT_PLACE =
  /^(?:the|a|an|my|our|their|your|his|her|dr|mr|mrs|ms|icu|er|a&e|hr|ward|this|that|thats|that's|which|it|here|there|home|bed|town|work|school|uni|love|time|general|person|life|the office|mind|now|total|fact|kitchens|retail|sales|finance|hospitality|the industry|IT|tech|marketing|nursing|teaching|education|construction|healthcare|hospitals|schools)$/i;
const LIVES = [
  // "the winters here in Uppsala", "here in Sao Paulo".
  new RegExp(`\\bhere (?:in|near)\\s+${PLACE}`, "u"),
  // "the flat in rathmines is freezing", "now renting in Ruiru", "I'm up in Redcliffe now", "still in Abuja."
  new RegExp(`^(?:the|our|my)\\s+(?:new\\s+)?(?:flat|house|apartment|place|room)\\s+in\\s+${PLACE}`, "u"),
  new RegExp(`\\b(?:now\\s+)?renting\\s+in\\s+${PLACE}`, "u"),
  /^I(?:'m|\s+am)\s+(?:up|down|out|over|back)\s+in\s+(\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?)/u,
  /^(?:[Ss]till|[Nn]ow)\s+(?:living\s+|based\s+)?in\s+(\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?)(?=\s*(?:$|[,.]))/u,
  // "peckham is home now", "Leeds has been home for years".
  new RegExp(`^${PLACE}\\s+(?:is|has been|'s)\\s+(?:(?:my|our|basically|definitely|now|really)\\s+)*home\\b`, "u"),
  // "8 years in chicago", "three years in and…" (a number of years somewhere).
  new RegExp(`\\b(?:\\d+|two|three|four|five|six|seven|eight|nine|ten|twenty)\\s+years\\s+in\\s+${PLACE}`, "u"),
  // "best thing about living in melbourne", "born and raised in Osaka" (below).
  new RegExp(`\\b(?:about|love|loving|hate|enjoy|enjoying)\\s+living\\s+in\\s+${PLACE}`, "u"),
  // "I have been in Lisbon for a month now", "We've been in Poole 35 years".
  new RegExp(`^I(?:'ve|\\s+have)\\s+been\\s+in\\s+(\\p{Lu}[\\p{L}'-]+(?:\\s+\\p{Lu}[\\p{L}'-]+)?)\\s+(?:for|since|\\d+\\s+(?:years|months))\\b`, "u"),
  // "get home to winnipeg", "I go home to Nakuru".
  new RegExp(`\\b(?:get|go|going|went|head|heading|come|coming|back)\\s+home\\s+to\\s+${PLACE}`, "u"),
  // "my new place in oaxaca", "our own flat in Neukölln", "we live way out in north Austin".
  new RegExp(
    `\\b(?:my|our)\\s+(?:(?:new|own|little|first|back|front)\\s+)*(?:place|flat|apartment|house|home|condo|garden|lane|street|road|village|estate|HDB|block)\\s+in\\s+${PLACE}`,
    "u",
  ),
  // "yer aye welcome at ours in govan".
  new RegExp(`\\b(?:at|to|round)\\s+ours\\s+in\\s+${PLACE}`, "u"),
  // "seattle rent doesnt care about my feelings", "montreal rent is still better than…".
  new RegExp(`^${PLACE}\\s+rent\\b`, "u"),
  // "in Tampa 22 years", "Forty years in Wellington".
  new RegExp(`^(?:[Ff]orty|[Tt]hirty|[Tt]wenty|[Tt]en|\\d+)(?:-\\w+)?\\s+years\\s+in\\s+${PLACE}`, "u"),
  new RegExp(`^in\\s+(\\p{Lu}[\\p{L}'-]+(?:\\s+\\p{Lu}[\\p{L}'-]+)?)\\s+\\d+\\s+(?:years|yrs)\\b`, "u"),
  new RegExp(`^(?:I|we)\\s+live\\s+(?:(?!in\\s)[\\p{L}']+\\s+){1,4}?in\\s+${PLACE}`, "u"),
  // "found a share house in brunswick", "renting a room in drumcondra", "an offer accepted on a two bed flat in Whitstable".
  new RegExp(
    `\\b(?:found|bought|buying|renting|rented|got|moved into|moving into|accepted on|offer on|signed for|lease on|now in|I'm in|I am in)\\s+(?:a|an)\\s+(?:[\\p{L}\\d-]+\\s+){0,3}?(?:flat|house|apartment|studio|condo|terrace|bungalow|cottage|room|place|share house|HDB|unit|townhouse)\\s+(?:in|sa)\\s+${PLACE}`,
    "u",
  ),
  // "We came over to Burlington in '78", "I've lived in bristol forever".
  new RegExp(`^(?:I|we)\\s+came\\s+(?:over\\s+)?to\\s+${PLACE}\\s+in\\s+(?:'\\d\\d|\\d{4})\\b`, "u"),
  new RegExp(
    `(?:^|,\\s*)(?:I(?:'ve|\\s+have)?\\s+)?lived\\s+in\\s+${PLACE}\\s+(?:forever|all my life|my whole life|for (?:\\d+|ten|twenty|thirty|forty|fifty) years|\\d+ years)`,
    "u",
  ),
  // "I stay in Westville so…" (where "stay" is "live"), "Settled in Whitefield finally", "we bought an acreage
  // outside melville", "closed on a house in broken arrow", "im home in texarkana maybe 4 days a month".
  /^I\s+(?:still\s+|now\s+)?stay\s+in\s+(\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?)/u,
  new RegExp(`^(?:I\\s+)?(?:(?:finally|just|now)\\s+)?settled\\s+in\\s+${PLACE}`, "u"),
  new RegExp(
    `\\b(?:bought|buying|closed on|found|renting|rented)\\s+(?:a|an|the)\\s+(?:[\\p{L}\\d-]+\\s+){0,2}?(?:acreage|farm|property|semi|duplex|fixer upper|house|home|flat|unit|condo|place)\\s+(?:in|outside|near|just outside)\\s+${PLACE}`,
    "u",
  ),
  new RegExp(`^I(?:'m|\\s+am)\\s+(?:only\\s+)?home\\s+in\\s+${PLACE}`, "u"),
  // "we're just outside grande prairie": the household near a town.
  new RegExp(`^I(?:'m|\\s+am)\\s+(?:just\\s+|right\\s+)?(?:outside|near|north of|south of|east of|west of)\\s+${PLACE}`, "u"),
  // "one man shop out of chattanooga": where the user's own business works from.
  new RegExp(`\\b(?:shop|business|outfit|operation|company)\\s+(?:based\\s+|running\\s+)?out of\\s+${PLACE}`, "u"),
  // "im in tempe now", "we're in portobello so leith is…": a lower-case place, then "now" or "so".
  /^I(?:'m|\s+am)\s+(?:based\s+)?in\s+(\p{Ll}[\p{Ll}'-]+(?:\s+\p{Ll}[\p{Ll}'-]+)?)(?=\s+(?:now|so)\b)/u,
  // "We're in Centurion so…": a capitalised place, nothing after it but a pause.
  /^I(?:'m|\s+am)\s+(?:based\s+)?in\s+(\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?)(?=\s*(?:$|[,;]|\s(?:so|and|now|too|btw|lol)\b))/u,
];
const FROM = [
  new RegExp(`\\bborn and raised in\\s+${PLACE}`, "u"),
  // "I moved to Berlin two weeks ago from Lagos".
  new RegExp(`^I\\s+(?:just\\s+)?moved\\s+(?:to|here)\\b.*?\\bfrom\\s+(\\p{Lu}[\\p{L}'-]+(?:\\s+\\p{Lu}[\\p{L}'-]+)?)`, "u"),
  new RegExp(`\\b${PLACE},?\\s+where\\s+(?:I'm|I am|I was born|I grew up)(?:\\s+from)?\\b`, "u"),
  new RegExp(`\\b(?:growing up|grew up)\\s+in\\s+${PLACE}`, "u"),
  // "a manchester girl in perth", "Adelaide boy through and through", "I am a Duluth girl".
  new RegExp(
    `(?:^|\\ban?\\s+)(\\p{L}[\\p{L}'-]+(?:\\s+\\p{Lu}[\\p{L}'-]+)?)\\s+(?:girl|boy|lad|lass|gal|kid)\\b(?=\\s+(?:in\\s+\\p{L}|(?:through and through|born|at heart|originally|but)\\b))`,
    "u",
  ),
  // "originally from Cherry Hill", "am from Lagos", "Born and bred in Swansea".
  new RegExp(`^(?:[Oo]riginally|[Aa]m|I'm originally|I am originally)\\s+from\\s+${PLACE}`, "u"),
  // "home to ballina on the 20th for christmas", "when I was little in Durban", "grew up on the south side".
  new RegExp(`^(?:[Gg]oing\\s+|[Hh]eading\\s+|[Bb]ack\\s+)?[Hh]ome\\s+to\\s+${PLACE}`, "u"),
  new RegExp(`\\bwhen I was (?:little|a kid|small|young|a child)\\s+in\\s+${PLACE}`, "u"),
  new RegExp(`\\bgrew up on\\s+(?:the\\s+)?((?:north|south|east|west)\\s+side)\\b`, "u"),
  new RegExp(`\\b[Bb]orn and (?:bred|raised)\\s+in\\s+${PLACE}`, "u"),
  // "home in surrey for the break", "back home in guadalajara", "nothing beats home in iloilo": where the user comes from.
  new RegExp(`(?:^|\\bback\\s+|\\bbeats\\s+)home\\s+in\\s+${PLACE}`, "u"),
  // "it's Ron again from Dayton", "coming to Canada from Poland in 1957".
  new RegExp(`\\b(?:it's|its|this is)\\s+\\p{Lu}\\p{Ll}+\\s+(?:again\\s+)?from\\s+(\\p{Lu}[\\p{L}'-]+(?:\\s+\\p{Lu}[\\p{L}'-]+)?)`, "u"),
  // "she is 68, from Ibadan like me", "i am Jhon Fredy, from Pereira Colombia".
  new RegExp(`\\bfrom\\s+${PLACE}\\s+like\\s+me\\b`, "u"),
  new RegExp(`^I(?:'m|\\s+am)\\s+\\p{Lu}[\\p{L}'-]+(?:\\s+\\p{Lu}[\\p{L}'-]+)?,\\s+from\\s+(\\p{Lu}[\\p{L}'-]+)`, "u"),
  new RegExp(`\\b(?:came|coming|moved|emigrated)\\s+(?:over\\s+)?to\\s+\\p{Lu}[\\p{L}'-]+\\s+from\\s+(\\p{Lu}[\\p{L}'-]+(?:\\s+\\p{Lu}[\\p{L}'-]+)?)`, "u"),
];
const PLACE_STOP =
  /\s+(?:now|so|and|but|for|with|in|is|was|since|when|as|lol|tho|btw|too|again|where|at|the|though|anymore|every|after|before|this|last|next|on|finally|already|innit|through|maybe|probably|about|around|most|mostly|like|till|until|during|full|part)\b.*$/i;

function placeOf(raw: string): string | null {
  const pair = /^(\p{Lu}[\p{L}'-]+),\s+(\p{Lu}[\p{L}'-]+)$/u.exec(raw);
  if (pair) return `${pair[1]}, ${pair[2]}`;
  const cut = cleanObject(raw.replace(PLACE_STOP, ""), { maxWords: 3 });
  // "patreon's covering rent now": a possessive is no place.
  if (!cut || NOT_PLACE.test(cut) || NOT_PLACE.test(cut.split(" ")[0]!) || isPointer(cut) || /'s\b/.test(cut)) return null;
  return titleCase(cut);
}

const PLACE_WORDS =
  /\b(?:stay|settled|outside|near|out of|bought|closed on|found|here in|here near|renting|still|now|up|home|years in|where I|grew up|growing up|live|living|lived|born|moved|been in|ours|rent|girl|boy|lad|lass|gal|kid|from|years|yrs|in)\b/i;

export function placeSaidRule(clause: string): Candidate[] {
  if (!PLACE_WORDS.test(clause)) return [];
  for (const pattern of FROM) {
    const m = pattern.exec(clause);
    const where = m ? placeOf(m[1]!) : null;
    if (where) return [origin(where)];
  }
  for (const pattern of LIVES) {
    const m = pattern.exec(clause);
    const where = m ? placeOf(m[1]!) : null;
    if (where) return [residence("in ", where)];
  }
  return [];
}

// "a librarian at a public library in Cape Town": where a job is, the user lives.
const JOB_TOWN = /\s+in\s+((?:\p{Lu}[\p{L}'-]+)(?:\s+\p{Lu}[\p{L}'-]+)?)$/u;

/** "a librarian at a public library in Cape Town": the town a job is in, as where the user lives. */
export function townOfJob(workText: string): Candidate | null {
  const m = JOB_TOWN.exec(workText);
  if (!m || NOT_NAMES.has(m[1]!.toLowerCase())) return null;
  return residence("in ", m[1]!);
}
