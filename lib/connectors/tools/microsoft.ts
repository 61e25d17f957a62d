// The Microsoft connector tools (served only where the Outlook connector is enabled):
// service_email_search, one search over every mailbox the person connected (Gmail and Outlook), merged
// newest first and paged with one token that carries each mailbox's own place. A mailbox that is rate
// limiting, failing or needing reconnection does not sink the others: the answer says which one is
// missing and why. Sending through Outlook is service_email_send's (lib/connectors/tools/google.ts).
import { createHash } from "node:crypto";
import { z } from "zod";
import { APP_NAMES, MAILBOX_APPS, type MailboxApp } from "../../catalogue";
import { ApiError } from "../../http/errors";
import { logger } from "../../platform/log";
import { searchGmail } from "../apis/gmail";
import { ProviderFailure, ProviderRateLimited } from "../apis/http";
import type { MailPage, MailSearch, MailSummary } from "../apis/mail";
import { searchOutlook } from "../apis/outlook";
import { AppConnectionError } from "../errors";
import { connectorTool, type ConnectorRunContext, type ConnectorToolDefinition, type UsableConnection } from "./definition";
import { appNeedsReconnect } from "./run";
import { listLimit, mailSummary } from "./schemas";

/** Pages a mailbox may answer empty (with more to come) before the search moves on without it. */
const EMPTY_PAGES = 3;

const SEARCH: Readonly<Record<MailboxApp, (conn: UsableConnection, input: MailSearch) => Promise<MailPage>>> = { gmail: searchGmail, outlook: searchOutlook };

// ─── The combined page token ──────────────────────────────────────────────────────────────────────

/** A mailbox's place: its own page token (absent: its first page) and how many of that page were shown. */
const cursor = z.object({ t: z.string().min(1).max(8192).optional(), k: z.number().int().min(0).max(49) }).strict();
type Cursor = z.infer<typeof cursor>;
type Cursors = Partial<Record<MailboxApp, Cursor>>;

/** The token: its version, the search it continues (a hash of the query), and the mailboxes with more to show. */
const combinedToken = z.object({ v: z.literal(1), q: z.string().max(64), m: z.object({ gmail: cursor.optional(), outlook: cursor.optional() }).strict() }).strict();

const queryKey = (query: string) => createHash("sha256").update(query).digest("base64url").slice(0, 16);

function invalidPageToken(message: string): ApiError {
  return new ApiError("invalid_request", "page_token is not one this search gave.", { fields: [{ field: "page_token", message }] });
}

/** The opaque token (base64url JSON) for the mailboxes still to page through; null when none has more. */
function encodeMailboxToken(query: string, cursors: Cursors): string | null {
  if (!Object.keys(cursors).length) return null;
  return Buffer.from(JSON.stringify({ v: 1, q: queryKey(query), m: cursors })).toString("base64url");
}

/** Each mailbox's place from a token this tool answered, for the same query; invalid_request otherwise. */
function decodeMailboxToken(token: string, query: string): Cursors {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new Error("not base64url");
    parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw invalidPageToken("Pass back next_page_token exactly as it was answered.");
  }
  const checked = combinedToken.safeParse(parsed);
  if (!checked.success) throw invalidPageToken("Pass back next_page_token exactly as it was answered.");
  if (checked.data.q !== queryKey(query)) throw invalidPageToken("This page_token continues another query: send the same query with it.");
  return checked.data.m;
}

// ─── One mailbox's part of a page ─────────────────────────────────────────────────────────────────

interface MailboxWarning {
  mailbox: MailboxApp;
  code: "rate_limited" | "provider_error" | "app_needs_reconnect";
  message: string;
  retry_after?: number;
}

interface MailboxRead {
  mailbox: MailboxApp;
  /** The page's messages not shown yet, newest first. */
  items: MailSummary[];
  /** The mailbox has more beyond `items`. */
  more: boolean;
  /** Its place once `n` of `items` are shown; null when nothing is left. */
  after(n: number): Cursor | null;
}

