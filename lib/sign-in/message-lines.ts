// Message lines: the provider-owned numbers an agent texts people from (POST|GET|DELETE
// /v1/auth/sign-in/message-lines). Only a keyed hash and the last four digits of a line's number are
// stored; a line is per agent, key plane and channel.
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { z } from "zod";
import { db } from "../platform/db";
import type { MessageLine, Prisma } from "../platform/db/generated/client";
import type { Plane } from "../platform/db/generated/enums";
import { now as clockNow } from "../platform/clock";
import { ApiError } from "../http/errors";
import { isE164, phoneDigest } from "../users/phone";

/** The channels a line serves; sms when none is named. */
export const MESSAGE_CHANNELS = ["sms", "imessage"] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** A channel as sent: "sms", "imessage" (any case, "iMessage" included). */
export const channelSchema = z.string().trim().toLowerCase().pipe(z.enum(MESSAGE_CHANNELS));

/** The longest label, and the largest metadata object (its JSON), a line keeps. */
export const MAX_LABEL_LENGTH = 100;
export const MAX_METADATA_BYTES = 4096;
export const MAX_METADATA_DEPTH = 5;

export const LINE_MESSAGES = {
  invalidPhone: "The phone number is not valid: send it in E.164 form (+14155550100) or with its country code.",
  phoneRequired: "Send the line's number as phone (or messageLinePhone).",
  phoneInMetadata: "metadata must not hold phone numbers or phone fields; keep the number in phone, which is stored only as a keyed hash and its last four digits.",
  phoneInLabel: "label must not hold a phone number: the line's last four digits are shown as phoneLast4.",
  metadataTooLarge: `metadata is limited to ${MAX_METADATA_BYTES} bytes of JSON, nested at most ${MAX_METADATA_DEPTH} levels deep.`,
  metadataKey: "metadata keys must be non-empty, at most 100 characters, and not __proto__, constructor or prototype.",
  notFound: "No active message line of this agent and key plane has this number.",
} as const;

/**
 * The number in E.164 from what a caller sent, or null: tel:, sms: and imessage: forms (without their
 * ;… or ?… tail), international numbers with their formatting, and digit-only numbers (10 digits are a
 * US number, 11 starting with 1 too; other digit strings are read as a country code and number).
 * Numbers need only be possible, not assigned: the service matches them, it does not dial them.
 */
export function phoneFrom(raw: string): string | null {
  let text = raw.trim().replace(/^(tel|sms|imessage):(\/\/)?/i, "");
  text = text.split(/[;?]/, 1)[0]!.trim();
  if (/%[0-9a-f]{2}/i.test(text)) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return null;
    }
  }
  if (!text || text.length > 40 || /[^\d\s+().-]/.test(text)) return null;
  let international = text;
  if (!text.startsWith("+")) {
    const digits = text.replace(/[\s().-]/g, "");
    if (!/^\d+$/.test(digits)) return null;
    international = digits.length === 10 ? `+1${digits}` : `+${digits}`;
  } else if ((text.match(/\+/g) ?? []).length > 1) {
    return null;
  }
  const parsed = parsePhoneNumberFromString(international);
  return parsed?.isPossible() && isE164(parsed.number) ? parsed.number : null;
}

/** The number of a request (phone, or messageLinePhone), in E.164; 400 invalid_phone otherwise. */
export function requirePhone(input: { phone?: string; messageLinePhone?: string }): string {
  const raw = input.phone ?? input.messageLinePhone;
  if (raw === undefined) throw new ApiError("invalid_phone", LINE_MESSAGES.phoneRequired, { field: "phone" });
  const e164 = phoneFrom(raw);
  if (!e164) throw new ApiError("invalid_phone", LINE_MESSAGES.invalidPhone, { field: input.phone !== undefined ? "phone" : "messageLinePhone" });
  return e164;
}

const phoneFields = {
  phone: z.string().max(64).optional(),
  messageLinePhone: z.string().max(64).optional(),
};

