// POST /oauth/token and POST /oauth/revoke: client authentication, every OAuth error row verbatim,
// the code and refresh lifetimes on an injected clock, concurrency, the ID token's claims, and
// access tokens on the profile routes.
import { decodeJwt, decodeProtectedHeader, createLocalJWKSet, jwtVerify } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as jwksRoute } from "@/app/.well-known/jwks.json/route";
import { GET as profileRoute } from "@/app/v1/profile/route";
import { POST as rememberRoute } from "@/app/v1/profile/remember/route";
import { POST as importRoute } from "@/app/v1/profile/import/route";
import { POST as forgetRoute } from "@/app/v1/profile/forget/route";
import { OPTIONS as tokenPreflight } from "@/app/oauth/token/route";
import { POST as revokeRoute } from "@/app/oauth/revoke/route";
import { GET as userinfoRoute } from "@/app/oauth/userinfo/route";
import { POST as developerMcp } from "@/app/mcp/route";
import { POST as personalMcp } from "@/app/personal-mcp/route";
import { env } from "@/lib/env";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { OAUTH_MESSAGES } from "@/lib/oidc/errors";
import { ACCESS_TOKEN_TTL_SECONDS, AUTHORIZATION_CODE_TTL_SECONDS, REFRESH_RETRY_WINDOW_SECONDS, REFRESH_TOKEN_IDLE_SECONDS } from "@/lib/oidc/tokens";
import { PROFILE_TOOL_SCOPES } from "@/lib/profile/scopes";
import { hashToken } from "@/lib/bearer-tokens/access-token";
import { revokeApproval } from "@/lib/users/approvals";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { basic, CALLBACK, exchange, registerClient, revokeCall, signIn, tokenCall } from "../helpers/oauth";

let t: Tenant;
let pub: string;
beforeEach(async () => {
  resetClockForTests();
  t = await createTenant();
  pub = (await registerClient(t)).client_id;
});
afterEach(() => resetClockForTests());

const codeGrant = (clientId: string, s: { code: string; verifier: string }, extra: Record<string, string | undefined> = {}) =>
  tokenCall({ grant_type: "authorization_code", code: s.code, redirect_uri: CALLBACK, client_id: clientId, code_verifier: s.verifier, ...extra });
const refresh = (clientId: string, token: string, headers: Record<string, string> = {}) =>
  tokenCall({ grant_type: "refresh_token", refresh_token: token, client_id: clientId }, headers);
const asProfile = (accessToken: string, agent = t.agent.handle) =>
  call(profileRoute, { headers: { "x-api-key": t.keys.sk, "x-agent": agent, authorization: `Bearer ${accessToken}` } });

function expectOAuthError(res: { status: number; body: unknown; headers: Headers }, status: number, error: string, description: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error, error_description: description });
  expect(res.headers.get("cache-control")).toBe("no-store");
}