async function readMailbox(conn: UsableConnection, input: { query: string; limit: number; at: Cursor }): Promise<MailboxRead> {
  const mailbox = conn.app as MailboxApp;
  let at = input.at;
  for (let tries = 1; ; tries++) {
    const page = await SEARCH[mailbox](conn, { query: input.query, limit: input.limit, pageToken: at.t });
    const items = page.messages.slice(at.k);
    const next = page.next_page_token;
    if (items.length || !next || tries === EMPTY_PAGES) {
      const here = at;
      return { mailbox, items, more: !!next, after: (n) => (n < items.length ? { ...(here.t ? { t: here.t } : {}), k: here.k + n } : next ? { t: next, k: 0 } : null) };
    }
    at = { t: next, k: 0 };
  }
}

/** A mailbox's failure as a warning beside the others' answer; other failures (a missing scope, a bad token) end the call. */
function warningFor(mailbox: MailboxApp, err: unknown): MailboxWarning | null {
  const name = APP_NAMES[mailbox];
  if (err instanceof ProviderRateLimited) {
    return {
      mailbox,
      code: "rate_limited",
      message: `${name} is rate limiting these calls: its messages are missing from this page. Retry after ${err.retryAfter} seconds.`,
      retry_after: err.retryAfter,
    };
  }
  if (err instanceof AppConnectionError && err.reason === "needs_reconnect") return { mailbox, code: "app_needs_reconnect", message: appNeedsReconnect(mailbox).message };
  if (err instanceof ProviderFailure) {
    logger().warn({ tool: "service_email_search", app: mailbox, status: err.status, err: err.message }, "connector provider failed");
    return { mailbox, code: "provider_error", message: `${name} failed to answer (${err.status ? `HTTP ${err.status}` : "no answer"}): its messages are missing from this page.` };
  }
  return null;
}

/** The person's usable mailboxes; one needing reconnection is a warning while another answers. */
async function mailboxes(ctx: ConnectorRunContext): Promise<{ conns: UsableConnection[]; warnings: MailboxWarning[] }> {
  const conns: UsableConnection[] = [];
  const warnings: MailboxWarning[] = [];
  const reconnect: ApiError[] = [];
  for (const app of MAILBOX_APPS) {
    try {
      conns.push(await ctx.connection(app));
    } catch (err) {
      if (!(err instanceof ApiError) || (err.code !== "app_not_connected" && err.code !== "app_needs_reconnect")) throw err;
      if (err.code === "app_needs_reconnect") {
        reconnect.push(err);
        warnings.push({ mailbox: app, code: err.code, message: err.message });
      }
    }
  }
  if (!conns.length) {
    throw (
      reconnect[0] ??
      new ApiError("app_not_connected", 'The user has connected no mailbox. Call service_connect with app "gmail" or "outlook" and show the user its connect_url, then retry.', {
        app: MAILBOX_APPS[0],
      })
    );
  }
  return { conns, warnings };
}

/** Newer first; a date that does not parse sorts last. */
const time = (m: MailSummary) => Date.parse(m.date) || 0;

/**
 * One page of the search over every connected mailbox: each mailbox read from its place, the pages
 * merged newest first. A mailbox whose page is used up while it has more stops the merge there, so no
 * newer message of it can come after an older one of another mailbox.
 */
