// One try at a stored six-digit code, sent by text message or e-mail. The try is counted before the
// code is compared, so of many concurrent guesses at most MAX_CODE_ATTEMPTS are ever compared. A
// match is not yet used up: the caller consumes the code with whatever else it changes.
import { now as clockNow } from "../platform/clock";
import { safeEqual } from "../platform/crypto";
import { db } from "../platform/db";
import { Prisma } from "../platform/db/generated/client";

export const CODE_LENGTH = 6;
export const CODE_TTL_SECONDS = 10 * 60;
export const MAX_CODE_ATTEMPTS = 5;
export const RESEND_AFTER_SECONDS = 30;

export type CodeTry<T> = { ok: true; row: T; at: Date } | { ok: false; reason: "expired" | "too_many_attempts" | "wrong_code"; attemptsLeft: number };

/** The code row's table and the latest row for the number or address (null when none was sent). */
export async function tryCode<T extends { id: string; attempts: number; consumedAt: Date | null; expiresAt: Date }>(
  table: "phone_codes" | "email_codes" | "dashboard_sign_in_codes",
  latest: T | null,
  entered: string,
  hashOf: (row: T, code: string) => string,
): Promise<CodeTry<T>> {
  const at = clockNow();
  if (!latest || latest.consumedAt || latest.expiresAt <= at) return { ok: false, reason: "expired", attemptsLeft: 0 };
  if (latest.attempts >= MAX_CODE_ATTEMPTS) return { ok: false, reason: "too_many_attempts", attemptsLeft: 0 };
  const [counted] = await (
    await db()
  ).$queryRaw<Array<{ attempts: number; code_hash: string }>>`
    UPDATE ${Prisma.raw(table)} SET attempts = attempts + 1
     WHERE id = ${latest.id}::uuid AND consumed_at IS NULL AND attempts < ${MAX_CODE_ATTEMPTS} AND expires_at > ${at}
    RETURNING attempts, code_hash`;
  if (!counted) return { ok: false, reason: latest.attempts + 1 >= MAX_CODE_ATTEMPTS ? "too_many_attempts" : "expired", attemptsLeft: 0 };
  const code = entered.replace(/\D/g, "");
  if (code.length === CODE_LENGTH && safeEqual(counted.code_hash, hashOf(latest, code))) return { ok: true, row: latest, at };
  const left = MAX_CODE_ATTEMPTS - counted.attempts;
  return left <= 0 ? { ok: false, reason: "too_many_attempts", attemptsLeft: 0 } : { ok: false, reason: "wrong_code", attemptsLeft: left };
}