describe("the code grant", () => {
  it("answers the spec's fields, no-store, and an ID token signed with a published key", async () => {
    const s = await signIn(pub, t.users.live.id);
    const res = await codeGrant(pub, s);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "expires_in", "id_token", "refresh_token", "resource", "scope", "token_type"]);
    expect(res.body.access_token).toMatch(/^mcp_at_[A-Za-z0-9]{43}$/);
    expect(res.body.refresh_token).toMatch(/^mcp_rt_[A-Za-z0-9]{43}$/);
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, resource: "http://localhost:3000" });
    expect(res.body.scope).toBe("profile.read profile.search profile.remember profile.commit openid email profile");

    const jwks = createLocalJWKSet((await call(jwksRoute)).body);
    const { payload, protectedHeader } = await jwtVerify(res.body.id_token, jwks, { issuer: "http://localhost:3000", audience: pub, algorithms: ["RS256"] });
    expect(protectedHeader.kid).toBeTruthy();
    expect(payload).toMatchObject({ sub: t.users.live.id, nonce: "n-456", name: "Live Person" });
    expect(payload.exp! - payload.iat!).toBe(3600);
    for (const absent of ["auth_time", "at_hash", "azp", "phone_number", "locale", "email", "email_verified"]) expect(payload).not.toHaveProperty(absent);
    // Nothing secret is stored: only keyed hashes.
    const stored = await (await db()).oAuthAccessToken.findUnique({ where: { hash: hashToken(res.body.access_token) } });
    expect(stored).not.toBeNull();
    expect(JSON.stringify(await (await db()).oAuthRefreshToken.findMany())).not.toContain(res.body.refresh_token);
  });

  it("issues no ID token without openid, and only the OpenID scopes asked for", async () => {
    const s = await signIn(pub, t.users.live.id, { scope: "email" });
    const res = await codeGrant(pub, s);
    expect(res.body.id_token).toBeUndefined();
    expect(res.body.scope).toBe([...PROFILE_TOOL_SCOPES, "email"].join(" "));
  });

  it("puts email claims only with scope email and only when the account has an email; verified only with proof", async () => {
    const prisma = await db();
    const claims = async (scope: string) => decodeJwt((await exchange(pub, t.users.live.id, { scope })).id_token!);
    expect(await claims("openid email")).not.toHaveProperty("email");
    await prisma.user.update({ where: { id: t.users.live.id }, data: { email: "live@example.com", emailProof: "none" } });
    expect(await claims("openid email")).toMatchObject({ email: "live@example.com", email_verified: false });
    expect(await claims("openid profile")).not.toHaveProperty("email");
    // Re-evaluated at every issuance: an emailed code, a Google or GitHub sign-in…
    for (const proof of ["email_code", "third_party"] as const) {
      await prisma.user.update({ where: { id: t.users.live.id }, data: { emailProof: proof } });
      expect(await claims("openid email")).toMatchObject({ email: "live@example.com", email_verified: true });
    }
    await prisma.user.update({ where: { id: t.users.live.id }, data: { emailProof: "none" } });
    expect(await claims("openid email")).toMatchObject({ email_verified: false });
    // …or a connected mailbox that owns the address, while it works.
    const other = await prisma.appConnection.create({
      data: { userId: t.users.live.id, app: "gmail", provider: "google", accountId: "g-1", accountEmail: "someone.else@example.com", accessTokenSealed: "v1.x.x.x" },
    });
    expect(await claims("openid email")).toMatchObject({ email_verified: false });
    await prisma.appConnection.update({ where: { id: other.id }, data: { accountEmail: "LIVE@example.com" } });
    expect(await claims("openid email")).toMatchObject({ email_verified: true });
    await prisma.appConnection.update({ where: { id: other.id }, data: { status: "needs_reconnect" } });
    expect(await claims("openid email")).toMatchObject({ email_verified: false });
    await prisma.appConnection.update({ where: { id: other.id }, data: { status: "active", app: "calendar" } });
    expect(await claims("openid email")).toMatchObject({ email_verified: false });
  });

  it("puts each profile claim only with scope profile and only when held", async () => {
    await (
      await db()
    ).user.update({
      where: { id: t.users.live.id },
      data: { name: "Ada Lovelace", givenName: "Ada", familyName: "Lovelace", picture: "https://img.example/ada.png", birthdate: "around 1815", location: "London" },
    });
    const full = decodeJwt((await exchange(pub, t.users.live.id, { scope: "openid profile" })).id_token!);
    expect(full).toMatchObject({
      name: "Ada Lovelace",
      given_name: "Ada",
      family_name: "Lovelace",
      picture: "https://img.example/ada.png",
      birthdate: "around 1815",
      location: "London",
    });
    const none = decodeJwt((await exchange(pub, t.users.live.id, { scope: "openid" })).id_token!);
    for (const claim of ["name", "given_name", "family_name", "picture", "birthdate", "location"]) expect(none).not.toHaveProperty(claim);
    expect(Object.keys(none).sort()).toEqual(["aud", "exp", "iat", "iss", "nonce", "sub"]);
    const noNonce = decodeJwt((await exchange(pub, t.users.live.id, { scope: "openid", nonce: undefined })).id_token!);
    expect(noNonce).not.toHaveProperty("nonce");
    expect(decodeProtectedHeader((await exchange(pub, t.users.live.id)).id_token!).alg).toBe("RS256");
  });

  it("gives the same sub to every client of every developer", async () => {
    const other = await createTenant();
    const otherClient = (await registerClient(other)).client_id;
    const a = decodeJwt((await exchange(pub, t.users.live.id)).id_token!);
    const b = decodeJwt((await exchange(otherClient, t.users.live.id)).id_token!);
    expect(a.sub).toBe(t.users.live.id);
    expect(b.sub).toBe(a.sub);
    expect(b.aud).toBe(otherClient);
  });
});

