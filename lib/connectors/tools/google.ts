// The Google connector tools: search Gmail, send mail (from Gmail, or from Outlook when the person
// asks for it or has only Outlook), read and add to Google Calendar, search Google Drive. Each answers
// the same JSON on MCP and REST; the two actions need the capability the person allowed and an
// idempotency key.
import { z } from "zod";
import { MAILBOX_APPS, type MailboxApp } from "../../catalogue";
import { now as clockNow } from "../../platform/clock";
import { ApiError } from "../../http/errors";
import { createCalendarEvent, listCalendarEvents } from "../apis/calendar";
import { searchDrive } from "../apis/drive";
import { searchGmail, sendGmail } from "../apis/gmail";
import { isMailAddress, MAX_RECIPIENTS, validateOutgoingMail, type OutgoingMail } from "../apis/mail";
import { sendOutlook } from "../apis/outlook";
import { canConnectApp } from "../providers";
import { listLimit as limit, mailSummary, pageToken } from "./schemas";
import { connectorTool, idempotencyKey, type ConnectorRunContext, type ConnectorToolDefinition } from "./definition";

/** How far ahead service_calendar_get looks when no time_max is given. */
export const CALENDAR_DEFAULT_DAYS = 7;

const isoTime = z.iso.datetime({ offset: true });

// ─── service_gmail_search ─────────────────────────────────────────────────────────────────────────

const gmailSearchInput = z.object({
  query: z
    .string()
    .trim()
    .max(1000)
    .default("")
    .describe("Gmail search syntax, as in Gmail's search box: words, from:, to:, subject:, after:2025/01/31, has:attachment, in:sent. Empty: the newest messages."),
  limit,
  page_token: pageToken,
});

const gmailSearch = connectorTool({
  name: "service_gmail_search",
  title: "Search the user's Gmail",
  description:
    "Search the user's Gmail with Gmail's own search syntax (query), newest first. " +
    "Call it when the answer is in the user's mail: a booking, a receipt, what someone wrote. " +
    "Returns { messages: [{ id, thread_id, mailbox, from, to, subject, snippet, date }], next_page_token }: headers and Gmail's short snippet, never whole bodies. " +
    "Pass next_page_token back as page_token for more. Fails with permission_needed (show the user its connect_url) until the user gives Gmail to this agent, and with app_not_connected when Gmail is not connected (mint a link with service_connect).",
  apps: ["gmail"],
  input: gmailSearchInput,
  output: z.object({ messages: z.array(mailSummary), next_page_token: z.string().nullable() }),
  run: async (ctx, args) => searchGmail(await ctx.connection("gmail"), { query: args.query, limit: args.limit, pageToken: args.page_token }),
});

// ─── service_email_send ───────────────────────────────────────────────────────────────────────────

const emailSendInput = z
  .object({
    to: z.array(z.string().max(1000)).min(1).max(100).describe(`Recipients' plain addresses (ada@example.com), to and cc together at most ${MAX_RECIPIENTS}.`),
    cc: z.array(z.string().max(1000)).max(100).default([]).describe("Copied recipients' plain addresses."),
    subject: z.string().max(2000).describe("One line, at most 998 characters."),
    body: z.string().max(200_000).describe("Plain text, at most 100 KB."),
    reply_to: z.string().max(1000).optional().describe("The id of a message in the same mailbox (from a search) this one answers: the reply joins its thread."),
    mailbox: z.enum(MAILBOX_APPS).optional().describe("Send from gmail or outlook. Default: Gmail, or Outlook when only Outlook is connected."),
    idempotency_key: idempotencyKey,
  })
  .superRefine((args, ctx) => {
    try {
      validateOutgoingMail(outgoing(args), args.mailbox);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      for (const f of (err.extras.fields as Array<{ field: string; message: string }>) ?? [])
        ctx.addIssue({ code: "custom", message: f.message, path: f.field.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)) });
    }
  });
type EmailSendArgs = z.output<typeof emailSendInput>;

function outgoing(args: Pick<EmailSendArgs, "to" | "cc" | "subject" | "body" | "reply_to">): OutgoingMail {
  return { to: args.to, cc: args.cc ?? [], subject: args.subject, body: args.body, ...(args.reply_to !== undefined ? { replyTo: args.reply_to } : {}) };
}

