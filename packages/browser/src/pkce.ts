// The attempt's secrets made in the page: the PKCE verifier (S256), state and nonce, kept in storage
// keyed by state until the callback page has used them.

/** Storage key prefix for one attempt's record. */
export const RECORD_PREFIX = "service-sso:";
/** An attempt left unfinished is forgotten after ten minutes (the flow itself lasts no longer). */
export const RECORD_TTL_MS = 10 * 60 * 1000;

export interface AttemptRecord {
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  /** The page that started the attempt: where a full-page sign-in returns to. */
  returnTo: string;
  /** "popup" or "redirect": how the sign-in window was opened. */
  mode: "popup" | "redirect";
  expiresAt: number;
}

type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

/** 32 random bytes, base64url: a PKCE verifier of 43 characters (RFC 7636 asks 43–128). */
export function randomToken(bytes = 32): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return base64url(buf);
}

export function base64url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The S256 code challenge: base64url(SHA-256(verifier)). */
export async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** The stores an attempt is written to: localStorage (shared with the popup), and sessionStorage as a second copy. */
export function defaultStores(): KeyValueStore[] {
  const stores: KeyValueStore[] = [];
  for (const name of ["localStorage", "sessionStorage"] as const) {
    try {
      const s = window[name];
      s.setItem(RECORD_PREFIX + "probe", "1");
      s.removeItem(RECORD_PREFIX + "probe");
      stores.push(s);
    } catch {
      // storage disabled in this browser: use the other one
    }
  }
  return stores;
}

export function saveAttempt(state: string, record: AttemptRecord, stores: KeyValueStore[] = defaultStores()): void {
  pruneAttempts(stores, Date.now());
  if (!stores.length) throw new Error("This browser does not allow storage, which sign-in needs.");
  for (const s of stores) s.setItem(RECORD_PREFIX + state, JSON.stringify(record));
}

export function readAttempt(state: string | null | undefined, stores: KeyValueStore[] = defaultStores(), now = Date.now()): AttemptRecord | null {
  if (!state) return null;
  for (const s of stores) {
    const raw = s.getItem(RECORD_PREFIX + state);
    if (!raw) continue;
    try {
      const record = JSON.parse(raw) as AttemptRecord;
      if (typeof record.codeVerifier === "string" && record.expiresAt > now) return record;
    } catch {
      // not ours: ignore
    }
  }
  return null;
}

export function removeAttempt(state: string, stores: KeyValueStore[] = defaultStores()): void {
  for (const s of stores) s.removeItem(RECORD_PREFIX + state);
}

/** Drops expired attempts so abandoned verifiers do not linger. */
export function pruneAttempts(stores: KeyValueStore[], now: number): void {
  for (const s of stores) {
    const stale: string[] = [];
    for (let i = 0; i < s.length; i++) {
      const key = s.key(i);
      if (!key?.startsWith(RECORD_PREFIX)) continue;
      try {
        if ((JSON.parse(s.getItem(key) ?? "{}") as AttemptRecord).expiresAt <= now) stale.push(key);
      } catch {
        stale.push(key);
      }
    }
    for (const key of stale) s.removeItem(key);
  }
}