describe("OAuth error rows", () => {
  it("replay: 'Authorization code was already used.', and nothing else changes: the tokens issued from it keep working", async () => {
    const s = await signIn(pub, t.users.live.id);
    const first = await codeGrant(pub, s);
    expect(first.status).toBe(200);
    expect((await asProfile(first.body.access_token)).status).toBe(200);
    const before = await (await db()).oAuthGrant.findMany({ where: { clientId: pub } });
    expectOAuthError(await codeGrant(pub, s), 400, "invalid_grant", OAUTH_MESSAGES.codeUsed);
    expect(await (await db()).oAuthGrant.findMany({ where: { clientId: pub } })).toEqual(before);
    expect((await asProfile(first.body.access_token)).status).toBe(200);
    expect((await refresh(pub, first.body.refresh_token)).status).toBe(200);
  });

  it("expired: 'Authorization code expired.' after 5 minutes, accepted just before", async () => {
    const late = await signIn(pub, t.users.live.id);
    const early = await signIn(pub, t.users.live.id);
    advanceClockForTests(AUTHORIZATION_CODE_TTL_SECONDS * 1000 - 1_000);
    expect((await codeGrant(pub, early)).status).toBe(200);
    advanceClockForTests(1_000);
    expectOAuthError(await codeGrant(pub, late), 400, "invalid_grant", OAUTH_MESSAGES.codeExpired);
  });

  it("wrong verifier: 'PKCE verification failed.' and the code stays usable", async () => {
    const s = await signIn(pub, t.users.live.id);
    expectOAuthError(await codeGrant(pub, s, { code_verifier: "x".repeat(43) }), 400, "invalid_grant", OAUTH_MESSAGES.pkceFailed);
    expectOAuthError(await codeGrant(pub, s, { code_verifier: "bad verifier" }), 400, "invalid_grant", OAUTH_MESSAGES.pkceFailed);
    expect((await codeGrant(pub, s)).status).toBe(200);
  });

  it("different redirect_uri: 'redirect_uri does not match authorization code.'", async () => {
    const s = await signIn(pub, t.users.live.id);
    expectOAuthError(await codeGrant(pub, s, { redirect_uri: "http://localhost:4000/other" }), 400, "invalid_grant", OAUTH_MESSAGES.redirectUriDiffers);
  });

  it("unknown client: 401 invalid_client 'Unknown OAuth client.'", async () => {
    const s = await signIn(pub, t.users.live.id);
    expectOAuthError(await codeGrant("oc_unknown00000000000000000", s), 401, "invalid_client", OAUTH_MESSAGES.unknownClient);
  });

  it("confidential client with no secret: 401 invalid_client 'Client authentication required.'", async () => {
    for (const method of ["client_secret_basic", "client_secret_post"]) {
      const c = await registerClient(t, { method });
      const s = await signIn(c.client_id, t.users.live.id);
      const res = await codeGrant(c.client_id, s);
      expectOAuthError(res, 401, "invalid_client", OAUTH_MESSAGES.clientAuthRequired);
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
    }
  });

  it("refresh reuse: 'Refresh token reuse detected.' and the whole chain revoked", async () => {
    const first = await exchange(pub, t.users.live.id);
    const second = (await refresh(pub, first.refresh_token)).body;
    const third = (await refresh(pub, second.refresh_token)).body;
    expect(third.refresh_token).toBeDefined();
    // first was superseded, and its successor has been used: reuse.
    expectOAuthError(await refresh(pub, first.refresh_token), 400, "invalid_grant", OAUTH_MESSAGES.refreshReuse);
    expectOAuthError(await refresh(pub, third.refresh_token), 400, "invalid_grant", OAUTH_MESSAGES.refreshReuse);
    expect((await asProfile(third.access_token)).status).toBe(401);
  });

  it("answers the service's own rows with the OAuth shape", async () => {
    const s = await signIn(pub, t.users.live.id);
    expectOAuthError(await tokenCall({ code: s.code, client_id: pub }), 400, "invalid_request", OAUTH_MESSAGES.grantTypeRequired);
    expectOAuthError(await tokenCall({ grant_type: "password", client_id: pub }), 400, "unsupported_grant_type", OAUTH_MESSAGES.unsupportedGrantType);
    expectOAuthError(await tokenCall({ grant_type: "authorization_code", code: s.code, redirect_uri: CALLBACK }), 400, "invalid_request", OAUTH_MESSAGES.clientIdRequired);
    expectOAuthError(await codeGrant(pub, { ...s, code: "nope" }), 400, "invalid_grant", OAUTH_MESSAGES.codeInvalid);
    expectOAuthError(await codeGrant(pub, s, { code_verifier: undefined }), 400, "invalid_request", "code_verifier is required.");
    expectOAuthError(await refresh(pub, "mcp_rt_unknown"), 400, "invalid_grant", OAUTH_MESSAGES.refreshInvalid);
    const json = await call((await import("@/app/oauth/token/route")).POST, { body: { grant_type: "refresh_token" } });
    expectOAuthError(json, 400, "invalid_request", OAUTH_MESSAGES.formRequired);
    const repeated = await call((await import("@/app/oauth/token/route")).POST, {
      rawBody: `grant_type=authorization_code&code=${s.code}&code=${s.code}&client_id=${pub}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectOAuthError(repeated, 400, "invalid_request", "The code parameter is repeated.");
    // None of these consumed the code.
    expect((await codeGrant(pub, s)).status).toBe(200);
  });

  it("binds a code and a refresh token to their client", async () => {
    const otherPublic = (await registerClient(await createTenant())).client_id;
    const s = await signIn(pub, t.users.live.id);
    expectOAuthError(await codeGrant(otherPublic, s), 400, "invalid_grant", OAUTH_MESSAGES.codeOtherClient);
    const tokens = (await codeGrant(pub, s)).body;
    expectOAuthError(await refresh(otherPublic, tokens.refresh_token), 400, "invalid_grant", OAUTH_MESSAGES.refreshOtherClient);
    expect((await refresh(pub, tokens.refresh_token)).status).toBe(200);
  });
});

describe("client authentication", () => {
  it("client_secret_basic: the secret in HTTP Basic only", async () => {
    const c = await registerClient(t, { method: "client_secret_basic" });
    const secret = c.client_secret!;
    const s = await signIn(c.client_id, t.users.live.id);
    expectOAuthError(await codeGrant(c.client_id, s, { client_secret: secret }), 401, "invalid_client", OAUTH_MESSAGES.clientAuthFailed);
    expectOAuthError(await codeGrant(c.client_id, s, {}), 401, "invalid_client", OAUTH_MESSAGES.clientAuthRequired);
    const wrong = await tokenCall({ grant_type: "authorization_code", code: s.code, redirect_uri: CALLBACK, code_verifier: s.verifier }, basic(c.client_id, "ocs_wrong"));
    expectOAuthError(wrong, 401, "invalid_client", OAUTH_MESSAGES.clientAuthFailed);
    const ok = await tokenCall({ grant_type: "authorization_code", code: s.code, redirect_uri: CALLBACK, code_verifier: s.verifier }, basic(c.client_id, secret));
    expect(ok.status).toBe(200);
    const rotated = await tokenCall({ grant_type: "refresh_token", refresh_token: ok.body.refresh_token }, basic(c.client_id, secret));
    expect(rotated.status).toBe(200);
    expect(rotated.body.id_token).toBeUndefined();
    expectOAuthError(await refresh(c.client_id, rotated.body.refresh_token), 401, "invalid_client", OAUTH_MESSAGES.clientAuthRequired);
  });

  it("client_secret_post: the secret in the body only", async () => {
    const c = await registerClient(t, { method: "client_secret_post" });
    const s = await signIn(c.client_id, t.users.live.id);
    const viaBasic = await tokenCall({ grant_type: "authorization_code", code: s.code, redirect_uri: CALLBACK, code_verifier: s.verifier }, basic(c.client_id, c.client_secret!));
    expectOAuthError(viaBasic, 401, "invalid_client", OAUTH_MESSAGES.clientAuthFailed);
    expectOAuthError(await codeGrant(c.client_id, s, { client_secret: "ocs_wrong" }), 401, "invalid_client", OAUTH_MESSAGES.clientAuthFailed);
    expect((await codeGrant(c.client_id, s, { client_secret: c.client_secret })).status).toBe(200);
  });

  it("a public client sends no secret; Basic and body credentials do not mix", async () => {
    const s = await signIn(pub, t.users.live.id);
    expectOAuthError(await codeGrant(pub, s, { client_secret: "ocs_x" }), 401, "invalid_client", OAUTH_MESSAGES.publicClientSecret);
    const both = await tokenCall({ grant_type: "authorization_code", code: s.code, redirect_uri: CALLBACK, code_verifier: s.verifier, client_secret: "x" }, basic(pub, "y"));
    expectOAuthError(both, 400, "invalid_request", OAUTH_MESSAGES.oneAuthMethod);
    const mismatch = await tokenCall({ grant_type: "authorization_code", code: s.code, client_id: "oc_other" }, basic(pub, "y"));
    expectOAuthError(mismatch, 400, "invalid_request", OAUTH_MESSAGES.clientIdMismatch);
    expectOAuthError(await tokenCall({ grant_type: "refresh_token" }, { authorization: "Basic !!!" }), 401, "invalid_client", OAUTH_MESSAGES.malformedBasic);
  });

  it("PKCE is required of confidential clients too", async () => {
    const c = await registerClient(t, { method: "client_secret_post" });
    const s = await signIn(c.client_id, t.users.live.id);
    expectOAuthError(await codeGrant(c.client_id, s, { client_secret: c.client_secret, code_verifier: undefined }), 400, "invalid_request", "code_verifier is required.");
  });
});

describe("refresh tokens", () => {
  it("rotate on every use, in one chain, each answer without an ID token", async () => {
    let tokens = await exchange(pub, t.users.live.id);
    const seen = new Set([tokens.refresh_token]);
    for (let i = 0; i < 3; i++) {
      const res = await refresh(pub, tokens.refresh_token);
      expect(res.status).toBe(200);
      expect(res.body.id_token).toBeUndefined();
      expect(Object.keys(res.body).sort()).toEqual(["access_token", "expires_in", "refresh_token", "resource", "scope", "token_type"]);
      expect(seen.has(res.body.refresh_token)).toBe(false);
      seen.add(res.body.refresh_token);
      tokens = res.body;
    }
    expect(await (await db()).oAuthGrant.count({ where: { clientId: pub } })).toBe(1);
  });

  it("accept the token just superseded within 60 seconds of its first refresh (lost response): the same pair again, which goes on", async () => {
    const first = await exchange(pub, t.users.live.id);
    const lost = (await refresh(pub, first.refresh_token)).body;
    advanceClockForTests(REFRESH_RETRY_WINDOW_SECONDS * 1000 - 1_000);
    const retry = await refresh(pub, first.refresh_token);
    expect(retry.status).toBe(200);
    // The pair the first refresh wrote, its access token's remaining lifetime with it.
    expect(retry.body).toMatchObject({ access_token: lost.access_token, refresh_token: lost.refresh_token, scope: lost.scope });
    // (the time the test itself takes may cost a second of it)
    expect(ACCESS_TOKEN_TTL_SECONDS - (REFRESH_RETRY_WINDOW_SECONDS - 1) - retry.body.expires_in).toBeOneOf([0, 1]);
    expect((await asProfile(lost.access_token)).status).toBe(200);
    const next = await refresh(pub, lost.refresh_token);
    expect(next.status).toBe(200);
    expect((await asProfile(next.body.access_token)).status).toBe(200);
    // Once its successor has been used, the first token is reuse, even inside the window.
    expectOAuthError(await refresh(pub, first.refresh_token), 400, "invalid_grant", OAUTH_MESSAGES.refreshReuse);
    expect((await asProfile(next.body.access_token)).status).toBe(401);
  });

  it("two refreshes of one token that race (two tabs): both get the same pair, and both go on without revoking the chain", async () => {
    const first = await exchange(pub, t.users.live.id);
    const [a, b] = await Promise.all([refresh(pub, first.refresh_token), refresh(pub, first.refresh_token)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.refresh_token).toBe(a.body.refresh_token);
    expect(b.body.access_token).toBe(a.body.access_token);
    // Each tab refreshes again with what it holds: again one pair, and the chain lives.
    const [a2, b2] = await Promise.all([refresh(pub, a.body.refresh_token), refresh(pub, b.body.refresh_token)]);
    expect([a2.status, b2.status]).toEqual([200, 200]);
    expect(a2.body.refresh_token).toBe(b2.body.refresh_token);
    expect((await asProfile(a2.body.access_token)).status).toBe(200);
    const grant = await (await db()).oAuthGrant.findFirstOrThrow({ where: { clientId: pub } });
    expect(grant.revokedAt).toBeNull();
  });

  it("after a retry inside the window the chain goes on", async () => {
    const first = await exchange(pub, t.users.live.id);
    await refresh(pub, first.refresh_token);
    const retry = (await refresh(pub, first.refresh_token)).body;
    const next = await refresh(pub, retry.refresh_token);
    expect(next.status).toBe(200);
    expect((await asProfile(next.body.access_token)).status).toBe(200);
  });

  it("revoke the chain when the superseded token returns later than 60 seconds", async () => {
    const first = await exchange(pub, t.users.live.id);
    const second = (await refresh(pub, first.refresh_token)).body;
    advanceClockForTests(REFRESH_RETRY_WINDOW_SECONDS * 1000 + 1_000);
    expectOAuthError(await refresh(pub, first.refresh_token), 400, "invalid_grant", OAUTH_MESSAGES.refreshReuse);
    expectOAuthError(await refresh(pub, second.refresh_token), 400, "invalid_grant", OAUTH_MESSAGES.refreshReuse);
    const grant = await (await db()).oAuthGrant.findFirstOrThrow({ where: { clientId: pub } });
    expect(grant).toMatchObject({ revokedReason: "reuse" });
  });

  it("expire after 90 days without use, and live on with use", async () => {
    const idle = await exchange(pub, t.users.live.id);
    let used = await exchange(pub, t.users.live.id);
    for (let day = 0; day < 3; day++) {
      advanceClockForTests((60 * 24 * 60 * 60 * 1000) / 2); // 30 days
      used = (await refresh(pub, used.refresh_token)).body;
      expect(used.refresh_token).toBeDefined();
    }
    expectOAuthError(await refresh(pub, idle.refresh_token), 400, "invalid_grant", OAUTH_MESSAGES.refreshExpired);
    resetClockForTests();
    const fresh = await exchange(pub, t.users.live.id);
    advanceClockForTests(REFRESH_TOKEN_IDLE_SECONDS * 1000 - 60_000);
    expect((await refresh(pub, fresh.refresh_token)).status).toBe(200);
  });
});

describe("concurrency", () => {
  it("20 parallel exchanges of one code: exactly one success", async () => {
    const s = await signIn(pub, t.users.live.id);
    const results = await Promise.all(Array.from({ length: 20 }, () => codeGrant(pub, s)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body).toEqual({ error: "invalid_grant", error_description: OAUTH_MESSAGES.codeUsed });
    expect(await (await db()).oAuthGrant.count({ where: { clientId: pub } })).toBe(1);
  });

  it("20 parallel refreshes of one token: one chain, one current token, and all 20 answers are that one pair", async () => {
    const first = await exchange(pub, t.users.live.id);
    const results = await Promise.all(Array.from({ length: 20 }, () => refresh(pub, first.refresh_token)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const prisma = await db();
    const grants = await prisma.oAuthGrant.findMany({ where: { clientId: pub }, include: { refreshTokens: true, accessTokens: true } });
    expect(grants).toHaveLength(1);
    expect(grants[0]!.revokedAt).toBeNull();
    const current = grants[0]!.refreshTokens.filter((r) => r.state === "current");
    expect(current).toHaveLength(1);
    // One pair written, and every answer is it: no stray token, none that dies under its holder.
    const fromRefreshes = grants[0]!.accessTokens.filter((a) => a.refreshHash !== hashToken(first.refresh_token));
    expect(fromRefreshes.map((a) => a.refreshHash)).toEqual([current[0]!.hash]);
    expect(new Set(results.map((r) => r.body.refresh_token))).toEqual(new Set([results[0]!.body.refresh_token]));
    expect(hashToken(results[0]!.body.refresh_token)).toBe(current[0]!.hash);
    expect((await asProfile(results[0]!.body.access_token)).status).toBe(200);
    expect((await refresh(pub, results[0]!.body.refresh_token)).status).toBe(200);
  });
});

describe("access tokens on the profile routes", () => {
  it("name the user for the client's agent, within the token's scopes, for one hour", async () => {
    const tokens = await exchange(pub, t.users.live.id);
    const res = await asProfile(tokens.access_token);
    expect(res.status).toBe(200);
    const remembered = await call(rememberRoute, {
      headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, authorization: `Bearer ${tokens.access_token}` },
      body: { text: "I prefer window seats on long flights." },
    });
    expect(remembered.status).toBe(201);
    advanceClockForTests(ACCESS_TOKEN_TTL_SECONDS * 1000 + 1_000);
    expect((await asProfile(tokens.access_token)).body.error.code).toBe("invalid_access_token");
  });

  it("refuse another developer's key, the test plane, and another agent", async () => {
    const tokens = await exchange(pub, t.users.live.id);
    const other = await createTenant();
    const wrongDev = await call(profileRoute, { headers: { "x-api-key": other.keys.sk, "x-agent": other.agent.handle, authorization: `Bearer ${tokens.access_token}` } });
    expect(wrongDev.status).toBe(401);
    const wrongPlane = await call(profileRoute, { headers: { "x-api-key": t.keys.skTest, "x-agent": t.agent.handle, authorization: `Bearer ${tokens.access_token}` } });
    expect(wrongPlane.status).toBe(401);
    const { createAgent } = await import("@/lib/agents/agents");
    await createAgent({ developerId: t.developer.id, handle: "second", displayName: "Second" });
    expect((await asProfile(tokens.access_token, "second")).status).toBe(401);
  });

  it("answer 403 once the user revokes the agent, and 403 insufficient_scope without the route's scope", async () => {
    const tokens = await exchange(pub, t.users.live.id);
    const prisma = await db();
    await prisma.oAuthGrant.updateMany({ where: { clientId: pub }, data: { scopes: ["profile.search", "openid"] } });
    const scoped = await asProfile(tokens.access_token);
    expect(scoped.status).toBe(403);
    expect(scoped.body.error).toMatchObject({ code: "insufficient_scope", message: "This access token does not carry the scope profile.read.", scope: "profile.read" });
    await prisma.oAuthGrant.updateMany({ where: { clientId: pub }, data: { scopes: [...PROFILE_TOOL_SCOPES] } });
    await revokeApproval({ userId: t.users.live.id, agentId: t.agent.id });
    const denied = await asProfile(tokens.access_token);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("agent_not_approved");
  });

  it("work where the token response's resource names: the API at {BASE_URL} with the key (REST and /mcp), never the personal endpoint", async () => {
    const tokens = await exchange(pub, t.users.live.id);
    expect(tokens.resource).toBe(env().BASE_URL);
    const refreshed = await refresh(pub, tokens.refresh_token);
    expect(refreshed.body.resource).toBe(env().BASE_URL);
    const bearer = { authorization: `Bearer ${refreshed.body.access_token}` };
    const profile = await call(profileRoute, { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, ...bearer } });
    expect(profile.status).toBe(200);
    const rpc = (handler: (req: Request) => Promise<Response>, url: string, headers: Record<string, string>, body: unknown) =>
      handler(
        new Request(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify(body),
        }),
      );
    const read = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "service_profile_read", arguments: {} } };
    const viaMcp = await rpc(developerMcp, `${env().BASE_URL}/mcp`, { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, ...bearer }, read);
    expect(viaMcp.status).toBe(200);
    expect(((await viaMcp.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
    // The personal endpoint ({MCP_URL}) is not the resource these tokens name, and refuses them.
    const personal = await rpc(personalMcp, env().MCP_URL, bearer, read);
    expect(personal.status).toBe(401);
    expect(env().MCP_URL).not.toBe(env().BASE_URL);
  });

  it("userinfo answers { sub } for a current token and 401 otherwise", async () => {
    const tokens = await exchange(pub, t.users.live.id);
    const ok = await call(userinfoRoute, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ sub: t.users.live.id });
    const bad = await call(userinfoRoute, { headers: { authorization: "Bearer mcp_at_nope" } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expect((await call(userinfoRoute)).status).toBe(401);
  });
});

describe("POST /oauth/revoke", () => {
  it("answers 200 with an empty body for any token; a revoked access token stops working at once", async () => {
    const tokens = await exchange(pub, t.users.live.id);
    for (const token of ["unknown", "mcp_at_unknown", "mcp_rt_unknown", tokens.access_token, tokens.access_token]) {
      const res = await revokeCall(token);
      expect(res.status).toBe(200);
      expect(res.body).toBeUndefined();
    }
    expect((await asProfile(tokens.access_token)).status).toBe(401);
    // Revoking an access token leaves the chain: the refresh token still works.
    const next = await refresh(pub, tokens.refresh_token);
    expect(next.status).toBe(200);
    expect((await asProfile(next.body.access_token)).status).toBe(200);
  });

  it("revoking a refresh token revokes its chain", async () => {
    const tokens = await exchange(pub, t.users.live.id);
    const next = (await refresh(pub, tokens.refresh_token)).body;
    expect((await revokeCall(tokens.refresh_token)).status).toBe(200);
    expect((await asProfile(next.access_token)).status).toBe(401);
    expectOAuthError(await refresh(pub, next.refresh_token), 400, "invalid_grant", OAUTH_MESSAGES.refreshRevoked);
  });

  it("authenticates a client that identifies itself, and revokes only that client's tokens", async () => {
    const c = await registerClient(t, { method: "client_secret_basic" });
    const s = await signIn(c.client_id, t.users.live.id);
    const tokens = (await tokenCall({ grant_type: "authorization_code", code: s.code, redirect_uri: CALLBACK, code_verifier: s.verifier }, basic(c.client_id, c.client_secret!)))
      .body;
    const { POST: revoke } = await import("@/app/oauth/revoke/route");
    const revokeAs = (token: string, headers: Record<string, string>, extra = "") =>
      call(revoke, { rawBody: `token=${token}${extra}`, headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
    expectOAuthError(await revokeAs(tokens.access_token, basic(c.client_id, "ocs_wrong")), 401, "invalid_client", OAUTH_MESSAGES.clientAuthFailed);
    expectOAuthError(await revokeAs(tokens.access_token, {}, `&client_id=${c.client_id}`), 401, "invalid_client", OAUTH_MESSAGES.clientAuthRequired);
    // Another client cannot revoke this client's token: 200, nothing revoked.
    expect((await revokeAs(tokens.access_token, {}, `&client_id=${pub}`)).status).toBe(200);
    expect((await revokeAs(tokens.refresh_token, {}, `&client_id=${pub}`)).status).toBe(200);
    expect((await asProfile(tokens.access_token)).status).toBe(200);
    expect((await revokeAs(tokens.refresh_token, basic(c.client_id, c.client_secret!))).status).toBe(200);
    expect((await asProfile(tokens.access_token)).status).toBe(401);
  });

  it("needs a form with token", async () => {
    const res = await call((await import("@/app/oauth/revoke/route")).POST, { rawBody: "", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expectOAuthError(res, 400, "invalid_request", "token is required.");
  });
});

describe("profile claims from the profile", () => {
  it("carry what any person's profile holds, agree with GET /v1/profile, and go when the memory is forgotten", async () => {
    const headers = { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "user-live" };
    // The tenant's live user is an ordinary account: no claim columns were seeded for it.
    const seeded = await (await db()).user.update({ where: { id: t.users.live.id }, data: { name: null } });
    expect([seeded.name, seeded.givenName, seeded.familyName, seeded.location]).toEqual([null, null, null, null]);
    const imported = await call(importRoute, { headers, body: { text: "My name is Ada Lovelace. I live in Porto." } });
    expect(imported.status).toBe(201);
    const claims = decodeJwt((await exchange(pub, t.users.live.id, { scope: "openid profile" })).id_token!);
    expect(claims).toMatchObject({ name: "Ada Lovelace", given_name: "Ada", family_name: "Lovelace", location: "Porto" });
    const profile = (await call(profileRoute, { headers, query: { sections: "identity" } })).body.identity;
    expect(profile).toMatchObject({ name: "Ada Lovelace", given_name: "Ada", family_name: "Lovelace", location: "Porto" });
    // Forgotten by the person: the claims drop what the profile no longer holds.
    for (const match of ["Ada Lovelace", "Porto"]) {
      await call(forgetRoute, { headers, body: { match, confirm: true, reason: "user_request" } });
    }
    const after = decodeJwt((await exchange(pub, t.users.live.id, { scope: "openid profile" })).id_token!);
    expect(after).not.toHaveProperty("location");
    expect(after).not.toHaveProperty("given_name");
    expect(after).not.toHaveProperty("name");
  });
});

describe("CORS of the token endpoint", () => {
  it("grants only the origins of public clients' callbacks", async () => {
    const confidential = await registerClient(t, { method: "client_secret_post", redirectUri: "http://127.0.0.1:5000/cb" });
    expect(confidential.client_secret).toBeDefined();
    const pre = async (origin: string) => tokenPreflight(new Request("http://localhost:3000/oauth/token", { method: "OPTIONS", headers: { origin } }));
    const allowed = await pre("http://localhost:4000");
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://localhost:4000");
    expect(allowed.headers.get("vary")).toContain("Origin");
    expect((await pre("http://127.0.0.1:5000")).headers.get("access-control-allow-origin")).toBeNull();
    expect((await pre("https://evil.example")).headers.get("access-control-allow-origin")).toBeNull();
    const s = await signIn(pub, t.users.live.id);
    const res = await codeGrant(pub, s, {});
    expect(res.headers.get("access-control-allow-origin")).toBeNull(); // no Origin sent
    const fromApp = await tokenCall({ grant_type: "refresh_token", refresh_token: res.body.refresh_token, client_id: pub }, { origin: "http://localhost:4000" });
    expect(fromApp.headers.get("access-control-allow-origin")).toBe("http://localhost:4000");
  });

  it("lets a response be read only from the requesting client's own origins, not another client's", async () => {
    // Another developer's browser app, on its own origin.
    const other = await createTenant();
    const otherClient = (await registerClient(other, { redirectUri: "http://localhost:4100/callback" })).client_id;
    const s = await signIn(pub, t.users.live.id);
    // Its origin passes the preflight (a preflight cannot see which client asks)…
    const pre = await tokenPreflight(new Request("http://localhost:3000/oauth/token", { method: "OPTIONS", headers: { origin: "http://localhost:4100" } }));
    expect(pre.headers.get("access-control-allow-origin")).toBe("http://localhost:4100");
    // …but the answer for this tenant's client is not readable from it, success or error.
    const fromOther = await tokenCall(
      { grant_type: "authorization_code", code: s.code, redirect_uri: CALLBACK, client_id: pub, code_verifier: s.verifier },
      { origin: "http://localhost:4100" },
    );
    expect(fromOther.headers.get("access-control-allow-origin")).toBeNull();
    const fresh = await signIn(pub, t.users.live.id);
    const granted = await tokenCall(
      { grant_type: "authorization_code", code: fresh.code, redirect_uri: CALLBACK, client_id: pub, code_verifier: fresh.verifier },
      { origin: "http://localhost:4100" },
    );
    expect(granted.status).toBe(200);
    expect(granted.headers.get("access-control-allow-origin")).toBeNull();
    expect(otherClient).not.toBe(pub);
    // Revocation likewise.
    const revoked = await call(revokeRoute, {
      rawBody: new URLSearchParams({ token: granted.body.refresh_token, client_id: pub }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:4100" },
    });
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get("access-control-allow-origin")).toBeNull();
    const own = await call(revokeRoute, {
      rawBody: new URLSearchParams({ token: "mcp_rt_unknown", client_id: pub }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:4000" },
    });
    expect(own.headers.get("access-control-allow-origin")).toBe("http://localhost:4000");
  });
});
