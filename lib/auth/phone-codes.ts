// Six-digit sign-in codes sent by text message. A code lives 10 minutes and takes at most 5 wrong
// tries; a new one may be sent 30 seconds after the last, and sending is limited per number and per
// IP address. Known and unknown numbers get exactly the same answer. For the sandbox's synthetic
// number alone (test plane) the code is always 424242 and no message is sent; any other test-plane
// number gets a real code, sent and limited like a live one.
import { randomInt, randomUUID } from "node:crypto";
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { now as clockNow } from "../clock";
import { keyedHash, safeEqual } from "../crypto";
import { db } from "../db";
import type { Plane } from "../db/generated/enums";
import { env } from "../env";
import { ipLimitKey } from "../http/request";
import { lazyLimiter } from "../ratelimit";
import { SANDBOX_PHONE, SANDBOX_VERIFICATION_CODE } from "../sandbox/seed";
import { smsDriver } from "../sms";
import { phoneDigest } from "../users/phone";
import { CODE_LENGTH, CODE_TTL_SECONDS, MAX_CODE_ATTEMPTS, RESEND_AFTER_SECONDS, tryCode } from "./code-tries";

export { CODE_LENGTH, CODE_TTL_SECONDS, MAX_CODE_ATTEMPTS, RESEND_AFTER_SECONDS };
/** Codes sent to one number per hour, and requested from one IP address per hour (the default of SMS_CODES_PER_IP_PER_HOUR). */
export const SEND_LIMITS = { perNumberPerHour: 5, perIpPerHour: 20 } as const;

const CODE_HASH_PURPOSE = "phone-code";

export type CodeErrorReason = "resend_too_soon" | "rate_limited" | "country_not_served" | "expired" | "too_many_attempts" | "wrong_code" | "send_failed";

export const CODE_MESSAGES: Record<CodeErrorReason, string> = {
  resend_too_soon: "A code was just sent. You can ask for a new one in a few seconds.",
  rate_limited: "Too many codes were sent. Try again later.",
  country_not_served: "This service cannot send text messages to numbers of this country.",
  expired: "This code has expired. Send a new one.",
  too_many_attempts: "Too many wrong tries. Send a new code.",
  wrong_code: "That code is not right. Check the message and try again.",
  send_failed: "We could not send a text message just now. Try again in a moment.",
};

export class CodeError extends Error {
  constructor(
    readonly reason: CodeErrorReason,
    readonly retryAfter?: number,
    readonly attemptsLeft?: number,
  ) {
    super(CODE_MESSAGES[reason]);
    this.name = "CodeError";
  }
}

const sendLimiters = {
  number: lazyLimiter(() => ({ name: "sms-number", points: SEND_LIMITS.perNumberPerHour, durationSeconds: 3600 })),
  ip: lazyLimiter(() => ({ name: "sms-ip", points: env().SMS_CODES_PER_IP_PER_HOUR, durationSeconds: 3600 })),
  // The service's whole budget (SMS_PER_HOUR), counted after the per-IP and per-number limits.
  all: lazyLimiter(() => ({ name: "sms-all", points: env().SMS_PER_HOUR, durationSeconds: 3600 })),
};

/** Whether text messages may go to this E.164 number's country (SMS_COUNTRIES; unset: every country). */
export function countryServed(phone: string): boolean {
  const allowed = env().SMS_COUNTRIES;
  if (!allowed) return true;
  const country = parsePhoneNumberFromString(phone)?.country;
  return !!country && allowed.includes(country);
}

function hashCode(codeId: string, code: string): string {
  return keyedHash(CODE_HASH_PURPOSE, `${codeId}:${code}`);
}

export interface PhoneTarget {
  /** E.164; used to send and to hash, never stored. */
  phone: string;
  plane: Plane;
  /** "" for live numbers; the developer's id for a sandbox (test-plane) number. */
  phoneScope: string;
}

/** The message text: the code, its life, and the line browsers read to offer it (WebOTP, iOS autofill). */
export function codeMessage(code: string): string {
  const host = new URL(env().BASE_URL).hostname;
  return `${code} is your Profile Service sign-in code. It expires in ${CODE_TTL_SECONDS / 60} minutes.\n\n@${host} #${code}`;
}

