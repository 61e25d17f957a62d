// A plain-text message in RFC 5322 / MIME form, as Gmail's users.messages.send takes it (raw,
// base64url). Every header value is either a checked address, a checked message id, or RFC 2047
// encoded text, so nothing a caller writes can start a header line of its own.
import { isMailAddress, type OutgoingMail } from "./mail";

// An encoded word is at most 75 characters: "=?UTF-8?B?" and "?=" around 60 base64 characters (45 bytes).
const ENCODED_WORD_BYTES = 45;
const MESSAGE_ID = /^<[\x21-\x3b\x3d\x3f-\x7e]+>$/;

/** RFC 2047 encoded words (UTF-8, base64), folded one per line: any text, as a header value. */
export function encodeHeaderText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text) && text.length <= 900 && !text.includes("=?")) return text;
  const words: string[] = [];
  let chunk = "";
  for (const ch of text) {
    if (Buffer.byteLength(chunk + ch, "utf8") > ENCODED_WORD_BYTES) {
      words.push(chunk);
      chunk = "";
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, "utf8").toString("base64")}?=`).join("\r\n ");
}

function addresses(list: readonly string[]): string {
  for (const a of list) if (!isMailAddress(a)) throw new Error("an unchecked address reached a header");
  return list.join(",\r\n ");
}

/** The message ids among a References or Message-ID header, each as <id>. */
export function messageIds(header: string | undefined): string[] {
  return (header ?? "").split(/\s+/).filter((id) => MESSAGE_ID.test(id));
}

/** The whole message, CRLF line ends, body in base64 lines of 76. */
export function plainTextMessage(mail: OutgoingMail, thread?: { inReplyTo: string; references: string[] }): string {
  const headers = [`To: ${addresses(mail.to)}`];
  if (mail.cc.length) headers.push(`Cc: ${addresses(mail.cc)}`);
  headers.push(`Subject: ${encodeHeaderText(mail.subject)}`);
  if (thread && MESSAGE_ID.test(thread.inReplyTo)) {
    headers.push(`In-Reply-To: ${thread.inReplyTo}`);
    const refs = [...thread.references.filter((r) => MESSAGE_ID.test(r)), thread.inReplyTo];
    headers.push(`References: ${refs.join("\r\n ")}`);
  }
  headers.push("MIME-Version: 1.0", 'Content-Type: text/plain; charset="UTF-8"', "Content-Transfer-Encoding: base64");
  const body = Buffer.from(mail.body.replace(/\r?\n/g, "\r\n"), "utf8").toString("base64").replace(/.{76}/g, "$&\r\n");
  return `${headers.join("\r\n")}\r\n\r\n${body}\r\n`;
}

/** base64url without padding, as Gmail's raw field takes it. */
export function base64url(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}
