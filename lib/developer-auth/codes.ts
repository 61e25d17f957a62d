// Dashboard sign-in by e-mail: a six-digit code, and a link carrying it, e-mailed to the address.
// The code is stored as a keyed hash, used once, lives 10 minutes and allows 5 tries (counted before
// comparing, lib/person-auth/code-tries.ts); a new one 30 seconds after the last; and hourly caps per address
// and per client IP. A correct code names the dashboard user of that address, made on first sign-in.
import { randomInt, randomUUID } from "node:crypto";
import { z } from "zod";
import { CODE_LENGTH, CODE_TTL_SECONDS, RESEND_AFTER_SECONDS, tryCode } from "../person-auth/code-tries";
import { now as clockNow } from "../platform/clock";
import { keyedHash } from "../platform/crypto";
import { db } from "../platform/db";
import { emailDriver, EmailSendError } from "../email";
import { env } from "../env";
import { ipLimitKey } from "../http/request";
import { lazyLimiter } from "../platform/ratelimit";
import { DashboardError } from "./errors";

const CODE_HASH_PURPOSE = "dashboard-sign-in-code";

/** Sign-in codes e-mailed to one address per hour, and asked for from one IP address (IPv6: its /64) per hour. */
export const DASHBOARD_CODE_LIMITS = { perAddressPerHour: 5, perIpPerHour: 20 } as const;
const sendLimiters = {
  address: lazyLimiter(() => ({ name: "dashboard-code-address", points: DASHBOARD_CODE_LIMITS.perAddressPerHour, durationSeconds: 3600 })),
  ip: lazyLimiter(() => ({ name: "dashboard-code-ip", points: DASHBOARD_CODE_LIMITS.perIpPerHour, durationSeconds: 3600 })),
};

/** The path of the page the e-mailed link opens (it asks for a click before using the code). */
export const SIGN_IN_LINK_PATH = "/dashboard/sign-in/link";

export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());

/** The address as stored (trimmed, lower-cased), or the invalid_email refusal. */
export function dashboardEmail(raw: unknown): string {
  const parsed = emailSchema.safeParse(raw);
  if (!parsed.success) throw new DashboardError("invalid_email");
  return parsed.data;
}

const hash = (id: string, code: string) => keyedHash(CODE_HASH_PURPOSE, `${id}:${code}`);

/** The one-click link an e-mail carries: the sign-in link page with the address and the code. */
export function signInLink(email: string, code: string): string {
  return `${env().BASE_URL}${SIGN_IN_LINK_PATH}?${new URLSearchParams({ email, code }).toString()}`;
}

/** E-mails a new sign-in code (and its link) to the address, replacing an earlier one. */
export async function sendDashboardCode(input: { email: unknown; ip: string }): Promise<{ email: string }> {
  const email = dashboardEmail(input.email);
  const prisma = await db();
  const at = clockNow();
  const last = await prisma.dashboardSignInCode.findFirst({ where: { email }, orderBy: { createdAt: "desc" }, select: { createdAt: true } });
  if (last && at.getTime() - last.createdAt.getTime() < RESEND_AFTER_SECONDS * 1000) throw new DashboardError("resend_too_soon");
  // The address is counted by its keyed hash: limiter keys (in Redis too) never hold it.
  for (const [limiter, key] of [
    [sendLimiters.ip, `ip:${ipLimitKey(input.ip)}`],
    [sendLimiters.address, `a:${keyedHash("dashboard-email-limit", email)}`],
  ] as const) {
    if (!(await limiter.consume(key)).allowed) throw new DashboardError("rate_limited");
  }
  const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, "0");
  const id = randomUUID();
  await prisma.$transaction([
    prisma.dashboardSignInCode.updateMany({ where: { email, consumedAt: null }, data: { consumedAt: at } }),
    prisma.dashboardSignInCode.create({ data: { id, email, codeHash: hash(id, code), createdAt: at, expiresAt: new Date(at.getTime() + CODE_TTL_SECONDS * 1000) } }),
  ]);
  try {
    await emailDriver().send({
      to: email,
      subject: `${code} is your Profile Service dashboard code`,
      text:
        `Enter ${code} to sign in to the Profile Service developer dashboard, or open this link:\n\n${signInLink(email, code)}\n\n` +
        `The code and the link expire in ${CODE_TTL_SECONDS / 60} minutes and work once.\n\nIf you did not ask for them, ignore this email.`,
    });
  } catch (err) {
    await prisma.dashboardSignInCode.delete({ where: { id } });
    if (err instanceof EmailSendError) throw new DashboardError("send_failed");
    throw err;
  }
  return { email };
}

/**
 * Checks the code entered (or carried by the link) for the address; correct, it is used up and the
 * address's dashboard user (made now on a first sign-in) is returned.
 */
export async function verifyDashboardCode(input: { email: unknown; code: unknown }): Promise<{ id: string; email: string }> {
  const email = dashboardEmail(input.email);
  const prisma = await db();
  const latest = await prisma.dashboardSignInCode.findFirst({ where: { email }, orderBy: { createdAt: "desc" } });
  const tried = await tryCode("dashboard_sign_in_codes", latest, typeof input.code === "string" ? input.code : "", (row, code) => hash(row.id, code));
  if (!tried.ok) throw new DashboardError(tried.reason);
  const used = await prisma.dashboardSignInCode.updateMany({ where: { id: tried.row.id, consumedAt: null }, data: { consumedAt: tried.at } });
  if (used.count !== 1) throw new DashboardError("expired");
  return dashboardUserFor(email);
}

/** The dashboard user of a proven address, made on its first sign-in; its last sign-in recorded. */
export async function dashboardUserFor(email: string): Promise<{ id: string; email: string }> {
  const at = clockNow();
  return (await db()).dashboardUser.upsert({
    where: { email },
    create: { email, lastSignInAt: at },
    update: { lastSignInAt: at },
    select: { id: true, email: true },
  });
}
