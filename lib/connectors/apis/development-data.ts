// What development connections (provider "development": the sandbox's Gmail, apps connected through
// /dev/connect) answer instead of a provider: a small, deterministic, synthetic account per app. Nothing
// here reaches any network; the API modules read it when a connection has no provider behind it.

/** A page of `items` from an offset token ("o<n>"), as the providers' page tokens work. */
export function developmentPage<T>(items: readonly T[], limit: number, pageToken?: string): { items: T[]; next: string | null } {
  const offset = /^o\d{1,6}$/.test(pageToken ?? "") ? Number(pageToken!.slice(1)) : 0;
  const end = offset + limit;
  return { items: items.slice(offset, end), next: end < items.length ? `o${end}` : null };
}

/** Whether every term of a search (words, or field:value) matches one of the texts. */
export function developmentMatch(query: string, fields: Record<string, string>): boolean {
  const all = Object.values(fields).join(" ").toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((term) => {
      const [key, value] = term.includes(":") ? [term.slice(0, term.indexOf(":")), term.slice(term.indexOf(":") + 1)] : ["", term];
      return key && key in fields ? fields[key]!.toLowerCase().includes(value) : all.includes(term.replace(/^"|"$/g, ""));
    });
}

const DAY = 86_400_000;
const startOfDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY) * DAY);

