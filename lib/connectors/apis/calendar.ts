// The Google Calendar API v3 on the person's primary calendar: events.list (occurrences expanded, by
// start time) for the calendar tool, events.insert for creating an event, and the recurring and upcoming
// events the memories distiller reads. A development connection answers from the synthetic calendar.
import { randomBytes } from "node:crypto";
import { now as clockNow } from "../../platform/clock";
import { env } from "../../env";
import type { UsableConnection } from "../tools/definition";
import { DEVELOPMENT_PROVIDER } from "../types";
import { developmentEvents, developmentPage, type DevelopmentEvent } from "./development-data";
import type { AppSnapshot } from "../../profile/distill/snapshot";

/** How much of an event's description a listing carries. */
export const DESCRIPTION_CHARS = 1000;
/** Events the distiller reads. */
const SNAPSHOT_EVENTS = 25;

export interface CalendarEvent {
  id: string;
  title: string;
  /** ISO 8601 date-time; for an all-day event, the date (YYYY-MM-DD). */
  start: string;
  end: string;
  all_day: boolean;
  time_zone: string | null;
  location: string | null;
  description: string | null;
  attendees: Array<{ email: string; response: string | null }>;
  organizer: string | null;
  /** An occurrence of a recurring series. */
  recurring: boolean;
  url: string | null;
}

export interface CalendarPage {
  events: CalendarEvent[];
  next_page_token: string | null;
}

export interface NewCalendarEvent {
  title: string;
  /** ISO 8601 date-times with an offset. */
  start: string;
  end: string;
  /** IANA time zone the event is shown in; the calendar's own when absent. */
  timeZone?: string;
  attendees: string[];
  description?: string;
  location?: string;
}

interface GoogleTime {
  dateTime?: string;
  date?: string;
  timeZone?: string;
}
interface GoogleEvent {
  id: string;
  status?: string;
  summary?: string;
  description?: string;
  location?: string;
  htmlLink?: string;
  start?: GoogleTime;
  end?: GoogleTime;
  recurringEventId?: string;
  recurrence?: string[];
  organizer?: { email?: string; self?: boolean };
  attendees?: Array<{ email?: string; responseStatus?: string }>;
}
interface GoogleEventList {
  items?: GoogleEvent[];
  nextPageToken?: string;
}

const eventsUrl = () => new URL(`${env().GOOGLE_CALENDAR_API_URL}/calendar/v3/calendars/primary/events`);

function event(e: GoogleEvent): CalendarEvent {
  const description = e.description ? e.description.slice(0, DESCRIPTION_CHARS) : null;
  return {
    id: e.id,
    title: e.summary ?? "(no title)",
    start: e.start?.dateTime ?? e.start?.date ?? "",
    end: e.end?.dateTime ?? e.end?.date ?? "",
    all_day: !e.start?.dateTime && !!e.start?.date,
    time_zone: e.start?.timeZone ?? null,
    location: e.location ?? null,
    description,
    attendees: (e.attendees ?? []).filter((a) => a.email).map((a) => ({ email: a.email!, response: a.responseStatus ?? null })),
    organizer: e.organizer?.email ?? null,
    recurring: !!e.recurringEventId || !!e.recurrence?.length,
    url: e.htmlLink ?? null,
  };
}

function developmentEvent(e: DevelopmentEvent): CalendarEvent {
  return {
    id: e.id,
    title: e.title,
    start: e.start.toISOString(),
    end: e.end.toISOString(),
    all_day: false,
    time_zone: "UTC",
    location: e.location,
    description: null,
    attendees: e.attendees.map((email) => ({ email, response: "accepted" })),
    organizer: e.organizerSelf ? (e.attendees[0] ?? null) : (e.attendees[1] ?? null),
    recurring: !!e.recurrence,
    url: null,
  };
}

