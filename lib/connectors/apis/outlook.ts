// Outlook mail through Microsoft Graph v1.0: a search of the person's messages (GET /me/messages with
// $search, headers and Graph's body preview only, paged by @odata.nextLink), sending a plain-text message
// (POST /me/sendMail, or /me/messages/{id}/reply to answer one in its thread), and the last few sent
// messages' sender and signature block for the memories distiller. A development connection answers
// from the synthetic mailbox, and its sends land in the development e-mail outbox, never on the network.
import { now as clockNow } from "../../platform/clock";
import { emailOutboxDriver } from "../../email";
import { env } from "../../env";
import { ApiError } from "../../http/errors";
import type { UsableConnection } from "../tools/definition";
import { DEVELOPMENT_PROVIDER } from "../types";
import { developmentMatch, developmentOutlookMessages, developmentPage, type DevelopmentMessage } from "./development-data";
import { signatureBlock, validateOutgoingMail, type MailPage, type MailSearch, type MailSummary, type OutgoingMail } from "./mail";
import type { AppSnapshot } from "../../profile/distill/snapshot";

/** Sent messages the distiller reads. */
const SNAPSHOT_SENT = 5;
/** The message properties a search asks Graph for ($select): no body. */
const SEARCH_FIELDS = "id,conversationId,subject,bodyPreview,from,toRecipients,receivedDateTime";
/** The query options a page token may carry back to GET /me/messages (those of Graph's @odata.nextLink). */
const PAGE_OPTIONS: ReadonlySet<string> = new Set(["$search", "$top", "$select", "$orderby", "$filter", "$skip", "$skiptoken"]);

interface GraphAddress {
  emailAddress?: { name?: string; address?: string };
}
interface GraphMessage {
  id: string;
  conversationId?: string;
  subject?: string | null;
  bodyPreview?: string;
  from?: GraphAddress | null;
  toRecipients?: GraphAddress[];
  receivedDateTime?: string;
  sentDateTime?: string;
  body?: { contentType?: string; content?: string };
}
interface GraphList {
  value?: GraphMessage[];
  "@odata.nextLink"?: string;
}

const graph = (path: string) => new URL(`${env().MICROSOFT_GRAPH_URL}${path}`);

/** An address as a header writes it: "Name <address>", or the address alone. */
function written(a: GraphAddress | null | undefined): string {
  const name = a?.emailAddress?.name?.trim();
  const address = a?.emailAddress?.address?.trim() ?? "";
  return name && name !== address ? `${name} <${address}>` : address;
}

function iso(text: string | undefined): string {
  const at = Date.parse(text ?? "");
  return Number.isNaN(at) ? "" : new Date(at).toISOString();
}

function summary(m: GraphMessage): MailSummary {
  return {
    id: m.id,
    thread_id: m.conversationId ?? null,
    mailbox: "outlook",
    from: written(m.from),
    to: (m.toRecipients ?? []).map(written).filter(Boolean),
    subject: m.subject ?? "",
    snippet: (m.bodyPreview ?? "").replace(/\s+/g, " ").trim(),
    date: iso(m.receivedDateTime ?? m.sentDateTime),
  };
}

function developmentSummary(m: DevelopmentMessage): MailSummary {
  return { id: m.id, thread_id: m.threadId, mailbox: "outlook", from: m.from, to: m.to, subject: m.subject, snippet: m.snippet, date: m.date.toISOString() };
}

