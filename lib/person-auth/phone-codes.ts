// Six-digit sign-in codes sent by text message. A code lives 10 minutes, takes at most 5 wrong tries
// and is good only in the flow that asked for it; a new one may be sent 30 seconds after the last.
// Sending is limited per requester, per number and requester, per number (codes never verified), and
// by the service's budget per network and per country (sendSignInCode says exactly how). Known and
// unknown numbers get exactly the same answer. For the sandbox's synthetic number alone (test plane)
// the code is always 424242 and no message is sent; any other test-plane number gets a real code,
// sent and limited like a live one.
import { randomInt, randomUUID } from "node:crypto";
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { now as clockNow } from "../platform/clock";
import { keyedHash, safeEqual } from "../platform/crypto";
import { db } from "../platform/db";
import type { Plane } from "../platform/db/generated/enums";
import { env } from "../env";
import { ipLimitKey } from "../http/request";
import { lazyLimiter, type Limiter } from "../platform/ratelimit";
import { SANDBOX_PHONE, SANDBOX_VERIFICATION_CODE } from "../sandbox/seed";
import { smsDriver } from "../sms";
import { phoneDigest } from "../users/phone";
import { CODE_LENGTH, CODE_TTL_SECONDS, MAX_CODE_ATTEMPTS, RESEND_AFTER_SECONDS, tryCode } from "./code-tries";

export { CODE_LENGTH, CODE_TTL_SECONDS, MAX_CODE_ATTEMPTS, RESEND_AFTER_SECONDS };
/**
 * Per hour: codes one requester may have sent to one number (a requester is an IPv4 address or an
 * IPv6 /56, and separately the flow, which belongs to one browser); codes one number may be sent that
 * were never verified, whoever asked; and the default of SMS_CODES_PER_IP_PER_HOUR.
 */
export const SEND_LIMITS = { perNumberPerRequesterPerHour: 5, unverifiedPerNumberPerHour: 10, perIpPerHour: 20 } as const;
/** The IPv6 networks the limits count: a requester (one subscriber's site) and a network (one organisation's allocation). */
export const SMS_IPV6_PREFIX_BITS = { requester: 56, network: 48 } as const;
const HOUR_MS = 3600 * 1000;
// The advisory lock that makes a number's unverified-code count and the new code one step.
const NUMBER_LOCK = 72707391;

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
  requester: lazyLimiter(() => ({ name: "sms-ip", points: env().SMS_CODES_PER_IP_PER_HOUR, durationSeconds: 3600 })),
  numberByRequester: lazyLimiter(() => ({ name: "sms-number-requester", points: SEND_LIMITS.perNumberPerRequesterPerHour, durationSeconds: 3600 })),
  // The service's budget, spent only by codes that will be sent: a network's share, then its country's.
  network: lazyLimiter(() => ({ name: "sms-network", points: env().SMS_PER_NETWORK_PER_HOUR, durationSeconds: 3600 })),
  country: lazyLimiter(() => ({ name: "sms-country", points: env().SMS_PER_HOUR, durationSeconds: 3600 })),
};

/** The number's country (ISO 3166 alpha-2), or "001" for numbers of no country (+800, +882, …). */
function countryOf(phone: string): string {
  return parsePhoneNumberFromString(phone)?.country ?? "001";
}

/** Whether text messages may go to this E.164 number's country (SMS_COUNTRIES; unset, in development mode only: every country). */
export function countryServed(phone: string): boolean {
  const allowed = env().SMS_COUNTRIES;
  if (!allowed) return true;
  const country = parsePhoneNumberFromString(phone)?.country;
  return !!country && allowed.includes(country);
}

