// API keys: issued once, stored as a keyed hash with a visible prefix, revocable, rotatable with an
// overlap (the old key's revokedAt set in the future), cached ≤ 1 s.
import { now as clockNow } from "../platform/clock";
import { keyedHash, openSecret, sealSecret } from "../platform/crypto";
import { TtlCache } from "../platform/cache";
import { db } from "../platform/db";
import type { KeyKind, KeyMaker, Plane } from "../platform/db/generated/enums";
import { newId, PREFIX } from "../platform/ids";
import { processWide } from "../process-wide";

const HASH_PURPOSE = "api-key";
const VISIBLE_CHARS = 4;
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/** How long a rotated key keeps working beside its replacement. */
export const KEY_ROTATION_OVERLAP_HOURS = 24;

/**
 * Whether a key with this revokedAt works at `at`: the one rule every key check uses. A revocation
 * takes effect at once (revokedAt = now); a rotation sets it KEY_ROTATION_OVERLAP_HOURS ahead.
 */
export function isKeyActive(revokedAt: Date | null, at: Date = clockNow()): boolean {
  return revokedAt === null || revokedAt.getTime() > at.getTime();
}

/**
 * Whether a key with this revokedAt carries MCP sessions at `at`: active (isKeyActive) and never
 * rotated. The specification has rotating a secret key, like revoking it, stop its MCP sessions; the
 * overlap keeps a rotated key working everywhere else, so a deployment can move to its replacement.
 */
export function carriesMcpSessions(revokedAt: Date | null, at: Date = clockNow()): boolean {
  return isKeyActive(revokedAt, at) && revokedAt === null;
}

/** isKeyActive as a query filter: keys unrevoked, or rotated and still in their overlap at `at`. */
export function activeKeyFilter(at: Date = clockNow()) {
  return { OR: [{ revokedAt: null }, { revokedAt: { gt: at } }] };
}

export interface ResolvedKey {
  id: string;
  developerId: string;
  kind: KeyKind;
  plane: Plane;
}

/** The prefix that marks a key's kind and plane. Test prefixes are checked first: sk_test_ starts with sk_. */
export function keyPrefixFor(kind: KeyKind, plane: Plane): string {
  if (kind === "secret") return plane === "test" ? PREFIX.secretTestKey : PREFIX.secretKey;
  return plane === "test" ? PREFIX.publishableTestKey : PREFIX.publishableKey;
}

/** Kind and plane read from a key's prefix, or null when it has none of the four prefixes. */
export function parseKeyFormat(raw: string): { kind: KeyKind; plane: Plane; prefix: string } | null {
  const table: Array<[string, KeyKind, Plane]> = [
    [PREFIX.secretTestKey, "secret", "test"],
    [PREFIX.publishableTestKey, "publishable", "test"],
    [PREFIX.secretKey, "secret", "live"],
    [PREFIX.publishableKey, "publishable", "live"],
  ];
  for (const [prefix, kind, plane] of table) {
    if (raw.startsWith(prefix) && /^[A-Za-z0-9]{32}$/.test(raw.slice(prefix.length))) return { kind, plane, prefix };
  }
  return null;
}

export function hashApiKey(raw: string): string {
  return keyedHash(HASH_PURPOSE, raw);
}

/** Who makes a key: the dashboard (and which dashboard user), the command-line tool, or a sandbox's provisioning. */
export type KeyCreator = { via: "dashboard"; dashboardUserId: string } | { via: Exclude<KeyMaker, "dashboard"> };

export async function issueApiKey(input: { developerId: string; kind: KeyKind; plane: Plane; name?: string; createdBy?: KeyCreator }) {
  const prefix = keyPrefixFor(input.kind, input.plane);
  const key = newId(prefix as Parameters<typeof newId>[0], 32);
  const record = await (await db()).apiKey.create({ data: newKeyData(input, key) });
  return { key, record };
}