/**
 * Sends a new code to the number (replacing any earlier one). The same answer whether or not an
 * account exists. Within one flow (`flowId`), a new code goes out only 30 seconds after the last.
 */
export async function sendSignInCode(input: PhoneTarget & { ip: string; flowId?: string }): Promise<{ resendAfterSeconds: number }> {
  const { phoneHash } = phoneDigest(input.phone);
  const prisma = await db();
  const at = clockNow();
  const last = await prisma.phoneCode.findFirst({
    where: { plane: input.plane, phoneScope: input.phoneScope, phoneHash, flowId: input.flowId ?? null },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true },
  });
  if (last) {
    const wait = Math.ceil(RESEND_AFTER_SECONDS - (at.getTime() - last.createdAt.getTime()) / 1000);
    if (wait > 0) throw new CodeError("resend_too_soon", wait);
  }
  const sandbox = takesSandboxCode({ plane: input.plane, phoneHash });
  if (!sandbox) {
    if (!countryServed(input.phone)) throw new CodeError("country_not_served");
    for (const [limiter, key] of [
      [sendLimiters.ip, `ip:${ipLimitKey(input.ip)}`],
      [sendLimiters.number, `n:${phoneHash}`],
      [sendLimiters.all, "all"],
    ] as const) {
      const res = await limiter.consume(key);
      if (!res.allowed) throw new CodeError("rate_limited", res.retryAfter);
    }
  }
  const code = sandbox ? SANDBOX_VERIFICATION_CODE : String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, "0");
  const id = randomUUID();
  await prisma.$transaction([
    prisma.phoneCode.updateMany({ where: { plane: input.plane, phoneScope: input.phoneScope, phoneHash, consumedAt: null }, data: { consumedAt: at } }),
    prisma.phoneCode.create({
      data: { id, phoneHash, plane: input.plane, phoneScope: input.phoneScope, flowId: input.flowId, codeHash: hashCode(id, code), createdAt: at, expiresAt: new Date(at.getTime() + CODE_TTL_SECONDS * 1000) },
    }),
  ]);
  if (!sandbox) {
    try {
      await smsDriver().send({ to: input.phone, body: codeMessage(code) });
    } catch {
      // The code cannot reach the person: withdraw it so the resend wait does not apply.
      await prisma.phoneCode.delete({ where: { id } });
      throw new CodeError("send_failed");
    }
  }
  return { resendAfterSeconds: RESEND_AFTER_SECONDS };
}

/**
 * Whether the number is the sandbox's synthetic one, which alone takes the fixed code (nothing is sent).
 * Anyone may provision a sandbox, so a fixed code for every test-plane number would sign anyone in as
 * any test user of any developer.
 */
export function takesSandboxCode(input: { plane: Plane; phoneHash: string }): boolean {
  return input.plane === "test" && safeEqual(input.phoneHash, phoneDigest(SANDBOX_PHONE).phoneHash);
}

/**
 * Checks a code against the number's latest one. Correct: the code is used up (once, even when two
 * requests race). Otherwise a CodeError says why, with the tries left.
 */
export async function verifySignInCode(input: { phoneHash: string; plane: Plane; phoneScope: string; code: string }): Promise<void> {
  const prisma = await db();
  const latest = await prisma.phoneCode.findFirst({
    where: { plane: input.plane, phoneScope: input.phoneScope, phoneHash: input.phoneHash },
    orderBy: { createdAt: "desc" },
  });
  const tried = await tryCode("phone_codes", latest, input.code, (row, code) => hashCode(row.id, code));
  if (!tried.ok) throw new CodeError(tried.reason, undefined, tried.reason === "wrong_code" ? tried.attemptsLeft : undefined);
  const used = await prisma.phoneCode.updateMany({ where: { id: tried.row.id, consumedAt: null }, data: { consumedAt: tried.at } });
  if (used.count !== 1) throw new CodeError("expired");
}
