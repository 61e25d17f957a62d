// The built-in rules for connected apps (docs/distillation.md, "What the service reads from each
// app"): the person's name and signature from mail they sent, their recurring calendar series, and
// what their documents and pages are about. Deterministic, no network; never a contact detail.
import { now as clockNow } from "../../platform/clock";
import type { AppSnapshot, SnapshotItem } from "./snapshot";
import { jobPhrase } from "./rules-work";
import { article, factText, keyOf, slugOf, stem } from "./normalise";
import { MAX_APP_FACTS, type AppDistillInput, type AppDistillResult, type AppFact } from "./types";

type Item<K extends SnapshotItem["kind"]> = { item: Extract<SnapshotItem, { kind: K }>; index: number };

/** Documents untouched for longer than this say nothing about what the person works on now. */
export const DOCUMENT_RECENT_DAYS = 180;
/** At most this many single documents (not part of a topic) become facts. */
const MAX_SINGLE_DOCUMENTS = 5;

// ─── What is never kept ──────────────────────────────────────────────────────────────────────────

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const LINK = /\bhttps?:\/\/|\bwww\.|\b[\w-]+\.(?:com|org|net|io|co|dev|app|me|info)\b/i;
const DIGIT_RUN = /[+(]?\d[\d\s()./-]*\d/g;

/** Whether a text is free of contact details: no e-mail address, no link, no phone number (9 digits or more in a run). */
export function keepable(text: string): boolean {
  if (EMAIL.test(text) || LINK.test(text)) return false;
  return !(text.match(DIGIT_RUN) ?? []).some((run) => run.replace(/\D/g, "").length >= 9);
}

// ─── Sent mail: name, signature ──────────────────────────────────────────────────────────────────

const NAME_WORD = /^\p{Lu}[\p{L}'’.-]*$/u;
const NAME_PARTICLE = /^(?:van|von|der|den|de|da|das|do|dos|di|del|della|du|la|le|bin|bint|al|el|ten|ter)$/;
const NOT_A_PERSON = /\b(?:team|support|noreply|no-reply|info|admin|office|inc|ltd|llc|gmbh|company|notifications?|newsletter|sales|hello|contact|billing|accounts|via|the)\b/i;

/** A display name or signed name that reads as a person's: one to four capitalised words (particles aside). */
function personName(raw: string | null | undefined): string | null {
  const name = (raw ?? "")
    .replace(/\s+/g, " ")
    .replace(/^["'“]|["'”]$/g, "")
    .trim();
  const words = name.split(" ").filter(Boolean);
  if (!words.length || words.length > 4 || name.length > 60) return null;
  if (!NAME_WORD.test(words[0]!) || !words.every((w, i) => NAME_WORD.test(w) || (i > 0 && NAME_PARTICLE.test(w)))) return null;
  return NOT_A_PERSON.test(name) || !keepable(name) ? null : name;
}

/** The value most items give (the first one seen among equals), with the items that give it. */
function mostCommon<T>(items: Array<{ item: T; index: number }>, valueOf: (item: T) => string | null): { value: string; indexes: number[] } | null {
  const seen = new Map<string, number[]>();
  for (const { item, index } of items) {
    const value = valueOf(item);
    if (value) seen.set(value, [...(seen.get(value) ?? []), index]);
  }
  let best: { value: string; indexes: number[] } | null = null;
  for (const [value, indexes] of seen) if (!best || indexes.length > best.indexes.length) best = { value, indexes };
  return best;
}

function newest(dates: Array<string | undefined>): Date | null {
  const times = dates.map((d) => (d ? Date.parse(d) : NaN)).filter((t) => !Number.isNaN(t));
  return times.length ? new Date(Math.max(...times)) : null;
}

const VALEDICTION =
  /^(?:best|best wishes|best regards|kind regards|warm regards|warmest regards|regards|many thanks|thanks|thank you|thanks again|cheers|sincerely|yours|yours sincerely|yours truly|all the best|warmly|take care|love|xo|xx|br|rgds|talk soon|speak soon|with thanks)[\s,!.]*$/i;
const PART_SEPARATOR = /\s+[|·•–—]\s+|\s*[|·•]\s*/;
const PRONOUNS = /^\(?\s*(she|he|they|ze|xe)\s*\/\s*(her|him|them|hers|his|theirs|zir|hir|xem)(?:\s*\/\s*[a-z]+)?\s*\)?$/i;

/** "Senior Product Designer, Travel Co" → "Works as a senior product designer at Travel Co". */
function jobFrom(part: string): { text: string; key: string } | null {
  const phrase = part.replace(/\s*,\s*/, " at ");
  const job = jobPhrase(phrase);
  if (!job) return null;
  // "Director of Engineering at Acme": the field belongs to the title, the place follows it.
  const after = phrase.slice(phrase.toLowerCase().indexOf(job.title.toLowerCase()) + job.title.length);
  const field = /^\s+(of\s+[\p{L}&-]+(?:\s+[\p{L}&-]+){0,3}?)(?:\s+((?:at|for|with)\s+.+))?$/iu.exec(after);
  const title = [job.title, field?.[1] ?? ""]
    .join(" ")
    .trim()
    .split(/\s+/)
    // "Senior Designer" reads "senior designer"; CEO, UX and PhD keep their capitals.
    .map((w) => (/^\p{Lu}?[^\p{Lu}]*$/u.test(w) ? w.toLowerCase() : w))
    .join(" ");
  const place = field ? (field[2] ?? "").trim() : job.place;
  const student = /\b(?:student|undergrad|undergraduate|postdoc|intern|apprentice)$/i.test(title);
  return { text: `${student ? "Is" : "Works as"} ${article(title)} ${title}${place ? ` ${place}` : ""}`, key: keyOf("work", `${title} ${place}`) };
}

/**
 * The signed name: the signature's first part when it reads as a person's name and not as a job title
 * ("Product Designer"), or when it is the sender's own name or first name ("Sam Baker", "Sam").
 */
function signedName(part: string, sender: string | null): string | null {
  const name = personName(part);
  if (!name) return null;
  const own = sender && [sender.toLowerCase(), sender.split(" ")[0]!.toLowerCase()].includes(name.toLowerCase());
  return own || !jobFrom(name) ? name : null;
}

/** Who signs (the first line, when it is a name), their job title and pronouns: never a phone number, address or link. */
function signatureFacts(block: string, sender: string | null, indexes: number[], at: Date | null): AppFact[] {
  const lines = block
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 6);
  while (lines.length && VALEDICTION.test(lines[0]!)) lines.shift();
  const facts: AppFact[] = [];
  let job = false;
  lines.forEach((line, lineIndex) => {
    line.split(PART_SEPARATOR).forEach((raw, partIndex) => {
      const part = raw.trim();
      if (!part || !keepable(part)) return;
      const signed = lineIndex === 0 && partIndex === 0 ? signedName(part, sender) : null;
      const pronouns = PRONOUNS.exec(part);
      const work = !job && !signed && !pronouns ? jobFrom(part) : null;
      if (signed) facts.push({ text: `Signs emails as ${signed}`, kind: "preference", box: "preferences", key: keyOf("preference", signed, "sign"), at, items: indexes });
      else if (pronouns) {
        const said = `${pronouns[1]!.toLowerCase()}/${pronouns[2]!.toLowerCase()}`;
        facts.push({ text: `Uses ${said} pronouns`, kind: "preference", box: "preferences", key: keyOf("preference", said, "pronouns"), at, items: indexes });
      } else if (work) {
        job = true;
        facts.push({ ...work, kind: "work", box: "work", at, items: indexes });
      }
    });
  });
  return facts;
}

function mailFacts(sent: Item<"sent_mail">[]): AppFact[] {
  const facts: AppFact[] = [];
  const dateOf = (indexes: number[]) => newest(sent.filter((s) => indexes.includes(s.index)).map((s) => s.item.date));
  const name = mostCommon(sent, (m) => personName(m.from_name));
  if (name) facts.push({ text: `Is called ${name.value}`, kind: "name", box: "identity", key: keyOf("name", name.value), at: dateOf(name.indexes), items: name.indexes });
  const signature = mostCommon(sent, (m) => m.signature?.trim() || null);
  if (signature) facts.push(...signatureFacts(signature.value, name?.value ?? null, signature.indexes, dateOf(signature.indexes)));
  return facts;
}

// ─── Calendar: recurring series ──────────────────────────────────────────────────────────────────

const DAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"] as const;
const DAY_NAMES: Record<string, string> = { MO: "Monday", TU: "Tuesday", WE: "Wednesday", TH: "Thursday", FR: "Friday", SA: "Saturday", SU: "Sunday" };
const WEEK_ORDER = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const ORDINALS: Record<string, string> = { "1": "first", "2": "second", "3": "third", "4": "fourth", "-1": "last" };
/** Titles that hold time rather than name a commitment. */
const PLACEHOLDER_TITLE =
  /^(?:busy|blocked|block|hold|focus|focus time|deep work|out of office|ooo|away|private|private event|tentative|do not (?:book|schedule)|no meetings|dnd|untitled|untitled event|\(no title\)|no title|commute|travel time)$/i;

const list = (items: string[]) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);

function every(interval: number, unit: string, adjective: string): { adjective: string | null; every: string } {
  if (interval === 1) return { adjective, every: adjective };
  if (unit === "week" && interval === 2) return { adjective: "fortnightly", every: "fortnightly" };
  return { adjective: null, every: `every ${interval} ${unit}s` };
}

/** How an RRULE recurs, in words: the frequency and the days ("weekly", "on Mondays"). */
function schedule(rrule: string, start: string): { adjective: string | null; every: string; days: string } | null {
  const parts = new Map(
    rrule
      .replace(/^RRULE:/i, "")
      .split(";")
      .map((p) => p.split("=").map((s) => s.trim().toUpperCase()) as [string, string | undefined]),
  );
  const interval = Math.min(Math.max(Number(parts.get("INTERVAL") ?? "1") || 1, 1), 99);
  const byday = (parts.get("BYDAY") ?? "").split(",").filter(Boolean);
  switch (parts.get("FREQ")) {
    case "DAILY":
      return { ...every(interval, "day", "daily"), days: "" };
    case "WEEKLY": {
      // Without BYDAY a weekly series falls on its first occurrence's weekday (as its start is written).
      const startDay = /^\d{4}-\d{2}-\d{2}/.test(start) ? DAYS[new Date(`${start.slice(0, 10)}T12:00:00Z`).getUTCDay()]! : null;
      const days = [...new Set((byday.length ? byday : startDay ? [startDay] : []).map((d) => d.replace(/^[+-]?\d+/, "")))].filter((d) => DAY_NAMES[d]);
      days.sort((a, b) => WEEK_ORDER.indexOf(a) - WEEK_ORDER.indexOf(b));
      if (days.length === 7) return { ...every(interval, "day", "daily"), days: "" };
      const on =
        days.join(",") === "MO,TU,WE,TH,FR" ? " on weekdays" : days.join(",") === "SA,SU" ? " at weekends" : days.length ? ` on ${list(days.map((d) => `${DAY_NAMES[d]}s`))}` : "";
      return { ...every(interval, "week", "weekly"), days: on };
    }
    case "MONTHLY": {
      const nth = /^([+-]?\d)([A-Z]{2})$/.exec(byday[0] ?? "");
      const monthDay = Number(parts.get("BYMONTHDAY"));
      const suffix = (n: number) => (n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th");
      const on =
        nth && ORDINALS[nth[1]!.replace("+", "")] && DAY_NAMES[nth[2]!]
          ? ` on the ${ORDINALS[nth[1]!.replace("+", "")]} ${DAY_NAMES[nth[2]!]}`
          : monthDay >= 1 && monthDay <= 31
            ? ` on the ${monthDay}${suffix(monthDay)}`
            : "";
      return { ...every(interval, "month", "monthly"), days: on };
    }
    case "YEARLY":
      return { ...every(interval, "year", "yearly"), days: "" };
    default:
      return null;
  }
}

function eventTitle(raw: string): string | null {
  const title = raw
    .replace(/\s+/g, " ")
    .replace(/^["'“‘]+|["'”’]+$/g, "")
    .trim();
  if (title.length < 2 || title.length > 80 || PLACEHOLDER_TITLE.test(title) || !keepable(title)) return null;
  return title;
}

function calendarFacts(events: Item<"event">[]): AppFact[] {
  return events.flatMap(({ item, index }) => {
    const title = eventTitle(item.title);
    const when = item.recurrence && title ? schedule(item.recurrence, item.start) : null;
    if (!title || !when) return [];
    const text = when.adjective ? `Has ${article(when.adjective)} ${when.adjective} '${title}'${when.days}` : `Has '${title}' ${when.every}${when.days}`;
    return [{ text, kind: "other" as const, box: "other", key: keyOf("other", `${title} ${when.every} ${when.days}`, "routine"), at: null, items: [index] }];
  });
}

// ─── Documents and pages: what they are about ────────────────────────────────────────────────────

const EXTENSION = /\.(?:docx?|xlsx?|pptx?|pdf|txt|md|csv|key|pages|numbers|odt|ods|odp|rtf)$/i;
const COPY_OF = /^(?:copy of|kopie von|copie de)\s+/i;
const VERSION_NOISE = /\((?:\d+|copy|draft|final)\)|\s[-_–—]\s*(?:copy|draft|final)\b|\bv\d+(?:\.\d+)*\b|\b(?:final|draft|wip)\b/gi;
const DATE_NOISE =
  /\b(?:\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|(?:19|20)\d{2}|Q[1-4]|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\s+(?:19|20)\d{2})\b/gi;
/** Default and template titles: they say nothing about the person. */
const PLACEHOLDER_DOCUMENT =
  /^(?:untitled(?: (?:document|spreadsheet|presentation|form|drawing|page|folder|database))?|getting started|quick note|personal home|task list|to-?do(?: list)?|notes?|meeting notes|new page|scratch(?:pad)?|test|journal|reading list|home|docs|document|page)$/i;
/** Words that do not make a topic on their own. */
const GENERIC_WORDS: ReadonlySet<string> = new Set(
  "meeting meetings notes note new my our the a an team weekly monthly daily project projects plan plans report reports doc docs document documents page pages list lists ideas idea and of for to in on with at by from template copy draft".split(
    " ",
  ),
);
const NOUN: Partial<Record<string, { one: string; many: string }>> = { notion: { one: "a page", many: "pages" } };
const DOCUMENT_NOUN = { one: "a document", many: "documents" };

function documentTitle(raw: string): string | null {
  const title = raw
    .replace(/\s+/g, " ")
    .trim()
    .replace(EXTENSION, "")
    .replace(COPY_OF, "")
    .replace(VERSION_NOISE, " ")
    .replace(DATE_NOISE, " ")
    .replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}]/gu, "")
    .replace(/\s+/g, " ")
    .replace(/^[\s\-–—:|·,.()_]+|[\s\-–—:|·,.()_]+$/g, "")
    .trim();
  if (title.length < 3 || !/\p{L}{2}/u.test(title) || PLACEHOLDER_DOCUMENT.test(title) || !keepable(title)) return null;
  return title.length <= 80 ? title : title.slice(0, 80).replace(/\s+\S*$/, "");
}

const wordsOf = (title: string) => title.split(/\s+/).filter(Boolean);
const stemOf = (word: string) => stem(word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ""));

/** A shared lead is a topic when one of its words is neither generic nor short, and it does not end on a joining word. */
function isTopic(words: string[]): boolean {
  const last = words[words.length - 1]!.toLowerCase();
  return !/^(?:and|of|for|to|in|on|with|at|by|from|the|a|an|&|-)$/.test(last) && words.some((w) => w.length >= 3 && !GENERIC_WORDS.has(w.toLowerCase()));
}

function documentFacts(docs: Item<"document">[], app: string, now: Date): AppFact[] {
  const noun = NOUN[app] ?? DOCUMENT_NOUN;
  const oldest = now.getTime() - DOCUMENT_RECENT_DAYS * 86_400_000;
  const titled = docs.flatMap((d) => {
    const modified = Date.parse(d.item.modified);
    const title = documentTitle(d.item.title);
    return title && !(modified < oldest) ? [{ ...d, title, words: wordsOf(title) }] : [];
  });
  // Topics: the longest leading words two or more titles share ("Booking flow redesign", "Booking flow research").
  const leads = new Map<string, number[]>();
  titled.forEach((t, i) => {
    for (let n = 1; n <= Math.min(3, t.words.length); n++) {
      const lead = t.words.slice(0, n).map(stemOf).join(" ");
      leads.set(lead, [...(leads.get(lead) ?? []), i]);
    }
  });
  const candidates = [...leads.entries()]
    .filter(([lead, members]) => members.length >= 2 && isTopic(titled[members[0]!]!.words.slice(0, lead.split(" ").length)))
    .sort(([a, am], [b, bm]) => b.split(" ").length - a.split(" ").length || bm.length - am.length);
  const grouped = new Set<number>();
  const facts: AppFact[] = [];
  for (const [lead, members] of candidates) {
    const free = members.filter((m) => !grouped.has(m));
    if (free.length < 2) continue;
    free.forEach((m) => grouped.add(m));
    const topic = titled[free[0]!]!.words.slice(0, lead.split(" ").length).join(" ");
    facts.push({
      text: `Works on ${noun.many} about ${topic}`,
      kind: "project",
      box: `projects/${slugOf(topic)}`,
      key: keyOf("project", topic),
      at: newest(free.map((m) => titled[m]!.item.modified)),
      items: free.map((m) => titled[m]!.index),
    });
  }
  const singles = titled.filter((_, i) => !grouped.has(i)).slice(0, MAX_SINGLE_DOCUMENTS);
  for (const s of singles) {
    facts.push({
      text: `Works on ${noun.one} titled '${s.title}'`,
      kind: "project",
      box: `projects/${slugOf(s.title)}`,
      key: keyOf("project", s.title),
      at: newest([s.item.modified]),
      items: [s.index],
    });
  }
  return facts;
}

// ─── All together ────────────────────────────────────────────────────────────────────────────────

/** One fact per key (the first), none the profile already holds, texts tidied, at most MAX_APP_FACTS. */
export function resolveAppFacts(facts: readonly AppFact[], known: ReadonlySet<string>): AppFact[] {
  const seen = new Set<string>();
  const out: AppFact[] = [];
  for (const f of facts) {
    const text = factText(f.text);
    if (!text || seen.has(f.key) || known.has(f.key) || !keepable(text)) continue;
    seen.add(f.key);
    out.push({ ...f, text });
    if (out.length === MAX_APP_FACTS) break;
  }
  return out;
}

function itemsOf<K extends SnapshotItem["kind"]>(snapshot: AppSnapshot, kind: K): Item<K>[] {
  return snapshot.items.flatMap((item, index) => (item.kind === kind ? [{ item: item as Extract<SnapshotItem, { kind: K }>, index }] : []));
}

export function distillAppSync(input: AppDistillInput): AppDistillResult {
  const { snapshot } = input;
  const facts = [
    ...mailFacts(itemsOf(snapshot, "sent_mail")),
    ...calendarFacts(itemsOf(snapshot, "event")),
    ...documentFacts(itemsOf(snapshot, "document"), snapshot.app, input.now ?? clockNow()),
  ];
  return { facts: resolveAppFacts(facts, new Set((input.known ?? []).map((k) => k.key))) };
}
