// Six-digit codes e-mailed to an address: entering one proves the person controls the address, one
// of the proofs behind email_verified. The same rules as the phone codes: 10 minutes, 5 wrong tries
// (counted before comparing, lib/person-auth/code-tries.ts), a new code only 30 seconds after the last; and
// hourly caps per target address and per client IP, so no one can mail-bomb an address or spray codes.
import { randomInt, randomUUID } from "node:crypto";
import { z } from "zod";
import { now as clockNow } from "../platform/clock";
import { keyedHash } from "../platform/crypto";
import { db } from "../platform/db";
import { emailDriver, EmailSendError } from "../email";
import { ipLimitKey } from "../http/request";
import { lazyLimiter } from "../platform/ratelimit";
import { CODE_LENGTH, CODE_TTL_SECONDS, RESEND_AFTER_SECONDS, tryCode } from "./code-tries";

const CODE_HASH_PURPOSE = "email-code";

/** Codes e-mailed to one address per hour, and requested from one IP address (IPv6: its /64) per hour. */
export const EMAIL_SEND_LIMITS = { perAddressPerHour: 5, perIpPerHour: 20 } as const;
const sendLimiters = {
  address: lazyLimiter(() => ({ name: "email-address", points: EMAIL_SEND_LIMITS.perAddressPerHour, durationSeconds: 3600 })),
  ip: lazyLimiter(() => ({ name: "email-ip", points: EMAIL_SEND_LIMITS.perIpPerHour, durationSeconds: 3600 })),
};

export const EMAIL_CODE_MESSAGES = {
  invalid_email: "Enter a valid email address.",
  resend_too_soon: "A code was just sent. You can ask for a new one in a few seconds.",
  rate_limited: "Too many codes were sent. Try again later.",
  send_failed: "We could not send the email just now. Try again in a moment.",
  expired: "This code has expired. Send a new one.",
  too_many_attempts: "Too many wrong tries. Send a new code.",
  wrong_code: "That code is not right. Check the email and try again.",
} as const;
export type EmailCodeErrorReason = keyof typeof EMAIL_CODE_MESSAGES;

export class EmailCodeError extends Error {
  constructor(readonly reason: EmailCodeErrorReason) {
    super(EMAIL_CODE_MESSAGES[reason]);
    this.name = "EmailCodeError";
  }
}

export function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !z.email().safeParse(email).success) throw new EmailCodeError("invalid_email");
  return email;
}

const hash = (id: string, code: string) => keyedHash(CODE_HASH_PURPOSE, `${id}:${code}`);

/** E-mails a new code for the person's address (replacing an earlier one). */
export async function sendEmailCode(input: { userId: string; email: string; ip: string }): Promise<{ email: string }> {
  const email = normaliseEmail(input.email);
  const prisma = await db();
  const at = clockNow();
  const last = await prisma.emailCode.findFirst({ where: { userId: input.userId }, orderBy: { createdAt: "desc" }, select: { createdAt: true } });
  if (last && at.getTime() - last.createdAt.getTime() < RESEND_AFTER_SECONDS * 1000) throw new EmailCodeError("resend_too_soon");
  // The address is counted by its keyed hash: limiter keys (in Redis too) never hold it.
  for (const [limiter, key] of [
    [sendLimiters.ip, `ip:${ipLimitKey(input.ip)}`],
    [sendLimiters.address, `a:${keyedHash("email-limit", email)}`],
  ] as const) {
    if (!(await limiter.consume(key)).allowed) throw new EmailCodeError("rate_limited");
  }
  const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, "0");
  const id = randomUUID();
  await prisma.$transaction([
    prisma.emailCode.updateMany({ where: { userId: input.userId, consumedAt: null }, data: { consumedAt: at } }),
    prisma.emailCode.create({ data: { id, userId: input.userId, email, codeHash: hash(id, code), createdAt: at, expiresAt: new Date(at.getTime() + CODE_TTL_SECONDS * 1000) } }),
  ]);
  try {
    await emailDriver().send({
      to: email,
      subject: `${code} is your Profile Service code`,
      text: `Enter ${code} to confirm this is your email address. The code expires in ${CODE_TTL_SECONDS / 60} minutes.\n\nIf you did not ask for it, ignore this email.`,
    });
  } catch (err) {
    await prisma.emailCode.delete({ where: { id } });
    if (err instanceof EmailSendError) throw new EmailCodeError("send_failed");
    throw err;
  }
  return { email };
}

/** Checks the code; correct, the address becomes the account's, proven by the code. */
export async function verifyEmailCode(input: { userId: string; code: string }): Promise<{ email: string }> {
  const prisma = await db();
  const latest = await prisma.emailCode.findFirst({ where: { userId: input.userId }, orderBy: { createdAt: "desc" } });
  const tried = await tryCode("email_codes", latest, input.code, (row, code) => hash(row.id, code));
  if (!tried.ok) throw new EmailCodeError(tried.reason);
  const { row, at } = tried;
  const done = await prisma.$transaction(async (tx) => {
    const used = await tx.emailCode.updateMany({ where: { id: row.id, consumedAt: null }, data: { consumedAt: at } });
    if (used.count !== 1) return false;
    await tx.user.update({ where: { id: input.userId }, data: { email: row.email, emailProof: emailDriver().name === "outbox" ? "development_code" : "email_code" } });
    return true;
  });
  if (!done) throw new EmailCodeError("expired");
  return { email: row.email };
}
