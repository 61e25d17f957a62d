// The Gmail API v1 (users.messages list, get and send) for the mail tools and the memories distiller:
// a search lists message ids, then reads each one's headers (format=metadata) and snippet, never its
// body; a send posts an RFC 5322 message (raw, base64url). A development connection answers from the
// synthetic mailbox, and its sends land in the development e-mail outbox, never on the network.
import { randomBytes } from "node:crypto";
import { now as clockNow } from "../../platform/clock";
import { emailOutboxDriver } from "../../email";
import { env } from "../../env";
import type { UsableConnection } from "../tools/definition";
import { DEVELOPMENT_PROVIDER } from "../types";
import { developmentMatch, developmentMessages, developmentPage, type DevelopmentMessage } from "./development-data";
import { GOOGLE_BATCH_MAX_CALLS, googleBatch } from "./google-batch";
import { ProviderFailure } from "./http";
import { signatureBlock, validateOutgoingMail, type MailPage, type MailSearch, type MailSummary, type OutgoingMail } from "./mail";
import { base64url, messageIds, plainTextMessage } from "./mime";
import type { AppSnapshot } from "../../profile/distill/snapshot";

/** Sent messages the distiller reads. */
const SNAPSHOT_SENT = 5;

interface GmailHeader {
  name: string;
  value: string;
}
interface GmailPart {
  mimeType?: string;
  headers?: GmailHeader[];
  body?: { data?: string; size?: number };
  parts?: GmailPart[];
}
interface GmailMessage {
  id: string;
  threadId?: string;
  snippet?: string;
  internalDate?: string;
  payload?: GmailPart;
}
interface GmailList {
  messages?: Array<{ id: string; threadId?: string }>;
  nextPageToken?: string;
}

const messagesUrl = (path = "") => new URL(`${env().GMAIL_API_URL}/gmail/v1/users/me/messages${path}`);
const batchUrl = () => new URL(`${env().GMAIL_API_URL}/batch/gmail/v1`);

function header(message: GmailMessage, name: string): string | undefined {
  return message.payload?.headers?.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
}

/** The addresses of an address-list header, each as written ("Ada <ada@example.com>"); commas inside quotes or <> do not split. */
export function splitAddresses(value: string | undefined): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  let angle = 0;
  for (const ch of value ?? "") {
    if (ch === '"') quoted = !quoted;
    else if (ch === "<" && !quoted) angle++;
    else if (ch === ">" && !quoted && angle) angle--;
    if (ch === "," && !quoted && !angle) {
      out.push(current);
      current = "";
    } else current += ch;
  }
  out.push(current);
  return out.map((a) => a.replace(/\s+/g, " ").trim()).filter(Boolean);
}

/** Gmail's snippets are HTML-escaped; the agent gets the text. */
function unescapeHtml(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] !== "#") return named[e.toLowerCase()] ?? all;
    const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

function isoDate(message: GmailMessage): string {
  const ms = Number(message.internalDate);
  if (Number.isFinite(ms) && ms > 0) return new Date(ms).toISOString();
  const parsed = Date.parse(header(message, "Date") ?? "");
  return Number.isNaN(parsed) ? "" : new Date(parsed).toISOString();
}

function summary(message: GmailMessage): MailSummary {
  return {
    id: message.id,
    thread_id: message.threadId ?? null,
    mailbox: "gmail",
    from: header(message, "From") ?? "",
    to: splitAddresses(header(message, "To")),
    subject: header(message, "Subject") ?? "",
    snippet: unescapeHtml(message.snippet ?? ""),
    date: isoDate(message),
  };
}

function developmentSummary(m: DevelopmentMessage): MailSummary {
  return { id: m.id, thread_id: m.threadId, mailbox: "gmail", from: m.from, to: m.to, subject: m.subject, snippet: m.snippet, date: m.date.toISOString() };
}

function messageUrl(id: string, format: "metadata" | "full", headers: readonly string[] = []): URL {
  const url = messagesUrl(`/${encodeURIComponent(id)}`);
  url.searchParams.set("format", format);
  for (const h of headers) url.searchParams.append("metadataHeaders", h);
  return url;
}

/** users.messages.get; null for a message deleted since it was listed. */
async function readMessage(conn: UsableConnection, id: string, format: "metadata" | "full", headers: readonly string[] = []): Promise<GmailMessage | null> {
  try {
    return await conn.fetch<GmailMessage>({ url: messageUrl(id, format, headers) });
  } catch (err) {
    if (err instanceof ProviderFailure && err.status === 404) return null;
    throw err;
  }
}

/**
 * users.messages.get for each id, in Gmail's batch requests (GOOGLE_BATCH_MAX_CALLS calls each), in
 * the ids' order; null for a message deleted since it was listed.
 */
async function readMessages(conn: UsableConnection, ids: readonly string[], format: "metadata" | "full", headers: readonly string[] = []): Promise<Array<GmailMessage | null>> {
  if (ids.length === 1) return [await readMessage(conn, ids[0]!, format, headers)];
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += GOOGLE_BATCH_MAX_CALLS) batches.push(ids.slice(i, i + GOOGLE_BATCH_MAX_CALLS));
  // A search reads at most 50 messages: one batch.
  const read = await Promise.all(
    batches.map((batch) =>
      conn.fetch<Array<GmailMessage | null>>(
        googleBatch(
          conn.app,
          batchUrl(),
          batch.map((id) => messageUrl(id, format, headers)),
          { absent: [404] },
        ),
      ),
    ),
  );
  return read.flat();
}