/** A display name from an address's local part (sam.sandbox → Sam Sandbox). */
function nameOf(address: string): string {
  return address
    .split("@")[0]!
    .split(/[._-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
}

// ─── Google: Gmail, Calendar, Drive ───────────────────────────────────────────────────────────────

export interface DevelopmentMessage {
  id: string;
  threadId: string;
  from: string;
  to: string[];
  subject: string;
  snippet: string;
  date: Date;
  /** Sent by the account itself. */
  sent: boolean;
  /** The signature block of a sent message (only sent messages have one here). */
  signature: string | null;
}

/** The account's mailbox, newest first: a few messages received and sent over the last two weeks. */
export function developmentMessages(account: string, now: Date): DevelopmentMessage[] {
  const me = `${nameOf(account)} <${account}>`;
  const day = startOfDay(now).getTime();
  const at = (daysAgo: number, hour: number) => new Date(day - daysAgo * DAY + hour * 3_600_000);
  const signature = `${nameOf(account).split(" ")[0]}\nProduct designer`;
  return [
    {
      id: "dev-msg-01",
      threadId: "dev-thr-01",
      from: "TAP Air Portugal <bookings@flytap.example>",
      to: [me],
      subject: "Your booking confirmation: Lisbon to Osaka",
      snippet: "Booking reference K7Q2XP. Departure 14 April, 10:05, seat 23A (window).",
      date: at(0, 8),
      sent: false,
      signature: null,
    },
    {
      id: "dev-msg-02",
      threadId: "dev-thr-02",
      from: me,
      to: ["Ana Costa <ana.costa@example.org>"],
      subject: "Re: Lunch on Friday?",
      snippet: "Friday works for me, 12:30 at the usual place.",
      date: at(1, 17),
      sent: true,
      signature,
    },
    {
      id: "dev-msg-03",
      threadId: "dev-thr-02",
      from: "Ana Costa <ana.costa@example.org>",
      to: [me],
      subject: "Lunch on Friday?",
      snippet: "Are you free for lunch on Friday? I found a new vegetarian place.",
      date: at(1, 11),
      sent: false,
      signature: null,
    },
    {
      id: "dev-msg-04",
      threadId: "dev-thr-04",
      from: "Trail Runners Lisbon <hello@trailrunners.example>",
      to: [me],
      subject: "Sintra 21 km: registration open",
      snippet: "Registration for the spring Sintra trail run is open until 1 March.",
      date: at(3, 9),
      sent: false,
      signature: null,
    },
    {
      id: "dev-msg-05",
      threadId: "dev-thr-05",
      from: me,
      to: ["Design Team <design@startup.example>"],
      subject: "Design review notes",
      snippet: "Notes from Monday's design review: the booking flow goes to testing next week.",
      date: at(4, 15),
      sent: true,
      signature,
    },
    {
      id: "dev-msg-06",
      threadId: "dev-thr-06",
      from: "Nihongo School <info@nihongo.example>",
      to: [me],
      subject: "Your Japanese lesson on Thursday",
      snippet: "A reminder of your lesson on Thursday at 19:00. Chapter 12: keigo.",
      date: at(6, 10),
      sent: false,
      signature: null,
    },
    {
      id: "dev-msg-07",
      threadId: "dev-thr-07",
      from: "Vet Clinic Alfama <care@vet.example>",
      to: [me],
      subject: "Miso's vaccination reminder",
      snippet: "Miso is due for the annual vaccination this month.",
      date: at(9, 14),
      sent: false,
      signature: null,
    },
  ];
}

export interface DevelopmentEvent {
  id: string;
  title: string;
  start: Date;
  end: Date;
  location: string | null;
  attendees: string[];
  /** The series' RRULE for an occurrence of a recurring event. */
  recurrence: string | null;
  organizerSelf: boolean;
}

/** The account's calendar between two instants, occurrences expanded, by start time: weekly series, and two one-off events in the days after `now`. */
export function developmentEvents(account: string, range: { from: Date; to: Date }, now: Date): DevelopmentEvent[] {
  const events: DevelopmentEvent[] = [];
  const first = startOfDay(range.from).getTime();
  const last = Math.min(range.to.getTime(), first + 366 * DAY);
  const anchor = startOfDay(now).getTime();
  const at = (day: number, hour: number, minutes = 0) => new Date(day + hour * 3_600_000 + minutes * 60_000);
  for (let day = first; day <= last; day += DAY) {
    const weekday = new Date(day).getUTCDay();
    const stamp = new Date(day).toISOString().slice(0, 10).replace(/-/g, "");
    if (weekday >= 1 && weekday <= 5) {
      events.push({
        id: `dev-evt-standup_${stamp}`,
        title: "Team stand-up",
        start: at(day, 9, 30),
        end: at(day, 9, 45),
        location: "Video call",
        attendees: [account, "design@startup.example"],
        recurrence: "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
        organizerSelf: false,
      });
    }
    if (weekday === 1)
      events.push({
        id: `dev-evt-review_${stamp}`,
        title: "Design review",
        start: at(day, 14),
        end: at(day, 15),
        location: "Room 2",
        attendees: [account, "design@startup.example"],
        recurrence: "RRULE:FREQ=WEEKLY;BYDAY=MO",
        organizerSelf: true,
      });
    if (weekday === 4)
      events.push({
        id: `dev-evt-japanese_${stamp}`,
        title: "Japanese lesson",
        start: at(day, 19),
        end: at(day, 20),
        location: "Nihongo School",
        attendees: [account],
        recurrence: "RRULE:FREQ=WEEKLY;BYDAY=TH",
        organizerSelf: true,
      });
    const offset = Math.round((day - anchor) / DAY);
    if (offset === 2)
      events.push({
        id: "dev-evt-dentist",
        title: "Dentist",
        start: at(day, 16),
        end: at(day, 16, 45),
        location: "Clínica Dentária Baixa",
        attendees: [account],
        recurrence: null,
        organizerSelf: true,
      });
    if (offset === 4)
      events.push({
        id: "dev-evt-lunch",
        title: "Lunch with Ana",
        start: at(day, 12, 30),
        end: at(day, 13, 30),
        location: "Jardim Vegetariano",
        attendees: [account, "ana.costa@example.org"],
        recurrence: null,
        organizerSelf: false,
      });
  }
  return events.filter((e) => e.end > range.from && e.start < range.to).sort((a, b) => a.start.getTime() - b.start.getTime());
}

export interface DevelopmentFile {
  id: string;
  name: string;
  mimeType: string;
  modified: Date;
  /** What a full-text search finds it by. */
  text: string;
}

/** The account's Drive: a few documents it owns, most recently modified first. */
export function developmentFiles(now: Date): DevelopmentFile[] {
  const day = startOfDay(now).getTime();
  return [
    {
      id: "dev-file-roadmap",
      name: "Booking flow redesign",
      mimeType: "application/vnd.google-apps.document",
      modified: new Date(day - 1 * DAY),
      text: "booking flow redesign research usability testing travel",
    },
    {
      id: "dev-file-kyoto",
      name: "Kyoto trip budget",
      mimeType: "application/vnd.google-apps.spreadsheet",
      modified: new Date(day - 2 * DAY),
      text: "kyoto japan april trip budget flights ryokan",
    },
    {
      id: "dev-file-trail",
      name: "Trail running plan",
      mimeType: "application/vnd.google-apps.document",
      modified: new Date(day - 5 * DAY),
      text: "sintra trail run training plan 21 km",
    },
    {
      id: "dev-file-portfolio",
      name: "Design portfolio 2024",
      mimeType: "application/vnd.google-apps.presentation",
      modified: new Date(day - 20 * DAY),
      text: "portfolio product design case studies",
    },
  ];
}

// ─── Microsoft: Outlook ───────────────────────────────────────────────────────────────────────────

/** The account's Outlook mailbox, newest first: a work mailbox, received and sent over the last two weeks. */
export function developmentOutlookMessages(account: string, now: Date): DevelopmentMessage[] {
  const me = `${nameOf(account)} <${account}>`;
  const day = startOfDay(now).getTime();
  const at = (daysAgo: number, hour: number) => new Date(day - daysAgo * DAY + hour * 3_600_000);
  const signature = `${nameOf(account)}\nProduct designer, Startup Ltd`;
  return [
    {
      id: "dev-olk-01",
      threadId: "dev-conv-01",
      from: "Marta Silva <marta.silva@startup.example>",
      to: [me],
      subject: "Usability test schedule",
      snippet: "The five usability sessions for the booking flow are booked for next Tuesday and Wednesday.",
      date: at(0, 10),
      sent: false,
      signature: null,
    },
    {
      id: "dev-olk-02",
      threadId: "dev-conv-02",
      from: me,
      to: ["Design Team <design@startup.example>"],
      subject: "Booking flow: prototype v3",
      snippet: "Prototype v3 of the booking flow is ready for review; comments by Friday please.",
      date: at(2, 16),
      sent: true,
      signature,
    },
    {
      id: "dev-olk-03",
      threadId: "dev-conv-03",
      from: "IT Service Desk <it@startup.example>",
      to: [me],
      subject: "Your laptop replacement",
      snippet: "Your new laptop is ready to collect from the service desk on floor 2.",
      date: at(5, 9),
      sent: false,
      signature: null,
    },
    {
      id: "dev-olk-04",
      threadId: "dev-conv-04",
      from: me,
      to: ["Marta Silva <marta.silva@startup.example>"],
      subject: "Re: Quarterly planning",
      snippet: "I can take the research track for next quarter.",
      date: at(8, 11),
      sent: true,
      signature,
    },
  ];
}

// ─── Notion ───────────────────────────────────────────────────────────────────────────────────────

export interface DevelopmentPage {
  id: string;
  object: "page" | "database";
  title: string;
  lastEdited: Date;
  /** What a search finds it by, besides the title. */
  text: string;
}

/** The account's Notion workspace: a few pages and a database, most recently edited first. */
export function developmentNotionPages(now: Date): DevelopmentPage[] {
  const day = startOfDay(now).getTime();
  return [
    {
      id: "dev-page-0001-booking-flow",
      object: "page",
      title: "Booking flow redesign: research notes",
      lastEdited: new Date(day - 1 * DAY + 15 * 3_600_000),
      text: "usability interviews travel booking",
    },
    { id: "dev-page-0002-kyoto", object: "page", title: "Kyoto trip itinerary", lastEdited: new Date(day - 3 * DAY), text: "japan april temples ryokan osaka" },
    { id: "dev-db-0003-reading", object: "database", title: "Reading list", lastEdited: new Date(day - 6 * DAY), text: "books design japanese" },
    { id: "dev-page-0004-trail", object: "page", title: "Sintra trail run training", lastEdited: new Date(day - 12 * DAY), text: "running plan 21 km" },
  ];
}