/** A search term as the value of $search: in double quotes, with " and \ escaped (KQL). */
export function graphSearchValue(query: string): string {
  return `"${query.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function invalidPageToken(): ApiError {
  return new ApiError("invalid_request", "page_token is not one this search gave.", {
    fields: [{ field: "page_token", message: "Pass back next_page_token exactly as it was answered." }],
  });
}

/**
 * Graph's @odata.nextLink as a page token: its query options only (base64url), so a token passed back
 * can only ever address GET {MICROSOFT_GRAPH_URL}/me/messages, whatever it says.
 */
function pageTokenOf(nextLink: string | undefined): string | null {
  if (!nextLink) return null;
  let link: URL;
  try {
    link = new URL(nextLink);
  } catch {
    return null;
  }
  const options = new URLSearchParams([...link.searchParams].filter(([k]) => PAGE_OPTIONS.has(k)));
  return Buffer.from(options.toString()).toString("base64url");
}

function pageUrl(token: string): URL {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw invalidPageToken();
  const options = new URLSearchParams(Buffer.from(token, "base64url").toString("utf8"));
  const keys = [...options.keys()];
  const top = options.get("$top");
  if (!keys.length || keys.some((k) => !PAGE_OPTIONS.has(k)) || new Set(keys).size !== keys.length || (top !== null && !/^\d{1,4}$/.test(top))) throw invalidPageToken();
  const url = graph("/me/messages");
  url.search = options.toString();
  return url;
}

/**
 * A page of the person's Outlook messages, newest first: those Graph's $search finds for `query` (KQL:
 * words, from:, to:, subject:), or the newest when it is empty. Headers and Graph's body preview only.
 */
export async function searchOutlook(conn: UsableConnection, input: MailSearch): Promise<MailPage> {
  if (conn.provider === DEVELOPMENT_PROVIDER) {
    const found = developmentOutlookMessages(conn.accountEmail ?? "", clockNow()).filter((m) =>
      developmentMatch(input.query, { from: m.from, to: m.to.join(" "), subject: m.subject, snippet: m.snippet }),
    );
    const page = developmentPage(found, input.limit, input.pageToken);
    return { messages: page.items.map(developmentSummary), next_page_token: page.next };
  }
  let url: URL;
  if (input.pageToken) url = pageUrl(input.pageToken);
  else {
    url = graph("/me/messages");
    // $search answers by sent time already and takes no $orderby.
    if (input.query) url.searchParams.set("$search", graphSearchValue(input.query));
    else url.searchParams.set("$orderby", "receivedDateTime desc");
    url.searchParams.set("$top", String(input.limit));
    url.searchParams.set("$select", SEARCH_FIELDS);
  }
  const list = await conn.fetch<GraphList | null>({ url });
  return { messages: (list?.value ?? []).map(summary), next_page_token: pageTokenOf(list?.["@odata.nextLink"]) };
}

const recipients = (list: readonly string[]) => list.map((address) => ({ emailAddress: { address } }));

/** Sends from the person's Outlook mailbox (checked first: validateOutgoingMail); Graph answers 202 with no message id. */
export async function sendOutlook(conn: UsableConnection, mail: OutgoingMail): Promise<{ id: string | null }> {
  const valid = validateOutgoingMail(mail, "outlook");
  if (conn.provider === DEVELOPMENT_PROVIDER) {
    const cc = valid.cc.length ? `Cc: ${valid.cc.join(", ")}\n` : "";
    await emailOutboxDriver.send({ to: valid.to.join(", "), subject: valid.subject, text: `From: ${conn.accountEmail ?? "(development mailbox)"}\n${cc}\n${valid.body}` });
    return { id: null };
  }
  const message = { subject: valid.subject, body: { contentType: "Text", content: valid.body }, toRecipients: recipients(valid.to), ccRecipients: recipients(valid.cc) };
  if (valid.replyTo) {
    // A reply is kept in Sent Items as every message sent from the mailbox is.
    await conn.fetch({ method: "POST", url: graph(`/me/messages/${encodeURIComponent(valid.replyTo)}/reply`), json: { message } });
  } else {
    await conn.fetch({ method: "POST", url: graph("/me/sendMail"), json: { message, saveToSentItems: true } });
  }
  return { id: null };
}

/**
 * What the person wrote in a sent message's text: Outlook puts the message it answers below a rule
 * line or a "From: … Sent: …" block, which is not theirs.
 */
function ownText(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const quoteAt = lines.findIndex(
    (l, i) => /^\s*_{10,}\s*$/.test(l) || /^\s*-{2,}\s*Original Message\s*-{2,}\s*$/i.test(l) || (/^\s*From: /.test(l) && /^\s*Sent: /.test(lines[i + 1] ?? "")),
  );
  return (quoteAt >= 0 ? lines.slice(0, quoteAt) : lines).join("\n");
}

/**
 * For the memories distiller: the person's last few sent messages (Sent Items), each reduced to the
 * sender's display name and address and the signature block. The rest of each body is read here (as
 * text) and dropped.
 */
export async function snapshotOutlook(conn: UsableConnection): Promise<AppSnapshot> {
  if (conn.provider === DEVELOPMENT_PROVIDER) {
    const sent = developmentOutlookMessages(conn.accountEmail ?? "", clockNow())
      .filter((m) => m.sent)
      .slice(0, SNAPSHOT_SENT);
    return {
      app: conn.app,
      account_email: conn.accountEmail,
      items: sent.map((m) => ({
        kind: "sent_mail",
        from_name: /^(.*?)\s*</.exec(m.from)?.[1] || null,
        from_address: conn.accountEmail ?? "",
        signature: m.signature,
        date: m.date.toISOString(),
      })),
    };
  }
  const url = graph("/me/mailFolders/sentitems/messages");
  url.searchParams.set("$top", String(SNAPSHOT_SENT));
  url.searchParams.set("$select", "from,sentDateTime,body");
  url.searchParams.set("$orderby", "sentDateTime desc");
  const list = await conn.fetch<GraphList | null>({ url, headers: { prefer: 'outlook.body-content-type="text"' } });
  const items = (list?.value ?? []).map((m) => {
    const text = m.body?.contentType?.toLowerCase() === "text" ? (m.body.content ?? "") : null;
    return {
      kind: "sent_mail" as const,
      from_name: m.from?.emailAddress?.name?.trim() || null,
      from_address: m.from?.emailAddress?.address ?? conn.accountEmail ?? "",
      signature: text === null ? null : signatureBlock(ownText(text)),
      date: iso(m.sentDateTime),
    };
  });
  return { app: conn.app, account_email: conn.accountEmail, items };
}
