// The OpenID Connect signing keys: RS256, stored with the private key sealed under SERVICE_SECRET,
// so every instance signs with the same keys. A new key is published in the JWKS at once and used
// for signing only after SIGNING_KEY_ACTIVATION_DELAY_SECONDS, so relying parties that cache the
// JWKS already hold it; a replaced key stays published until every token it signed has expired.
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, importPKCS8, type JWK } from "jose";
import { now as clockNow } from "../platform/clock";
import { openSecret, sealSecret } from "../platform/crypto";
import { db } from "../platform/db";
import { processWide } from "../process-wide";

export const SIGNING_ALG = "RS256";
const MODULUS_BITS = 2048;
const SEAL_PURPOSE = "oidc-signing-key";
/** How long relying parties may cache the JWKS (Cache-Control max-age). */
export const JWKS_MAX_AGE_SECONDS = 300;
/** A rotated-in key signs only after this delay: longer than the JWKS may be cached. */
export const SIGNING_KEY_ACTIVATION_DELAY_SECONDS = 15 * 60;
/** The longest life of a token signed with these keys (ID tokens: 1 hour). */
export const LONGEST_SIGNED_TOKEN_SECONDS = 60 * 60;
// Serialises key creation across instances that start together.
const KEY_CREATION_LOCK = 72707370;

export interface PublishedKey {
  kid: string;
  activatesAt: Date;
  publicJwk: JWK;
}

async function newKeyPair() {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { modulusLength: MODULUS_BITS, extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk, "sha256");
  return { kid, publicJwk: { ...jwk, kid, alg: SIGNING_ALG, use: "sig" }, sealed: sealSecret(SEAL_PURPOSE, await exportPKCS8(privateKey)) };
}

async function allKeys(): Promise<PublishedKey[]> {
  const rows = await (await db()).signingKey.findMany({ orderBy: [{ activatesAt: "asc" }, { kid: "asc" }], select: { kid: true, activatesAt: true, publicJwk: true } });
  return rows.map((r) => ({ kid: r.kid, activatesAt: r.activatesAt, publicJwk: r.publicJwk as JWK }));
}

/** Adds a signing key. The first key of a service signs at once; later ones after the delay. */
export async function createSigningKey(input: { delaySeconds?: number; now?: Date } = {}): Promise<PublishedKey> {
  const now = input.now ?? clockNow();
  const pair = await newKeyPair();
  const created = await (
    await db()
  ).$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${KEY_CREATION_LOCK})`;
    const existing = await tx.signingKey.count();
    const delay = existing === 0 ? 0 : (input.delaySeconds ?? SIGNING_KEY_ACTIVATION_DELAY_SECONDS);
    const row = await tx.signingKey.create({
      data: { kid: pair.kid, publicJwk: pair.publicJwk, privateKeyEncrypted: pair.sealed, activatesAt: new Date(now.getTime() + delay * 1000) },
    });
    return { kid: row.kid, activatesAt: row.activatesAt, publicJwk: row.publicJwk as JWK };
  });
  clearKeyRing();
  return created;
}

/** Makes sure a signing key exists (first start); several instances may call it at once. */
export async function ensureSigningKey(now = clockNow()): Promise<void> {
  if ((await (await db()).signingKey.count()) > 0) return;
  await (
    await db()
  ).$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${KEY_CREATION_LOCK})`;
    if ((await tx.signingKey.count()) > 0) return;
    const pair = await newKeyPair();
    await tx.signingKey.create({ data: { kid: pair.kid, publicJwk: pair.publicJwk, privateKeyEncrypted: pair.sealed, activatesAt: now } });
  });
}

/**
 * The keys a relying party may need at `now`: the signing key, keys waiting to sign, and replaced
 * keys until every token they signed has expired (and a cached JWKS has been refreshed).
 */
export function publishable(keys: readonly PublishedKey[], now: Date): PublishedKey[] {
  const t = now.getTime();
  return keys.filter((k, i) => {
    const successor = keys.slice(i + 1).find((n) => n.activatesAt.getTime() <= t);
    if (!successor) return true;
    return t < successor.activatesAt.getTime() + (LONGEST_SIGNED_TOKEN_SECONDS + JWKS_MAX_AGE_SECONDS) * 1000;
  });
}

/** The JWKS document. */
export async function jwks(now = clockNow()): Promise<{ keys: JWK[] }> {
  await ensureSigningKey(now);
  return { keys: publishable(await allKeys(), now).map((k) => k.publicJwk) };
}

/** Private keys opened from their sealed form, by kid. */
const privateKeys = processWide("oidc.private-keys", () => new Map<string, CryptoKey>());
// The key ring as last read, so signing costs no query. It may be up to KEY_RING_TTL_MS old: a
// rotated-in key signs only SIGNING_KEY_ACTIVATION_DELAY_SECONDS after it is made, far longer.
const KEY_RING_TTL_MS = 60_000;
// loadedAt is performance.now(): the ring's age is time elapsed in this process, which the test clock does not move.
type KeyRing = { loadedAt: number; rows: Array<{ kid: string; activatesAt: Date; privateKeyEncrypted: string }> };
const ring = processWide("oidc.key-ring", () => ({
  current: undefined as KeyRing | undefined,
  // One reload at a time: requests arriving while the ring is stale share it.
  reloading: undefined as Promise<KeyRing> | undefined,
  // Bumped by clearKeyRing: a reload that started before it is used once but not kept.
  generation: 0,
}));

async function loadKeyRing(now: Date): Promise<KeyRing> {
  await ensureSigningKey(now);
  const rows = await (
    await db()
  ).signingKey.findMany({
    orderBy: [{ activatesAt: "desc" }, { kid: "desc" }],
    select: { kid: true, activatesAt: true, privateKeyEncrypted: true },
  });
  return { loadedAt: performance.now(), rows };
}

/** The key that signs at `now` (the newest active one), ready for jose. */
export async function signingKey(now = clockNow()): Promise<{ kid: string; key: CryptoKey }> {
  let keys = ring.current;
  if (!keys || performance.now() - keys.loadedAt > KEY_RING_TTL_MS) {
    const started = ring.generation;
    ring.reloading ??= loadKeyRing(now).finally(() => (ring.reloading = undefined));
    keys = await ring.reloading;
    if (started === ring.generation) ring.current = keys;
  }
  const row = keys.rows.find((r) => r.activatesAt <= now);
  if (!row) throw new Error("No active signing key.");
  let key = privateKeys.get(row.kid);
  if (!key) {
    key = await importPKCS8(openSecret(SEAL_PURPOSE, row.privateKeyEncrypted), SIGNING_ALG);
    privateKeys.set(row.kid, key);
  }
  return { kid: row.kid, key };
}

/** Forgets the key ring (after a key is made in this process, or when tests swap databases). */
export function clearKeyRing(): void {
  ring.generation += 1;
  ring.current = undefined;
  ring.reloading = undefined;
}

/** The keys with their state, for the command-line tool. */
export async function listSigningKeys(now = clockNow()) {
  const keys = await allKeys();
  const published = new Set(publishable(keys, now).map((k) => k.kid));
  const signing = [...keys].reverse().find((k) => k.activatesAt <= now)?.kid;
  return keys.map((k) => ({
    kid: k.kid,
    activatesAt: k.activatesAt,
    state: k.kid === signing ? "signing" : k.activatesAt > now ? "published, signs later" : published.has(k.kid) ? "published, replaced" : "retired",
  }));
}