/** POST /v1/auth/sign-in/message-lines. */
export const registerLineBody = z.object({
  channel: channelSchema.default("sms"),
  ...phoneFields,
  label: z.string().trim().max(MAX_LABEL_LENGTH).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** DELETE /v1/auth/sign-in/message-lines: the line's number, and its channel (every channel when none). */
export const revokeLineBody = z.object({ channel: channelSchema.optional(), ...phoneFields });

type Scope = { developerId: string; agentId: string; plane: Plane };

/** A line as every answer shows it: never its number, only the last four digits. */
export function lineView(line: MessageLine) {
  return {
    id: line.id,
    channel: line.channel,
    phoneLast4: line.phoneLast4,
    label: line.label,
    status: line.status,
    metadata: (line.metadata ?? {}) as Record<string, unknown>,
    createdAt: line.createdAt.toISOString(),
    updatedAt: line.updatedAt.toISOString(),
  };
}

// Phone-like metadata. Keys: a word of the key is phone, tel, telephone or msisdn (phoneNumber,
// phone_number, TEL_NO, agentPhone), or the whole key names a number (mobile, cell, sms_number, fax…).
// Values: E.164 numbers ("+" and 8–15 digits, formatted or not), NANP numbers (10 digits, or 11
// starting with 1, formatted or not; as JSON numbers, those shaped like a NANP number), tel:/sms:/imessage:
// forms of either, and such numbers inside text.
const PHONE_WORDS: ReadonlySet<string> = new Set(["phone", "phones", "phonenumber", "phoneno", "telephone", "tel", "msisdn"]);
const PHONE_KEYS: ReadonlySet<string> = new Set([
  "mobile",
  "mobileno",
  "mobilenumber",
  "cell",
  "cellno",
  "cellnumber",
  "cellular",
  "sms",
  "smsnumber",
  "whatsapp",
  "whatsappnumber",
  "fax",
  "faxnumber",
  "callerid",
  "callernumber",
  "contactnumber",
  "e164",
]);
/** Words that hold "phone" without naming a number: devices. */
const NOT_PHONE_WORDS: ReadonlySet<string> = new Set([
  "iphone",
  "iphones",
  "headphone",
  "headphones",
  "microphone",
  "microphones",
  "earphone",
  "earphones",
  "smartphone",
  "smartphones",
  "saxophone",
]);

function isPhoneKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.some((w) => PHONE_WORDS.has(w) || w.includes("msisdn") || (w.includes("phone") && !NOT_PHONE_WORDS.has(w)))) return true;
  return PHONE_KEYS.has(words.join(""));
}

const digitCount = (text: string) => text.replace(/\D/g, "").length;
const isNanpDigits = (digits: string) => digits.length === 10 || (digits.length === 11 && digits.startsWith("1"));
/** A number value is read as a phone number only with a NANP number's shape (area code and exchange 2–9): not a Unix time. */
const isNanpNumber = (digits: string) => /^1?[2-9]\d{2}[2-9]\d{6}$/.test(digits);

/** Whether a text is, or holds, a phone number. */
export function phoneLikeText(raw: string): boolean {
  const text = raw
    .trim()
    .replace(/^(tel|sms|imessage):(\/\/)?/i, "")
    .split(/[;?]/, 1)[0]!
    .trim();
  if (/^\+[\d\s().-]+$/.test(text) && digitCount(text) >= 8 && digitCount(text) <= 15) return true;
  if (/^[\d\s().-]+$/.test(text) && isNanpDigits(text.replace(/\D/g, ""))) return true;
  for (const m of raw.matchAll(/\+\d[\d\s().-]{6,}\d/g)) if (digitCount(m[0]) >= 8 && digitCount(m[0]) <= 15) return true;
  return /(^|[^\d])(\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}(?!\d)/.test(raw);
}

