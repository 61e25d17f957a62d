// The attempt's secrets: S256 challenges, records keyed by state, expiry; and the authorize address
// the popup opens, which never carries `required`.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { pruneAttempts, randomToken, readAttempt, removeAttempt, s256, saveAttempt, type AttemptRecord } from "../src/pkce";
import { authorizeUrl } from "../src/sso";

class MemoryStorage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

const record = (over: Partial<AttemptRecord> = {}): AttemptRecord => ({
  codeVerifier: randomToken(),
  nonce: randomToken(16),
  redirectUri: "http://localhost:5000/callback",
  returnTo: "http://localhost:5000/",
  mode: "popup",
  expiresAt: Date.now() + 60_000,
  ...over,
});

describe("PKCE", () => {
  it("makes 43-character base64url verifiers, different every time", () => {
    const a = randomToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(a);
  });

  it("computes the S256 challenge as base64url(SHA-256(verifier))", async () => {
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    expect(await s256(verifier)).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    const v = randomToken();
    expect(await s256(v)).toBe(createHash("sha256").update(v).digest("base64url"));
  });
});

describe("attempt records", () => {
  it("are kept by state in every store and read back from any of them", () => {
    const local = new MemoryStorage();
    const session = new MemoryStorage();
    const r = record();
    saveAttempt("state-1", r, [local, session]);
    expect(readAttempt("state-1", [local])).toEqual(r);
    expect(readAttempt("state-1", [session])).toEqual(r);
    expect(readAttempt("other", [local, session])).toBeNull();
    expect(readAttempt(null, [local, session])).toBeNull();
    removeAttempt("state-1", [local, session]);
    expect(readAttempt("state-1", [local, session])).toBeNull();
  });

  it("expire, and expired ones are pruned when a new attempt starts", () => {
    const store = new MemoryStorage();
    saveAttempt("old", record({ expiresAt: Date.now() - 1 }), [store]);
    expect(readAttempt("old", [store])).toBeNull();
    saveAttempt("new", record(), [store]);
    expect(store.getItem("service-sso:old")).toBeNull();
    expect(readAttempt("new", [store])).not.toBeNull();
    store.setItem("unrelated", "kept");
    pruneAttempts([store], Date.now() + 3_600_000);
    expect(store.getItem("service-sso:new")).toBeNull();
    expect(store.getItem("unrelated")).toBe("kept");
  });
});

describe("the authorize address", () => {
  it("asks for a code with S256, state and nonce, and the default scopes", () => {
    const url = new URL(
      authorizeUrl({ baseUrl: "https://profiles.example/", clientId: "oc_abc", redirectUri: "https://app.example/cb", state: "s1", nonce: "n1", codeChallenge: "c1" }),
    );
    expect(url.origin + url.pathname).toBe("https://profiles.example/oauth/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "oc_abc",
      redirect_uri: "https://app.example/cb",
      scope: "openid email profile",
      state: "s1",
      nonce: "n1",
      code_challenge: "c1",
      code_challenge_method: "S256",
    });
  });

  it("never carries required, whatever the caller passes", () => {
    const opts = {
      baseUrl: "https://p.example",
      clientId: "oc_x",
      redirectUri: "https://a.example/cb",
      scopes: "openid",
      state: "s",
      nonce: "n",
      codeChallenge: "c",
      required: "gmail",
    };
    const url = new URL(authorizeUrl(opts));
    expect(url.searchParams.has("required")).toBe(false);
    expect(url.searchParams.get("scope")).toBe("openid");
  });
});
