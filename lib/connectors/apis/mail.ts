// What the mail tools exchange, whichever mailbox answers: a message as a search lists it (headers and
// a snippet, never a whole body), and a message to send, checked the same way whichever mailbox sends it.
import type { MailboxApp } from "../../catalogue";
import { ApiError } from "../../http/errors";

export interface MailSummary {
  /** The provider's message id. */
  id: string;
  thread_id: string | null;
  mailbox: MailboxApp;
  from: string;
  to: string[];
  subject: string;
  /** The provider's short preview of the body. */
  snippet: string;
  /** When it was sent or received (ISO 8601). */
  date: string;
}

export interface MailPage {
  messages: MailSummary[];
  /** Pass back as page_token for the next page; null on the last. */
  next_page_token: string | null;
}

export interface MailSearch {
  query: string;
  limit: number;
  pageToken?: string;
}

export interface OutgoingMail {
  to: string[];
  cc: string[];
  subject: string;
  /** Plain text. */
  body: string;
  /** A message of the same mailbox this one answers (threading). */
  replyTo?: string;
}

/** Recipients (to and cc together) one message may have. */
export const MAX_RECIPIENTS = 50;
/** RFC 5322's line limit, which a subject must fit. */
export const MAX_SUBJECT_CHARS = 998;
/** The body's size in UTF-8 bytes. */
export const MAX_BODY_BYTES = 100 * 1024;

// A plain address (no display name, comment or route): dot-atom local part, dotted domain with a letter TLD.
const ADDRESS = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
// Control characters (CR and LF among them) have no place in a header.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The characters of a message id, per mailbox: Gmail's ids are hexadecimal, Microsoft Graph's URL-safe
 * base64 with its padding (and the development mailbox's are like dev-msg-01). An id becomes a path
 * segment of the provider's URL, where "." and ".." would be resolved as a directory (/me/messages/../reply
 * is /me/reply): neither alphabet has a dot, so no id can climb out of the message it names.
 */
export const MESSAGE_ID_ALPHABETS: Readonly<Record<MailboxApp, RegExp>> = {
  gmail: /^[A-Za-z0-9_-]{1,512}$/,
  outlook: /^[A-Za-z0-9_=-]{1,512}$/,
};

/** What a reply_to that is no message id is told. */
export const REPLY_TO_MESSAGE = 'reply_to is the id of a message in the same mailbox, as a search returned it (letters, digits, "-", "_"; "=" for Outlook).';

/** Whether `id` can be a message id of `mailbox` (of either mailbox when none is named yet). */
export function isMessageId(id: string, mailbox?: MailboxApp): boolean {
  if (id === "." || id === "..") return false;
  return mailbox ? MESSAGE_ID_ALPHABETS[mailbox].test(id) : Object.values(MESSAGE_ID_ALPHABETS).some((alphabet) => alphabet.test(id));
}

/** Whether `text` is one plain e-mail address, usable as is in a To or Cc header. */
export function isMailAddress(text: string): boolean {
  return text.length <= 254 && ADDRESS.test(text) && text.indexOf("@") <= 64;
}

/**
 * The message to send, checked before any mailbox is asked: plain addresses only (no display names, so
 * nothing but the address reaches a header), 1 to 50 recipients, a subject of one line up to 998
 * characters, a body up to 100 KB, a reply_to that is a message id of the mailbox that sends (of either,
 * before it is known). Throws invalid_request naming each field at fault.
 */
export function validateOutgoingMail(input: OutgoingMail, mailbox?: MailboxApp): OutgoingMail {
  const fields: Array<{ field: string; message: string }> = [];
  const to = input.to.map((a) => a.trim());
  const cc = input.cc.map((a) => a.trim());
  const check = (name: "to" | "cc", list: string[]) =>
    list.forEach((address, i) => {
      if (!isMailAddress(address))
        fields.push({ field: `${name}.${i}`, message: `${JSON.stringify(address.slice(0, 100))} is not an e-mail address (give a plain address such as ada@example.com).` });
    });
  if (!to.length) fields.push({ field: "to", message: "Name at least one recipient." });
  check("to", to);
  check("cc", cc);
  if (to.length + cc.length > MAX_RECIPIENTS) fields.push({ field: "to", message: `At most ${MAX_RECIPIENTS} recipients (to and cc together).` });
  if (CONTROL.test(input.subject)) fields.push({ field: "subject", message: "The subject is one line: no line breaks or control characters." });
  if (input.subject.length > MAX_SUBJECT_CHARS) fields.push({ field: "subject", message: `The subject is at most ${MAX_SUBJECT_CHARS} characters.` });
  if (Buffer.byteLength(input.body, "utf8") > MAX_BODY_BYTES) fields.push({ field: "body", message: `The body is at most ${MAX_BODY_BYTES / 1024} KB.` });
  if (input.replyTo !== undefined && !isMessageId(input.replyTo, mailbox)) fields.push({ field: "reply_to", message: REPLY_TO_MESSAGE });
  if (fields.length) throw new ApiError("invalid_request", "This message cannot be sent as it is.", { fields });
  return { ...input, to, cc };
}

/** Lines a signature block may have. */
const SIGNATURE_LINES = 5;

/**
 * The signature block of a plain-text message the person wrote, and nothing else of it: the lines after
 * a "-- " delimiter, or else the last short block (up to five short lines after a blank line, none a sentence), with
 * quoted text and the reply header before it left out. Null when there is none.
 */
export function signatureBlock(text: string): string | null {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  // What the person wrote ends where the quoted message begins.
  const quoteAt = lines.findIndex((l, i) => /^>/.test(l) || (/^On .+wrote:\s*$/.test(l) && /^>/.test(lines[i + 1] ?? ">")));
  const own = (quoteAt >= 0 ? lines.slice(0, quoteAt) : lines).map((l) => l.trimEnd());
  while (own.length && !own[own.length - 1]) own.pop();
  const delimiter = own.findIndex((l) => l === "--" || l === "-- ");
  let block: string[];
  if (delimiter >= 0) block = own.slice(delimiter + 1);
  else {
    const blank = own.lastIndexOf("");
    if (blank <= 0) return null;
    block = own.slice(blank + 1);
    // Sentences are the message, not a signature: a block of short lines that end without a full stop.
    if (block.length > SIGNATURE_LINES || block.some((l) => l.length > 60 || /[.?!]$/.test(l))) return null;
  }
  const kept = block
    .filter((l) => l.trim())
    .slice(0, SIGNATURE_LINES)
    .map((l) => l.trim());
  return kept.length ? kept.join("\n") : null;
}