/** A page of the messages Gmail's search syntax finds (q), newest first, as summaries. */
export async function searchGmail(conn: UsableConnection, input: MailSearch): Promise<MailPage> {
  if (conn.provider === DEVELOPMENT_PROVIDER) {
    const found = developmentMessages(conn.accountEmail ?? "", clockNow()).filter((m) =>
      developmentMatch(input.query, { from: m.from, to: m.to.join(" "), subject: m.subject, snippet: m.snippet, in: m.sent ? "sent" : "inbox" }),
    );
    const page = developmentPage(found, input.limit, input.pageToken);
    return { messages: page.items.map(developmentSummary), next_page_token: page.next };
  }
  const url = messagesUrl();
  if (input.query) url.searchParams.set("q", input.query);
  url.searchParams.set("maxResults", String(input.limit));
  if (input.pageToken) url.searchParams.set("pageToken", input.pageToken);
  const list = await conn.fetch<GmailList | null>({ url });
  const read = await readMessages(
    conn,
    (list?.messages ?? []).map((m) => m.id),
    "metadata",
    ["From", "To", "Subject", "Date"],
  );
  return { messages: read.filter((m): m is GmailMessage => !!m).map(summary), next_page_token: list?.nextPageToken ?? null };
}

/** Sends a plain-text message from the person's Gmail (checked first: validateOutgoingMail). */
export async function sendGmail(conn: UsableConnection, mail: OutgoingMail): Promise<{ id: string; thread_id: string | null }> {
  const valid = validateOutgoingMail(mail, "gmail");
  if (conn.provider === DEVELOPMENT_PROVIDER) return sendDevelopment(conn, valid);
  let thread: { id: string; inReplyTo: string; references: string[] } | undefined;
  if (valid.replyTo) {
    // Threading: Gmail files the reply in the thread; other clients follow In-Reply-To and References.
    const original = await readMessage(conn, valid.replyTo, "metadata", ["Message-ID", "References"]);
    const messageId = messageIds(original ? header(original, "Message-ID") : undefined)[0];
    if (original?.threadId) thread = { id: original.threadId, inReplyTo: messageId ?? "", references: messageIds(header(original, "References")) };
  }
  const raw = base64url(plainTextMessage(valid, thread));
  const sent = await conn.fetch<{ id: string; threadId?: string }>({ method: "POST", url: messagesUrl("/send"), json: { raw, ...(thread ? { threadId: thread.id } : {}) } });
  return { id: sent.id, thread_id: sent.threadId ?? null };
}

/** A development connection's send: kept in the development e-mail outbox (/dev/email-outbox). */
async function sendDevelopment(conn: UsableConnection, mail: OutgoingMail): Promise<{ id: string; thread_id: string | null }> {
  const lines = [`From: ${conn.accountEmail ?? "(development mailbox)"}`, ...(mail.cc.length ? [`Cc: ${mail.cc.join(", ")}`] : []), ""];
  await emailOutboxDriver.send({ to: mail.to.join(", "), subject: mail.subject, text: `${lines.join("\n")}\n${mail.body}` });
  return { id: `dev-sent-${randomBytes(8).toString("hex")}`, thread_id: mail.replyTo ? `dev-thr-${mail.replyTo}` : null };
}

function plainText(part: GmailPart | undefined): string | null {
  if (!part) return null;
  if (part.mimeType === "text/plain" && part.body?.data) return Buffer.from(part.body.data, "base64url").toString("utf8");
  for (const child of part.parts ?? []) {
    const text = plainText(child);
    if (text !== null) return text;
  }
  return null;
}

function displayName(from: string): string | null {
  const m = /^\s*"?([^"<]*?)"?\s*<[^>]+>\s*$/.exec(from);
  return m?.[1]?.trim() || null;
}

function address(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}

/**
 * For the memories distiller: the person's last few sent messages, each reduced to the From header's
 * display name and address and the signature block. The rest of each body is read here and dropped.
 */
export async function snapshotGmail(conn: UsableConnection): Promise<AppSnapshot> {
  if (conn.provider === DEVELOPMENT_PROVIDER) {
    const sent = developmentMessages(conn.accountEmail ?? "", clockNow())
      .filter((m) => m.sent)
      .slice(0, SNAPSHOT_SENT);
    return {
      app: conn.app,
      account_email: conn.accountEmail,
      items: sent.map((m) => ({ kind: "sent_mail", from_name: displayName(m.from), from_address: address(m.from), signature: m.signature, date: m.date.toISOString() })),
    };
  }
  const url = messagesUrl();
  url.searchParams.set("q", "in:sent");
  url.searchParams.set("maxResults", String(SNAPSHOT_SENT));
  const list = await conn.fetch<GmailList | null>({ url });
  const messages = await readMessages(
    conn,
    (list?.messages ?? []).map((m) => m.id),
    "full",
  );
  const items = messages
    .filter((m): m is GmailMessage => !!m)
    .map((message) => {
      const from = header(message, "From") ?? conn.accountEmail ?? "";
      const text = plainText(message.payload);
      return {
        kind: "sent_mail" as const,
        from_name: displayName(from),
        from_address: address(from),
        signature: text === null ? null : signatureBlock(text),
        date: isoDate(message),
      };
    });
  return { app: conn.app, account_email: conn.accountEmail, items };
}