/**
 * The mailbox a send goes through: the one named, else Gmail when the person has it connected (even if
 * it needs reconnecting: that is said, not worked around), else Outlook. Fails as the tool's connection
 * check would (app_not_connected, app_needs_reconnect).
 */
async function sendingMailbox(ctx: ConnectorRunContext, args: Pick<EmailSendArgs, "mailbox">): Promise<MailboxApp> {
  const outlook = canConnectApp("outlook");
  if (args.mailbox === "outlook" && !outlook) {
    throw new ApiError("invalid_request", "Outlook is not enabled on this service; leave mailbox out to send from Gmail.", {
      fields: [{ field: "mailbox", message: "Outlook is not enabled here." }],
    });
  }
  if (args.mailbox) {
    await ctx.connection(args.mailbox);
    return args.mailbox;
  }
  try {
    await ctx.connection("gmail");
    return "gmail";
  } catch (err) {
    if (!(err instanceof ApiError && err.code === "app_not_connected") || !outlook) throw err;
    try {
      await ctx.connection("outlook");
      return "outlook";
    } catch (other) {
      throw other instanceof ApiError && other.code === "app_not_connected" ? err : other;
    }
  }
}

const emailSend = connectorTool({
  name: "service_email_send",
  title: "Send an e-mail as the user",
  description:
    'Send a plain-text e-mail from the user\'s own mailbox (Gmail by default; Outlook with mailbox "outlook" or when only Outlook is connected): to, cc, subject, body, and reply_to to answer a message in its thread. ' +
    "Call it only when the user asked for this message to be sent. It needs the user's permission gmail:send (or outlook:send): without it the error permission_needed carries a connect_url to show the user. " +
    "idempotency_key is required: a retry with the same key returns the first answer and sends nothing more. " +
    "Returns { sent: true, mailbox, message_id, thread_id }.",
  apps: ["gmail", "outlook"],
  input: emailSendInput,
  action: { capability: async (args, ctx) => `${await sendingMailbox(ctx, args)}:send`, permission: "send" },
  output: z.object({ sent: z.literal(true), mailbox: z.enum(MAILBOX_APPS), message_id: z.string().nullable(), thread_id: z.string().nullable() }),
  run: async (ctx, args) => {
    const mailbox = await sendingMailbox(ctx, args);
    const conn = await ctx.connection(mailbox);
    if (mailbox === "outlook") {
      const sent = await sendOutlook(conn, outgoing(args));
      return { sent: true, mailbox, message_id: sent.id, thread_id: null };
    }
    const sent = await sendGmail(conn, outgoing(args));
    return { sent: true, mailbox, message_id: sent.id, thread_id: sent.thread_id };
  },
});

// ─── service_calendar_get ─────────────────────────────────────────────────────────────────────────

const calendarEvent = z.object({
  id: z.string(),
  title: z.string(),
  start: z.string(),
  end: z.string(),
  all_day: z.boolean(),
  time_zone: z.string().nullable(),
  location: z.string().nullable(),
  description: z.string().nullable(),
  attendees: z.array(z.object({ email: z.string(), response: z.string().nullable() })),
  organizer: z.string().nullable(),
  recurring: z.boolean(),
  url: z.string().nullable(),
});

const calendarGetInput = z
  .object({
    time_min: isoTime.optional().describe("Start of the range (ISO 8601 with offset). Default: now."),
    time_max: isoTime.optional().describe(`End of the range (ISO 8601 with offset). Default: ${CALENDAR_DEFAULT_DAYS} days after time_min.`),
    limit,
    page_token: pageToken,
  })
  .refine((a) => !a.time_min || !a.time_max || Date.parse(a.time_max) > Date.parse(a.time_min), { message: "time_max must be after time_min.", path: ["time_max"] });

