// Discovery and signing keys: the exact discovery document, a JWKS that verifies what the service
// signs, private keys sealed at rest, and rotation (published first, signing after the delay,
// kept until the tokens it signed have expired).
import { createLocalJWKSet, jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { GET as jwksRoute } from "@/app/.well-known/jwks.json/route";
import { GET as discovery } from "@/app/.well-known/openid-configuration/route";
import { openSecret } from "@/lib/platform/crypto";
import { db } from "@/lib/platform/db";
import { createSigningKey, JWKS_MAX_AGE_SECONDS, jwks, LONGEST_SIGNED_TOKEN_SECONDS, publishable, SIGNING_KEY_ACTIVATION_DELAY_SECONDS, signingKey } from "@/lib/oidc/signing-keys";
import { call } from "../helpers/http";

async function sign(now: Date) {
  const { kid, key } = await signingKey(now);
  const token = await new SignJWT({ sub: "user" })
    .setProtectedHeader({ alg: "RS256", kid })
    .setIssuer("http://localhost:3000")
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(now.getTime() / 1000) + 3600)
    .sign(key);
  return { kid, token };
}

describe("GET /.well-known/openid-configuration", () => {
  it("answers exactly the specification's fields, with the issuer equal to BASE_URL, to any origin", async () => {
    const res = await call(discovery);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      issuer: "http://localhost:3000",
      authorization_endpoint: "http://localhost:3000/oauth/authorize",
      token_endpoint: "http://localhost:3000/oauth/token",
      revocation_endpoint: "http://localhost:3000/oauth/revoke",
      userinfo_endpoint: "http://localhost:3000/oauth/userinfo",
      jwks_uri: "http://localhost:3000/.well-known/jwks.json",
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      scopes_supported: ["openid", "email", "profile"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
    });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe(`public, max-age=${JWKS_MAX_AGE_SECONDS}`);
  });
});

describe("signing keys and the JWKS", () => {
  it("creates the first key on first use; the JWKS verifies what it signs, by kid", async () => {
    const res = await call(jwksRoute);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.body.keys).toHaveLength(1);
    const [jwk] = res.body.keys;
    expect(jwk).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig", e: "AQAB" });
    expect(Buffer.from(jwk.n, "base64url").length * 8).toBeGreaterThanOrEqual(2048);
    expect(jwk.d).toBeUndefined();
    const { kid, token } = await sign(new Date());
    expect(kid).toBe(jwk.kid);
    const verified = await jwtVerify(token, createLocalJWKSet(res.body));
    expect(verified.protectedHeader.kid).toBe(kid);
  });

  it("stores the private key sealed under SERVICE_SECRET, never in the clear", async () => {
    await jwks();
    const [row] = await (await db()).signingKey.findMany();
    const pem = openSecret("oidc-signing-key", row!.privateKeyEncrypted);
    expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    // Neither the PEM's armour nor any stretch of its DER body (base64, as a PEM holds it) is stored.
    // (A ciphertext may by chance hold a short run such as "MII": only runs of 24 characters count.)
    expect(row!.privateKeyEncrypted).not.toContain("PRIVATE KEY");
    const body = pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s/g, "");
    for (let i = 0; i + 24 <= body.length; i += 24) expect(row!.privateKeyEncrypted).not.toContain(body.slice(i, i + 24));
    const tampered = row!.privateKeyEncrypted.slice(0, -4) + (row!.privateKeyEncrypted.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(() => openSecret("oidc-signing-key", tampered)).toThrow();
  });

  it("rotates: the new key is published at once, signs after the delay, and the old one stays until its tokens expire", async () => {
    const t0 = new Date();
    const first = (await sign(t0)).kid;
    const next = await createSigningKey({ now: t0 });
    expect(next.activatesAt.getTime() - t0.getTime()).toBe(SIGNING_KEY_ACTIVATION_DELAY_SECONDS * 1000);
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    const kids = async (now: Date) => (await jwks(now)).keys.map((k) => k.kid);

    expect(await kids(at(1))).toEqual([first, next.kid]);
    expect((await sign(at(SIGNING_KEY_ACTIVATION_DELAY_SECONDS - 1))).kid).toBe(first);
    const { token: oldToken } = await sign(at(SIGNING_KEY_ACTIVATION_DELAY_SECONDS - 1));
    expect((await sign(at(SIGNING_KEY_ACTIVATION_DELAY_SECONDS))).kid).toBe(next.kid);

    const lastOldTokenExpiry = SIGNING_KEY_ACTIVATION_DELAY_SECONDS + LONGEST_SIGNED_TOKEN_SECONDS;
    // The last token the old key signed is still valid just before it expires, and still verifiable.
    const stillThere = at(lastOldTokenExpiry - 10);
    expect(await kids(stillThere)).toEqual([first, next.kid]);
    await expect(jwtVerify(oldToken, createLocalJWKSet(await jwks(stillThere)), { currentDate: stillThere })).resolves.toBeDefined();
    expect(await kids(at(lastOldTokenExpiry + JWKS_MAX_AGE_SECONDS + 1))).toEqual([next.kid]);
  });

  it("keeps only what is needed: publishable() over a chain of keys", () => {
    const key = (kid: string, activatesAtS: number) => ({ kid, activatesAt: new Date(activatesAtS * 1000), publicJwk: { kid } });
    const keys = [key("a", 0), key("b", 10_000), key("c", 20_000)];
    const retention = LONGEST_SIGNED_TOKEN_SECONDS + JWKS_MAX_AGE_SECONDS;
    expect(publishable(keys, new Date(5_000 * 1000)).map((k) => k.kid)).toEqual(["a", "b", "c"]);
    expect(publishable(keys, new Date((10_000 + retention + 1) * 1000)).map((k) => k.kid)).toEqual(["b", "c"]);
    expect(publishable(keys, new Date((20_000 + retention + 1) * 1000)).map((k) => k.kid)).toEqual(["c"]);
  });
});
