// The secrets that sign a developer's completion callbacks, one line of generations per developer and
// plane: stored sealed, shown to the account's own secret keys and members, rotated with an overlap
// during which the callback carries a signature under each (Service-Signature: t=…,v1=<new>,v1=<old>).
import { createHmac, randomBytes } from "node:crypto";
import { now as clockNow } from "../platform/clock";
import { deriveKey, openSecret, sealSecret } from "../platform/crypto";
import { db } from "../platform/db";
import type { Plane } from "../platform/db/generated/enums";
import { CALLBACK_SECRET_MAX_OVERLAP_HOURS, CALLBACK_SECRET_OVERLAP_HOURS } from "./callback-schemas";

const SECRET_PREFIX = "whsec_";
const SEAL_PURPOSE = "sign-in.completion-callback-secret.sealed";

export { CALLBACK_SECRET_MAX_OVERLAP_HOURS, CALLBACK_SECRET_OVERLAP_HOURS };

export interface CallbackSecretScope {
  developerId: string;
  plane: Plane;
}

/** A developer's secrets in one plane now: the current one and, during an overlap, the one it replaced. */
export interface CallbackSecretView {
  secret: string;
  createdAt: Date;
  /** The replaced secret, still signing beside `secret` until `expiresAt`; null when none is. */
  previous: { expiresAt: Date } | null;
}

/**
 * The secret every developer had before secrets were stored: derived from SERVICE_SECRET per developer
 * and plane. A developer that existed then keeps it as its first generation (sealed NULL) until it rotates.
 */
function derivedSecret(scope: CallbackSecretScope): string {
  const mac = createHmac("sha256", deriveKey("sign-in.completion-callback-secret")).update(`${scope.developerId}.${scope.plane}`);
  return SECRET_PREFIX + mac.digest("base64url");
}

function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64url");
}

type Row = { generation: number; sealed: string | null; createdAt: Date; retiresAt: Date | null };

function plaintext(scope: CallbackSecretScope, row: Row): string {
  return row.sealed === null ? derivedSecret(scope) : openSecret(SEAL_PURPOSE, row.sealed);
}

/** The generations still signing at `at`, newest first. */
async function liveRows(scope: CallbackSecretScope, at: Date): Promise<Row[]> {
  return (await db()).callbackSecret.findMany({
    where: { developerId: scope.developerId, plane: scope.plane, OR: [{ retiresAt: null }, { retiresAt: { gt: at } }] },
    orderBy: { generation: "desc" },
    select: { generation: true, sealed: true, createdAt: true, retiresAt: true },
  });
}

/**
 * The rows signing now, making a developer's first secret (random) when it has none yet. Of two first
 * reads at once, one inserts generation 1 and the other reads it.
 */
async function ensureRows(scope: CallbackSecretScope, at: Date): Promise<Row[]> {
  const rows = await liveRows(scope, at);
  if (rows.some((r) => r.retiresAt === null)) return rows;
  await (
    await db()
  ).callbackSecret.createMany({
    data: [{ developerId: scope.developerId, plane: scope.plane, generation: 1, sealed: sealSecret(SEAL_PURPOSE, newSecret()), createdAt: at }],
    skipDuplicates: true,
  });
  return liveRows(scope, at);
}

function view(scope: CallbackSecretScope, rows: Row[]): CallbackSecretView {
  const [current, previous] = rows;
  if (!current || current.retiresAt !== null) throw new Error("A developer's callback secrets have no current generation.");
  return { secret: plaintext(scope, current), createdAt: current.createdAt, previous: previous?.retiresAt ? { expiresAt: previous.retiresAt } : null };
}

/** The secret that signs the developer's callbacks in this plane now, and the one it replaced while that still signs. */
export async function callbackSecretOf(scope: CallbackSecretScope, at: Date = clockNow()): Promise<CallbackSecretView> {
  return view(scope, await ensureRows(scope, at));
}

/** Every secret a callback sent at `at` is signed with: the current one first, then one in its overlap. */
export async function signingSecrets(scope: CallbackSecretScope, at: Date = clockNow()): Promise<string[]> {
  return (await ensureRows(scope, at)).map((r) => plaintext(scope, r));
}

/**
 * Replaces the developer's secret in this plane with a new random one. The one replaced keeps signing
 * beside it for `overlapHours` (0 ends it now); one replaced earlier and still in its overlap ends now,
 * so a callback never carries more than two signatures. Rotations of one developer run one at a time.
 */
export async function rotateCallbackSecret(scope: CallbackSecretScope & { overlapHours?: number }): Promise<CallbackSecretView> {
  const overlapHours = scope.overlapHours ?? CALLBACK_SECRET_OVERLAP_HOURS;
  if (!Number.isInteger(overlapHours) || overlapHours < 0 || overlapHours > CALLBACK_SECRET_MAX_OVERLAP_HOURS) throw new RangeError("overlapHours out of range");
  const at = clockNow();
  await ensureRows(scope, at);
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM developers WHERE id = ${scope.developerId}::uuid FOR UPDATE`;
    const where = { developerId: scope.developerId, plane: scope.plane };
    const current = await tx.callbackSecret.findFirstOrThrow({ where: { ...where, retiresAt: null }, orderBy: { generation: "desc" }, select: { generation: true } });
    // One replaced earlier ends now (nothing reads a generation that stopped signing, so it goes);
    // the current one signs on through the overlap beside the new one.
    await tx.callbackSecret.deleteMany({ where: { ...where, generation: { lt: current.generation } } });
    await tx.callbackSecret.updateMany({ where: { ...where, generation: current.generation }, data: { retiresAt: new Date(at.getTime() + overlapHours * 3_600_000) } });
    await tx.callbackSecret.create({ data: { ...where, generation: current.generation + 1, sealed: sealSecret(SEAL_PURPOSE, newSecret()), createdAt: at } });
  });
  return callbackSecretOf(scope, at);
}

/** A view as the API answers it (livemode is added by the route). */
export function callbackSecretWire(v: CallbackSecretView) {
  return { secret: v.secret, createdAt: v.createdAt.toISOString(), previous: v.previous && { expiresAt: v.previous.expiresAt.toISOString() } };
}