/** The dotted path of the first phone-like key or value in `value` (below `path`), or null. */
export function phoneLikeField(value: unknown, path: string): string | null {
  if (typeof value === "string") return phoneLikeText(value) ? path : null;
  if (typeof value === "number") return Number.isInteger(value) && isNanpNumber(String(Math.abs(value))) ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = phoneLikeField(item, `${path}.${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (isPhoneKey(key) || phoneLikeText(key)) return `${path}.${key}`;
      const found = phoneLikeField(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Refuses metadata that is too big or too deep, or holds a phone number or phone field (400 invalid_metadata, naming the field). */
export function checkMetadata(metadata: Record<string, unknown>): void {
  if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) throw new ApiError("invalid_metadata", LINE_MESSAGES.metadataTooLarge, { field: "metadata" });
  const walk = (value: unknown, path: string, depth: number): void => {
    if (depth > MAX_METADATA_DEPTH) throw new ApiError("invalid_metadata", LINE_MESSAGES.metadataTooLarge, { field: path });
    if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${path}.${i}`, depth + 1));
    if (value && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        if (!key || key.length > 100 || FORBIDDEN_KEYS.has(key)) throw new ApiError("invalid_metadata", LINE_MESSAGES.metadataKey, { field: `${path}.${key}` });
        walk(item, `${path}.${key}`, depth + 1);
      }
    }
  };
  walk(metadata, "metadata", 0);
  const field = phoneLikeField(metadata, "metadata");
  if (field) throw new ApiError("invalid_metadata", LINE_MESSAGES.phoneInMetadata, { field });
}

/**
 * Registers the agent's line for this number and channel, or makes an existing one (revoked too)
 * active again; a label or metadata given replaces the stored one, one not given is kept. `created`
 * says whether the line is new.
 */
export async function registerLine(input: Scope & z.output<typeof registerLineBody>) {
  const e164 = requirePhone(input);
  if (input.label && phoneLikeText(input.label)) throw new ApiError("invalid_request", LINE_MESSAGES.phoneInLabel, { field: "label" });
  if (input.metadata) checkMetadata(input.metadata);
  const metadata = input.metadata as Prisma.InputJsonObject | undefined;
  const { phoneHash, phoneLast4 } = phoneDigest(e164);
  const prisma = await db();
  const scope = { developerId: input.developerId, agentId: input.agentId, plane: input.plane };
  // Two registrations at once: one inserts, the other finds the line and updates it.
  const [created] = await prisma.messageLine.createManyAndReturn({
    data: [{ ...scope, channel: input.channel, phoneHash, phoneLast4, label: input.label ?? "", metadata: metadata ?? {} }],
    skipDuplicates: true,
  });
  if (created) return { line: created, created: true };
  const line = await prisma.messageLine.update({
    where: { agentId_plane_channel_phoneHash: { agentId: input.agentId, plane: input.plane, channel: input.channel, phoneHash }, developerId: input.developerId },
    data: { status: "active", revokedAt: null, label: input.label, metadata },
  });
  return { line, created: false };
}

/** The agent's active lines in this plane, oldest first. */
export async function listLines(scope: Scope) {
  return (await db()).messageLine.findMany({
    where: { developerId: scope.developerId, agentId: scope.agentId, plane: scope.plane, status: "active" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

/**
 * Revokes the agent's active line(s) with this number: on the channel named, or on every channel.
 * 404 not_found when no active line matches. A revoked line serves no message URL until registered again.
 */
export async function revokeLines(input: Scope & z.output<typeof revokeLineBody>) {
  const { phoneHash } = phoneDigest(requirePhone(input));
  const revoked = await (
    await db()
  ).messageLine.updateManyAndReturn({
    where: { developerId: input.developerId, agentId: input.agentId, plane: input.plane, phoneHash, status: "active", ...(input.channel ? { channel: input.channel } : {}) },
    data: { status: "revoked", revokedAt: clockNow() },
  });
  if (!revoked.length) throw new ApiError("not_found", LINE_MESSAGES.notFound);
  return revoked.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
}

/** The active line of this agent, plane and channel with this number (E.164), or null. */
export async function activeLineFor(input: { agentId: string; plane: Plane; channel: string; e164: string }): Promise<{ id: string; phoneLast4: string } | null> {
  const { phoneHash } = phoneDigest(input.e164);
  const line = await (
    await db()
  ).messageLine.findUnique({
    where: { agentId_plane_channel_phoneHash: { agentId: input.agentId, plane: input.plane, channel: input.channel, phoneHash } },
    select: { id: true, phoneLast4: true, status: true },
  });
  return line?.status === "active" ? { id: line.id, phoneLast4: line.phoneLast4 } : null;
}