async function consumeOrRefuse(limiter: Limiter, key: string): Promise<void> {
  const res = await limiter.consume(key);
  if (!res.allowed) throw new CodeError("rate_limited", res.retryAfter);
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
 * Sends a new code to the number (replacing the flow's earlier one). The same answer whether or not
 * an account exists. Within one flow (`flowId`), a new code goes out only 30 seconds after the last.
 *
 * Limits, in order, each "Too many codes were sent" when spent:
 * 1. the requester's address: SMS_CODES_PER_IP_PER_HOUR codes an hour (IPv4 address, IPv6 /56);
 * 2. the requester and the number: 5 an hour for the address, and 5 for the flow (its browser);
 * 3. the number: 10 codes in the last hour never verified, whoever asked (a correctly entered code
 *    stops counting), so the owner asking from their own device is not locked out by someone who
 *    used up the first two limits from elsewhere;
 * 4. the budget: SMS_PER_NETWORK_PER_HOUR for the requester's network (IPv4 address, IPv6 /48),
 *    then SMS_PER_HOUR for the number's country.
 */
export async function sendSignInCode(input: PhoneTarget & { ip: string; flowId?: string }): Promise<{ resendAfterSeconds: number }> {
  const { phoneHash } = phoneDigest(input.phone);
  const prisma = await db();
  const at = clockNow();
  const flowId = input.flowId ?? null;
  const last = await prisma.phoneCode.findFirst({
    where: { plane: input.plane, phoneScope: input.phoneScope, phoneHash, flowId },
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
    const requester = ipLimitKey(input.ip, SMS_IPV6_PREFIX_BITS.requester);
    await consumeOrRefuse(sendLimiters.requester, requester);
    await consumeOrRefuse(sendLimiters.numberByRequester, `${phoneHash}:ip:${requester}`);
    if (flowId) await consumeOrRefuse(sendLimiters.numberByRequester, `${phoneHash}:flow:${flowId}`);
  }
  const code = sandbox ? SANDBOX_VERIFICATION_CODE : String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, "0");
  const id = randomUUID();
  await prisma.$transaction(async (tx) => {
    if (!sandbox) {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${NUMBER_LOCK}, hashtext(${phoneHash}))`;
      // Every plane and namespace at once: they all reach the same phone.
      const unverified = await tx.phoneCode.findMany({
        where: { phoneHash, createdAt: { gt: new Date(at.getTime() - HOUR_MS) }, verifiedAt: null },
        orderBy: { createdAt: "asc" },
        select: { createdAt: true },
        take: SEND_LIMITS.unverifiedPerNumberPerHour,
      });
      if (unverified.length >= SEND_LIMITS.unverifiedPerNumberPerHour) {
        throw new CodeError("rate_limited", Math.max(1, Math.ceil((unverified[0]!.createdAt.getTime() + HOUR_MS - at.getTime()) / 1000)));
      }
      await consumeOrRefuse(sendLimiters.network, ipLimitKey(input.ip, SMS_IPV6_PREFIX_BITS.network));
      await consumeOrRefuse(sendLimiters.country, countryOf(input.phone));
    }
    await tx.phoneCode.updateMany({ where: { plane: input.plane, phoneScope: input.phoneScope, phoneHash, flowId, consumedAt: null }, data: { consumedAt: at } });
    await tx.phoneCode.create({
      data: {
        id,
        phoneHash,
        plane: input.plane,
        phoneScope: input.phoneScope,
        flowId,
        codeHash: hashCode(id, code),
        createdAt: at,
        expiresAt: new Date(at.getTime() + CODE_TTL_SECONDS * 1000),
      },
    });
  });
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
 * Checks a code against the latest one sent to the number for this flow (`flowId`; none: the latest
 * sent outside any flow). Correct: the code is used up (once, even when two requests race) and no
 * longer counts against the number's ceiling. Otherwise a CodeError says why, with the tries left.
 */
export async function verifySignInCode(input: { phoneHash: string; plane: Plane; phoneScope: string; code: string; flowId?: string }): Promise<void> {
  const prisma = await db();
  const latest = await prisma.phoneCode.findFirst({
    where: { plane: input.plane, phoneScope: input.phoneScope, phoneHash: input.phoneHash, flowId: input.flowId ?? null },
    orderBy: { createdAt: "desc" },
  });
  const tried = await tryCode("phone_codes", latest, input.code, (row, code) => hashCode(row.id, code));
  if (!tried.ok) throw new CodeError(tried.reason, undefined, tried.reason === "wrong_code" ? tried.attemptsLeft : undefined);
  const used = await prisma.phoneCode.updateMany({ where: { id: tried.row.id, consumedAt: null }, data: { consumedAt: tried.at, verifiedAt: tried.at } });
  if (used.count !== 1) throw new CodeError("expired");
}
