// What the connect card says: read from the connect result (POST /v1/profile/connect, unchanged) and
// the call's arguments, as plain data. Runs in the card's page and in tests alike: no DOM, no I/O.
import { APP_NAMES, isApp } from "../../../catalogue";
import { CONNECT_STATUSES, type ConnectStatus, type LinkStatus } from "../../../connect-links/statuses";

/** What GET <connect_url>/status answers, and "unknown" for a link the service no longer knows (404). */
export type LinkState = LinkStatus | "unknown";

/** The connect result, exactly as the service answers it. */
export interface ConnectLinkResult {
  status: ConnectStatus;
  connect_url: string;
  expires_at: string;
  instructions: string;
}

/** The arguments service_connect was called with (the fields the card shows). */
export interface ConnectLinkInput {
  app?: string;
  capability?: string;
  purpose?: string;
  client_name?: string;
}

/** The part of an MCP tool result the card reads. */
export interface ToolResultLike {
  isError?: boolean;
  structuredContent?: unknown;
  content?: Array<{ type: string; text?: string }>;
}

export type ReadResult = { ok: true; result: ConnectLinkResult } | { ok: false; message: string };

const GENERIC_FAILURE = "The link could not be created. Ask the assistant to try again.";

function textOf(result: ToolResultLike): string | undefined {
  return result.content?.find((c) => c.type === "text" && typeof c.text === "string")?.text;
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The connect result inside a tool result: structuredContent, or the JSON text a host without
 * structured content passes on. `linkPrefix` ({MCP_URL}/connect/) is the only place a link may point.
 */
export function readConnectLinkResult(result: ToolResultLike, linkPrefix: string): ReadResult {
  if (result.isError) {
    const body = parseJson(textOf(result)) as { error?: { message?: unknown } } | undefined;
    const message = typeof body?.error?.message === "string" ? body.error.message : GENERIC_FAILURE;
    return { ok: false, message };
  }
  const found = result.structuredContent ?? parseJson(textOf(result));
  const body = (typeof found === "object" && found !== null ? found : undefined) as Partial<Record<keyof ConnectLinkResult, unknown>> | undefined;
  if (
    !body ||
    typeof body.connect_url !== "string" ||
    typeof body.expires_at !== "string" ||
    typeof body.instructions !== "string" ||
    !(CONNECT_STATUSES as readonly unknown[]).includes(body.status) ||
    Number.isNaN(Date.parse(body.expires_at))
  ) {
    return { ok: false, message: GENERIC_FAILURE };
  }
  if (!isLinkOf(body.connect_url, linkPrefix)) return { ok: false, message: "This link is not one of Profile Service's. Do not open it." };
  return { ok: true, result: { status: body.status as ConnectStatus, connect_url: body.connect_url, expires_at: body.expires_at, instructions: body.instructions } };
}

/** A link under the service's connect address, and nothing else (no other host, no path tricks). */
export function isLinkOf(url: string, prefix: string): boolean {
  if (!prefix || !url.startsWith(prefix)) return false;
  return /^mcc_[A-Za-z0-9]{1,64}$/.test(url.slice(prefix.length));
}

/** The arguments, keeping only strings the card knows how to show. */
export function readConnectLinkInput(args: Record<string, unknown> | undefined): ConnectLinkInput {
  const pick = (k: keyof ConnectLinkInput) => {
    const value = args?.[k];
    return typeof value === "string" && value.trim() ? value.trim() : undefined;
  };
  return { app: pick("app"), capability: pick("capability"), purpose: pick("purpose"), client_name: pick("client_name") };
}

function appName(app: string): string {
  return isApp(app) ? APP_NAMES[app] : app;
}

export interface CardText {
  title: string;
  lead: string;
  /** The app named by the call (app, or the app of capability). */
  app?: string;
  /** "send with Gmail" for gmail:send. */
  permission?: string;
  purpose?: string;
}

/** Headline, lead and details for a link, by what it asks and where it stands. */
export function cardText(result: ConnectLinkResult, input: ConnectLinkInput, state: LinkState, opts: { canRenew?: boolean } = {}): CardText {
  const [capApp, capPermission] = input.capability?.split(":") ?? [];
  const appId = input.app ?? capApp;
  const app = appId ? appName(appId) : undefined;
  const permission = capPermission && app ? `${capPermission.replace(/_/g, " ")} with ${app}` : undefined;
  const who = input.client_name ?? "this assistant";
  const details = { app, permission, purpose: input.purpose };

  if (state === "approved") {
    const signedIn = result.status === "authorization_required";
    const done = permission
      ? `${signedIn ? "You signed in and allowed" : "You allowed"} ${who} to ${permission}.`
      : app && result.status !== "import_ready"
        ? signedIn
          ? `You signed in and connected ${app}.`
          : `${app} is connected.`
        : signedIn
          ? `You signed in and approved ${who}.`
          : "Your profile is up to date.";
    return { ...details, title: "You're all set", lead: `${done} You can return to the conversation.` };
  }
  const another = opts.canRenew ? "Get a new one to continue." : "Ask the assistant for a new one to continue.";
  if (state === "expired") return { ...details, title: "This link has expired", lead: `Links work for an hour. ${another}` };
  if (state === "unknown") return { ...details, title: "This link is no longer valid", lead: another };

  switch (result.status) {
    case "authorization_required": {
      const then = permission ? `, then allow it to ${permission}` : app ? `, then connect ${app}` : "";
      return { ...details, title: app ? `Sign in to connect ${app}` : "Sign in to continue", lead: `Open the link to sign in with Profile Service and approve ${who}${then}.` };
    }
    case "connect_app":
      return { ...details, title: app ? `Connect ${app}` : "Connect an app", lead: `Open the link to connect ${app ?? "the app"} to your profile.` };
    case "permission_needed":
      return { ...details, title: "Allow a permission", lead: permission ? `Open the link to allow ${who} to ${permission}.` : `Open the link to review what ${who} asks for.` };
    default:
      return { ...details, title: "Add to your profile", lead: "Nothing is missing. Open the link to bring more of yourself to your profile." };
  }
}

/** What the status line announces (a live region: it changes only when the state does). */
export function statusLine(state: LinkState | "loading" | "failed" | "cancelled", opts: { retrying?: boolean } = {}): string {
  switch (state) {
    case "loading":
      return "Preparing your link…";
    case "pending":
      return opts.retrying ? "Can't check the link right now. Trying again…" : "Waiting for you to finish in the link…";
    case "approved":
      return "Approved. The assistant can carry on.";
    case "expired":
      return "The link expired before it was used.";
    case "unknown":
      return "The link is no longer valid.";
    case "cancelled":
      return "The request was cancelled.";
    default:
      return "No link this time.";
  }
}

/** "in 59 minutes", "in 45 seconds", "2 minutes ago", in the person's language. */
export function relativeExpiry(expiresAt: Date, now: Date, locale?: string): string {
  const seconds = Math.round((expiresAt.getTime() - now.getTime()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  const abs = Math.abs(seconds);
  if (abs < 60) return rtf.format(seconds, "second");
  if (abs < 3600) return rtf.format(Math.trunc(seconds / 60), "minute");
  if (abs < 86_400) return rtf.format(Math.trunc(seconds / 3600), "hour");
  return rtf.format(Math.trunc(seconds / 86_400), "day");
}

/** The expiry as a date and time in the person's time zone: the time alone when it is today. */
export function absoluteExpiry(expiresAt: Date, now: Date, opts: { locale?: string; timeZone?: string } = {}): string {
  const zone = safeTimeZone(opts.timeZone);
  const day = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
  const sameDay = day(expiresAt) === day(now);
  const format = new Intl.DateTimeFormat(opts.locale, {
    timeZone: zone,
    ...(sameDay ? {} : { weekday: "short", month: "short", day: "numeric" }),
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
  return format.format(expiresAt);
}

function safeTimeZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/** How long to wait before asking the link's status again: often at first, then less. */
export function pollDelayMs(elapsedMs: number, failures: number): number {
  const base = elapsedMs < 2 * 60_000 ? 2_000 : elapsedMs < 10 * 60_000 ? 5_000 : 15_000;
  return failures ? Math.min(30_000, base * 2 ** Math.min(failures, 4)) : base;
}