function newKeyData(input: { developerId: string; kind: KeyKind; plane: Plane; name?: string; createdBy?: KeyCreator }, key: string) {
  return {
    developerId: input.developerId,
    kind: input.kind,
    plane: input.plane,
    prefix: key.slice(0, keyPrefixFor(input.kind, input.plane).length + VISIBLE_CHARS),
    hash: hashApiKey(key),
    publishableKeySealed: input.kind === "publishable" ? sealSecret(PUBLISHABLE_SEAL_PURPOSE, key) : null,
    name: input.name,
    // Unrecorded (null) only where a caller names nobody, as keys made before makers were recorded.
    createdVia: input.createdBy?.via ?? null,
    createdByDashboardUserId: input.createdBy?.via === "dashboard" ? input.createdBy.dashboardUserId : null,
  };
}

const PUBLISHABLE_SEAL_PURPOSE = "publishable-key";

/** The developer's newest unrevoked publishable key of a plane, in full (they are public by design); null when there is none. */
export async function currentPublishableKey(input: { developerId: string; plane: Plane }): Promise<string | null> {
  const row = await (
    await db()
  ).apiKey.findFirst({
    where: { developerId: input.developerId, plane: input.plane, kind: "publishable", revokedAt: null, publishableKeySealed: { not: null } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { publishableKeySealed: true },
  });
  return row?.publishableKeySealed ? openSecret(PUBLISHABLE_SEAL_PURPOSE, row.publishableKeySealed) : null;
}

/**
 * Revokes a key by id or visible prefix within one developer account, at once (a rotated key still in
 * its overlap too). Returns how many were revoked.
 */
export async function revokeApiKey(input: { developerId: string; idOrPrefix: string }): Promise<number> {
  const isUuid = /^[0-9a-f-]{36}$/i.test(input.idOrPrefix);
  const at = clockNow();
  const res = await (
    await db()
  ).apiKey.updateMany({
    where: {
      developerId: input.developerId,
      ...activeKeyFilter(at),
      ...(isUuid ? { id: input.idOrPrefix } : { prefix: input.idOrPrefix }),
    },
    data: { revokedAt: at },
  });
  keyCache.clear();
  return res.count;
}

/**
 * Revokes at once every key still working (rotated ones in their overlap too) that a dashboard user
 * made in the account, provided they are no longer one of its members (checked in the same statement,
 * so someone who rejoined keeps theirs). Returns how many were revoked.
 */
export async function revokeApiKeysOfFormerMember(input: { developerId: string; dashboardUserId: string }): Promise<number> {
  const at = clockNow();
  const res = await (
    await db()
  ).apiKey.updateMany({
    where: {
      developerId: input.developerId,
      createdVia: "dashboard",
      createdByDashboardUserId: input.dashboardUserId,
      ...activeKeyFilter(at),
      createdBy: { memberships: { none: { developerId: input.developerId } } },
    },
    data: { revokedAt: at },
  });
  keyCache.clear();
  return res.count;
}

/**
 * Rotates one of the developer's unrotated, unrevoked keys: a new key of the same kind, plane and name
 * (shown once), while the old one keeps working for KEY_ROTATION_OVERLAP_HOURS and then stops. Null
 * when the developer has no such key (unknown, another developer's, revoked or already rotated).
 */
export async function rotateApiKey(input: { developerId: string; keyId: string; createdBy?: KeyCreator }) {
  if (!/^[0-9a-f-]{36}$/i.test(input.keyId)) return null;
  const prisma = await db();
  const at = clockNow();
  const stopsAt = new Date(at.getTime() + KEY_ROTATION_OVERLAP_HOURS * 3_600_000);
  const old = await prisma.apiKey.findFirst({
    where: { id: input.keyId, developerId: input.developerId, revokedAt: null },
    select: { id: true, kind: true, plane: true, name: true },
  });
  if (!old) return null;
  const prefix = keyPrefixFor(old.kind, old.plane);
  const key = newId(prefix as Parameters<typeof newId>[0], 32);
  const record = await prisma.$transaction(async (tx) => {
    // The guarded transition: of two rotations at once, one sets the overlap and the other changes nothing.
    const marked = await tx.apiKey.updateMany({ where: { id: old.id, developerId: input.developerId, revokedAt: null }, data: { revokedAt: stopsAt } });
    if (marked.count !== 1) return null;
    return tx.apiKey.create({
      data: newKeyData({ developerId: input.developerId, kind: old.kind, plane: old.plane, name: old.name ?? undefined, createdBy: input.createdBy }, key),
    });
  });
  keyCache.clear();
  return record ? { key, record, oldKeyStopsAt: stopsAt } : null;
}

export async function listApiKeys(developerId: string) {
  return (await db()).apiKey.findMany({
    where: { developerId },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      kind: true,
      plane: true,
      prefix: true,
      name: true,
      createdAt: true,
      revokedAt: true,
      lastUsedAt: true,
      createdVia: true,
      createdBy: { select: { id: true, email: true } },
    },
  });
}