async function searchMailboxes(ctx: ConnectorRunContext, args: { query: string; limit: number; page_token?: string }) {
  const { conns, warnings } = await mailboxes(ctx);
  const places: Cursors = args.page_token ? decodeMailboxToken(args.page_token, args.query) : Object.fromEntries(conns.map((c) => [c.app, { k: 0 }]));
  const searched = conns.filter((c) => places[c.app as MailboxApp]);
  const settled = await Promise.allSettled(searched.map((c) => readMailbox(c, { query: args.query, limit: args.limit, at: places[c.app as MailboxApp]! })));

  const reads: MailboxRead[] = [];
  const next: Cursors = {};
  const failures: unknown[] = [];
  settled.forEach((s, i) => {
    const mailbox = searched[i]!.app as MailboxApp;
    if (s.status === "fulfilled") return void reads.push(s.value);
    const warning = warningFor(mailbox, s.reason);
    if (!warning) throw s.reason;
    // Should every mailbox fail, the call ends with the first failure, named for its mailbox.
    failures.push(s.reason instanceof AppConnectionError ? appNeedsReconnect(mailbox) : s.reason);
    warnings.push(warning);
    // A rate-limited mailbox is read again from the same place on the next page; a failing one is left out.
    if (warning.code === "rate_limited") next[mailbox] = places[mailbox]!;
  });
  if (!reads.length && failures.length) throw failures[0];

  const shown = new Map(reads.map((r) => [r.mailbox, 0]));
  const messages: MailSummary[] = [];
  while (messages.length < args.limit) {
    let best: MailboxRead | undefined;
    let blocked = false;
    for (const r of reads) {
      const head = r.items[shown.get(r.mailbox)!];
      if (!head) blocked ||= r.more;
      else if (!best || time(head) > time(best.items[shown.get(best.mailbox)!]!)) best = r;
    }
    if (!best || (blocked && messages.length)) break;
    messages.push(best.items[shown.get(best.mailbox)!]!);
    shown.set(best.mailbox, shown.get(best.mailbox)! + 1);
  }
  for (const r of reads) {
    const place = r.after(shown.get(r.mailbox)!);
    if (place) next[r.mailbox] = place;
  }
  return {
    messages,
    next_page_token: encodeMailboxToken(args.query, next),
    mailboxes: MAILBOX_APPS.filter((m) => reads.some((r) => r.mailbox === m)),
    warnings,
  };
}

// ─── service_email_search ─────────────────────────────────────────────────────────────────────────

const emailSearch = connectorTool({
  name: "service_email_search",
  title: "Search all of the user's mailboxes",
  description:
    "Search every mailbox the user connected (Gmail and Outlook) at once, the results merged newest first, each with the mailbox it came from. " +
    "Call it when the answer is in the user's mail and you do not know which mailbox holds it; use service_gmail_search for Gmail's own search syntax. " +
    "query: words, and from:, to:, subject: work in both mailboxes; other operators are each mailbox's own (Gmail's search syntax, Outlook's KQL). " +
    "Returns { messages: [{ id, thread_id, mailbox, from, to, subject, snippet, date }], next_page_token, mailboxes, warnings }: headers and a short preview, never whole bodies. " +
    "mailboxes lists those that answered; when one could not (rate limited, failing, needing reconnection) the others' messages are still returned and warnings names it with a code and what to do. " +
    "Pass next_page_token back as page_token, with the same query, for more. Searches only the mailboxes the user gave this agent: permission_needed (show the user its connect_url) when none, app_not_connected when none of them is connected (mint a link with service_connect).",
  apps: ["gmail", "outlook"],
  needsOutlook: true,
  input: z.object({
    query: z.string().trim().max(1000).default("").describe("Words, from:, to:, subject:. Empty: the newest messages."),
    limit: listLimit,
    page_token: z.string().min(1).max(16_384).optional().describe("next_page_token from the previous answer (with the same query), for the next page."),
  }),
  output: z.object({
    messages: z.array(mailSummary),
    next_page_token: z.string().nullable(),
    mailboxes: z.array(z.enum(MAILBOX_APPS)),
    warnings: z.array(
      z.object({
        mailbox: z.enum(MAILBOX_APPS),
        code: z.enum(["rate_limited", "provider_error", "app_needs_reconnect"]),
        message: z.string(),
        retry_after: z.number().int().optional(),
      }),
    ),
  }),
  run: (ctx, args) => searchMailboxes(ctx, args),
});

export const MICROSOFT_TOOLS: readonly ConnectorToolDefinition[] = [emailSearch];