/** The events between two instants on the primary calendar, recurring ones as their occurrences, by start time. */
export async function listCalendarEvents(conn: UsableConnection, input: { timeMin: Date; timeMax: Date; limit: number; pageToken?: string }): Promise<CalendarPage> {
  if (conn.provider === DEVELOPMENT_PROVIDER) {
    const page = developmentPage(developmentEvents(conn.accountEmail ?? "", { from: input.timeMin, to: input.timeMax }, clockNow()), input.limit, input.pageToken);
    return { events: page.items.map(developmentEvent), next_page_token: page.next };
  }
  const url = eventsUrl();
  url.searchParams.set("timeMin", input.timeMin.toISOString());
  url.searchParams.set("timeMax", input.timeMax.toISOString());
  url.searchParams.set("singleEvents", "true");
  url.searchParams.set("orderBy", "startTime");
  url.searchParams.set("maxResults", String(input.limit));
  if (input.pageToken) url.searchParams.set("pageToken", input.pageToken);
  const list = await conn.fetch<GoogleEventList | null>({ url });
  return { events: (list?.items ?? []).filter((e) => e.status !== "cancelled").map(event), next_page_token: list?.nextPageToken ?? null };
}

/** Creates an event on the primary calendar; attendees are sent Google's invitation. */
export async function createCalendarEvent(conn: UsableConnection, input: NewCalendarEvent): Promise<CalendarEvent> {
  if (conn.provider === DEVELOPMENT_PROVIDER) {
    // Nothing is stored: the development calendar answers as Google would, once.
    return {
      ...developmentEvent({
        id: `dev-evt-${randomBytes(8).toString("hex")}`,
        title: input.title,
        start: new Date(input.start),
        end: new Date(input.end),
        location: input.location ?? null,
        attendees: [conn.accountEmail ?? "", ...input.attendees],
        recurrence: null,
        organizerSelf: true,
      }),
      time_zone: input.timeZone ?? "UTC",
      description: input.description ?? null,
    };
  }
  const url = eventsUrl();
  url.searchParams.set("sendUpdates", input.attendees.length ? "all" : "none");
  const created = await conn.fetch<GoogleEvent>({
    method: "POST",
    url,
    json: {
      summary: input.title,
      ...(input.description ? { description: input.description } : {}),
      ...(input.location ? { location: input.location } : {}),
      start: { dateTime: input.start, ...(input.timeZone ? { timeZone: input.timeZone } : {}) },
      end: { dateTime: input.end, ...(input.timeZone ? { timeZone: input.timeZone } : {}) },
      ...(input.attendees.length ? { attendees: input.attendees.map((email) => ({ email })) } : {}),
    },
  });
  return event(created);
}

/**
 * For the memories distiller: the primary calendar's upcoming events with recurring series as one item
 * each (their RRULE), titles and times only: no descriptions, no attendees.
 */
export async function snapshotCalendar(conn: UsableConnection): Promise<AppSnapshot> {
  const now = clockNow();
  if (conn.provider === DEVELOPMENT_PROVIDER) {
    const seen = new Set<string>();
    const items = developmentEvents(conn.accountEmail ?? "", { from: now, to: new Date(now.getTime() + 14 * 86_400_000) }, now)
      .filter((e) => {
        const series = e.recurrence ? e.title : e.id;
        if (seen.has(series)) return false;
        seen.add(series);
        return true;
      })
      .map((e) => ({ kind: "event" as const, title: e.title, recurrence: e.recurrence, organizer_self: e.organizerSelf, start: e.start.toISOString() }));
    return { app: conn.app, account_email: conn.accountEmail, items };
  }
  const url = eventsUrl();
  url.searchParams.set("timeMin", now.toISOString());
  url.searchParams.set("singleEvents", "false");
  url.searchParams.set("maxResults", String(SNAPSHOT_EVENTS));
  const list = await conn.fetch<GoogleEventList | null>({ url });
  const items = (list?.items ?? [])
    .filter((e) => e.status !== "cancelled" && e.summary)
    .map((e) => ({
      kind: "event" as const,
      title: e.summary!,
      recurrence: e.recurrence?.find((r) => r.startsWith("RRULE:")) ?? null,
      organizer_self: !!e.organizer?.self,
      start: e.start?.dateTime ?? e.start?.date ?? "",
    }));
  return { app: conn.app, account_email: conn.accountEmail, items };
}
