// The spec's bulk-import caps, enforced by the parsers so an over-size export is refused rather than cut.
import { ExportFormatError } from "./types";

export const MAX_CONVERSATIONS_PER_PROFILE = 250;
export const MAX_MESSAGES_PER_CONVERSATION = 1_000;
export const MAX_MESSAGE_CHARS = 20_000;

const fmt = (n: number) => n.toLocaleString("en-US");

/** Characters as a person counts them (code points), so an emoji is one character, not two. */
export function charCount(text: string): number {
  // Code points never outnumber UTF-16 units, so the short path is exact.
  if (text.length <= MAX_MESSAGE_CHARS) return text.length;
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function assertConversationCount(count: number): void {
  if (count > MAX_CONVERSATIONS_PER_PROFILE) {
    throw new ExportFormatError(`export has ${fmt(count)} conversations, over the cap of ${fmt(MAX_CONVERSATIONS_PER_PROFILE)} conversations per profile`);
  }
}

export function assertMessageCount(count: number, where: string): void {
  if (count > MAX_MESSAGES_PER_CONVERSATION) {
    throw new ExportFormatError(`${where} has ${fmt(count)} messages, over the cap of ${fmt(MAX_MESSAGES_PER_CONVERSATION)} messages per conversation`);
  }
}

export function assertMessageChars(text: string, where: string): void {
  const count = charCount(text);
  if (count > MAX_MESSAGE_CHARS) {
    throw new ExportFormatError(`${where} has ${fmt(count)} characters, over the cap of ${fmt(MAX_MESSAGE_CHARS)} characters per message`);
  }
}
