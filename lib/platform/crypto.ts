// Keyed hashing, constant-time comparison and random secrets: the one place secrets are derived.
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomFillSync, timingSafeEqual } from "node:crypto";
import { env } from "../env";
import { processWide } from "../process-wide";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Random bytes drawn a page at a time and each handed out once, as node's randomUUID does: one call to
 * the system's generator serves many ids and tokens (a request id is drawn on every request).
 */
const pool = processWide("crypto.random-pool", () => ({ bytes: Buffer.alloc(4096), next: 4096 }));

function randomByte(): number {
  if (pool.next === pool.bytes.length) {
    randomFillSync(pool.bytes);
    pool.next = 0;
  }
  const byte = pool.bytes[pool.next]!;
  // Handed out once: zeroed behind.
  pool.bytes[pool.next++] = 0;
  return byte;
}

/** A random string over [0-9A-Za-z] (no '_' or '-', so it never forges a prefix boundary). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    // 248 = 62 * 4: rejecting higher bytes keeps every character equally likely.
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** Keys derived so far, by purpose. */
const derived = processWide("crypto.derived-keys", () => new Map<string, Buffer>());

/** A 32-byte key for one purpose, derived from SERVICE_SECRET (HKDF-SHA-256). */
export function deriveKey(purpose: string): Buffer {
  let key = derived.get(purpose);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", env().SERVICE_SECRET, "profile-service", purpose, 32));
    derived.set(purpose, key);
  }
  return key;
}

/**
 * A string over [0-9A-Za-z] of `length` drawn from HMAC-SHA-256 of value under the key for purpose:
 * unpredictable without SERVICE_SECRET and value, and the same for the same inputs on every instance.
 */
export function derivedBase62(purpose: string, value: string, length: number): string {
  let out = "";
  for (let block = 0; out.length < length; block++) {
    for (const byte of createHmac("sha256", deriveKey(purpose)).update(`${block}:${value}`).digest()) {
      // As in randomBase62: bytes from 248 up are skipped, so every character is equally likely.
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** HMAC-SHA-256 of value under the key for purpose, hex-encoded. */
export function keyedHash(purpose: string, value: string): string {
  return createHmac("sha256", deriveKey(purpose)).update(value).digest("hex");
}

/** Constant-time string equality (lengths are not secret). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/**
 * Encrypts a secret for storage (AES-256-GCM under the key for purpose): "v1.<iv>.<tag>.<ciphertext>",
 * base64url. Anyone with the database but not SERVICE_SECRET learns nothing of it.
 */
export function sealSecret(purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(purpose), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The secret sealSecret stored; throws when it was sealed under another secret or altered. */
export function openSecret(purpose: string, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new Error("Not a sealed secret.");
  const authTag = Buffer.from(tag, "base64url");
  // A full 16-byte tag only: a shortened one would make forging cheaper.
  if (authTag.length !== 16) throw new Error("Not a sealed secret.");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(purpose), Buffer.from(iv, "base64url"), { authTagLength: 16 });
  decipher.setAuthTag(authTag);
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

/** Clears derived keys when tests swap SERVICE_SECRET. */
export function resetDerivedKeysForTests(): void {
  derived.clear();
}

/** base64url(SHA-256(verifier)): the S256 code challenge (RFC 7636 § 4.2). */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** An S256 code challenge: 43 base64url characters. */
export const CODE_CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