const calendarGet = connectorTool({
  name: "service_calendar_get",
  title: "Read the user's calendar",
  description:
    `Read the events on the user's primary Google Calendar between time_min and time_max (default: the next ${CALENDAR_DEFAULT_DAYS} days), recurring events as their occurrences, by start time. ` +
    "Call it to answer what the user has planned, or to find a free time before proposing one. " +
    "Returns { events: [{ id, title, start, end, all_day, time_zone, location, description, attendees, organizer, recurring, url }], next_page_token }; descriptions are cut at 1,000 characters.",
  apps: ["calendar"],
  input: calendarGetInput,
  output: z.object({ events: z.array(calendarEvent), next_page_token: z.string().nullable() }),
  run: async (ctx, args) => {
    const timeMin = args.time_min ? new Date(args.time_min) : clockNow();
    const timeMax = args.time_max ? new Date(args.time_max) : new Date(timeMin.getTime() + CALENDAR_DEFAULT_DAYS * 86_400_000);
    return listCalendarEvents(await ctx.connection("calendar"), { timeMin, timeMax, limit: args.limit, pageToken: args.page_token });
  },
});

// ─── service_calendar_create_event ────────────────────────────────────────────────────────────────

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const createEventInput = z
  .object({
    title: z.string().trim().min(1).max(1024),
    start: isoTime.describe("When it starts (ISO 8601 with offset, e.g. 2025-04-14T10:00:00+09:00)."),
    end: isoTime.describe("When it ends, after start."),
    time_zone: z
      .string()
      .max(64)
      .refine(isTimeZone, "time_zone is an IANA time zone such as Europe/Lisbon")
      .optional()
      .describe("IANA time zone to show it in (Europe/Lisbon). Default: the calendar's."),
    attendees: z
      .array(z.string().max(320).refine(isMailAddress, "an attendee is a plain e-mail address"))
      .max(MAX_RECIPIENTS)
      .default([])
      .describe("Guests' addresses; Google e-mails each an invitation."),
    description: z.string().max(8000).optional(),
    location: z.string().max(1024).optional(),
    idempotency_key: idempotencyKey,
  })
  .refine((a) => Date.parse(a.end) > Date.parse(a.start), { message: "end must be after start.", path: ["end"] });

const calendarCreate = connectorTool({
  name: "service_calendar_create_event",
  title: "Add an event to the user's calendar",
  description:
    "Create an event on the user's primary Google Calendar: title, start and end (ISO 8601 with offset), time_zone, attendees (each is e-mailed Google's invitation), description, location. " +
    "Call it only when the user asked for the event. It needs the user's permission calendar:create_event: without it the error permission_needed carries a connect_url to show the user. " +
    "idempotency_key is required: a retry with the same key returns the first answer and creates nothing more. Returns the event as service_calendar_get lists it.",
  apps: ["calendar"],
  input: createEventInput,
  action: {
    capability: async (_args, ctx) => {
      await ctx.connection("calendar");
      return "calendar:create_event";
    },
    permission: "create_event",
  },
  output: calendarEvent,
  run: async (ctx, args) =>
    createCalendarEvent(await ctx.connection("calendar"), {
      title: args.title,
      start: args.start,
      end: args.end,
      timeZone: args.time_zone,
      attendees: args.attendees,
      description: args.description,
      location: args.location,
    }),
});

// ─── service_drive_search ─────────────────────────────────────────────────────────────────────────

const driveSearchInput = z.object({
  query: z.string().trim().min(1).max(500).describe("Words to find in the files' names and contents."),
  limit,
  page_token: pageToken,
});

const driveSearch = connectorTool({
  name: "service_drive_search",
  title: "Search the user's Google Drive",
  description:
    "Full-text search of the user's Google Drive (names and contents), as Drive ranks the results. " +
    "Call it to find a document, sheet or presentation the user mentions. " +
    "Returns { files: [{ id, name, mime_type, modified, url, owners }], next_page_token }: metadata and a link, never the files' contents.",
  apps: ["drive"],
  input: driveSearchInput,
  output: z.object({
    files: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        mime_type: z.string(),
        modified: z.string(),
        url: z.string().nullable(),
        owners: z.array(z.object({ name: z.string().nullable(), email: z.string().nullable() })),
      }),
    ),
    next_page_token: z.string().nullable(),
  }),
  run: async (ctx, args) => searchDrive(await ctx.connection("drive"), { query: args.query, limit: args.limit, pageToken: args.page_token }),
});

export const GOOGLE_TOOLS: readonly ConnectorToolDefinition[] = [gmailSearch, emailSend, calendarGet, calendarCreate, driveSearch];