/** A cached key row: its revokedAt is compared with the clock at each use, so an overlap ends on time. */
type CachedKey = ResolvedKey & { revokedAt: Date | null };
const keyCache = new TtlCache<CachedKey | null>("api-keys");

function activeKey(row: CachedKey | null): ResolvedKey | null {
  return row && isKeyActive(row.revokedAt) ? { id: row.id, developerId: row.developerId, kind: row.kind, plane: row.plane } : null;
}
/** When this process last wrote each key's lastUsedAt (its performance.now()), by key id. */
const lastUsedWritten = processWide("keys.last-used-written", () => new Map<string, number>());

/**
 * The active key behind a raw X-API-Key value, or null. Results are cached for at most
 * KEY_CACHE_TTL_MS (≤ 1 s), so a revocation on any instance takes effect everywhere within a second.
 */
export async function resolveApiKey(raw: string): Promise<ResolvedKey | null> {
  if (!parseKeyFormat(raw)) return null;
  const hash = hashApiKey(raw);
  const key = activeKey(
    await keyCache.through(hash, async () =>
      (await db()).apiKey.findUnique({
        where: { hash },
        select: { id: true, developerId: true, kind: true, plane: true, revokedAt: true },
      }),
    ),
  );
  if (key) touch(key.id);
  return key;
}

/**
 * The key with this id while it carries MCP sessions (carriesMcpSessions: active and never rotated), or
 * null: what an MCP session checks on every use and what minting one checks, so revoking or rotating
 * the key ends its sessions. Through the same ≤ 1 s cache as resolveApiKey, so a revocation or rotation
 * on any instance takes effect everywhere within a second, and at once in the process that made it.
 */
export async function findMcpSessionKey(id: string): Promise<ResolvedKey | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const row = await keyCache.through(`id\u0000${id}`, async () =>
    (await db()).apiKey.findUnique({
      where: { id },
      select: { id: true, developerId: true, kind: true, plane: true, revokedAt: true },
    }),
  );
  return row && carriesMcpSessions(row.revokedAt) ? activeKey(row) : null;
}

/**
 * Records last use (the service's clock) at most once a minute per key, off the request's critical
 * path. The minute is time elapsed in this process, so moving the test clock neither skips nor repeats a write.
 */
function touch(id: string): void {
  const elapsed = performance.now();
  const last = lastUsedWritten.get(id);
  if (last !== undefined && elapsed - last < LAST_USED_WRITE_INTERVAL_MS) return;
  lastUsedWritten.set(id, elapsed);
  const usedAt = clockNow();
  void db()
    .then((p) => p.apiKey.update({ where: { id }, data: { lastUsedAt: usedAt } }))
    .catch(() => lastUsedWritten.delete(id));
}
