// The OpenID Connect provider as an independent relying party meets it: openid-client v6 talks to the
// real handlers on a node:http server (served by the API fast path, lib/http/node-dispatch.ts) —
// discovery, PKCE, the code exchange with ID-token signature checks, refresh, revocation — for a
// public client and for both confidential methods. The ID token's claims follow the granted scopes
// and the account; the access token reads the profile and answers userinfo.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeProtectedHeader } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as jwksRoute from "@/app/.well-known/jwks.json/route";
import * as discoveryRoute from "@/app/.well-known/openid-configuration/route";
import * as authorizeRoute from "@/app/oauth/authorize/route";
import * as revokeRoute from "@/app/oauth/revoke/route";
import * as tokenRoute from "@/app/oauth/token/route";
import * as userinfoRoute from "@/app/oauth/userinfo/route";
import * as profileRoute from "@/app/v1/profile/route";
import * as clientRoute from "@/app/v1/sso/client/route";
import { db } from "@/lib/platform/db";
import { returnFromReceipt } from "../helpers/receipt";
import { declineFlow } from "@/lib/flow/transitions";
import { MESSAGES } from "@/lib/http/errors";
import { ApiRouter, dispatch } from "@/lib/http/node-dispatch";
import { stampClientIp } from "@/lib/http/request";
import { PREFIX } from "@/lib/platform/ids";
import { ID_TOKEN_TTL_SECONDS } from "@/lib/oidc/claims";
import { OAUTH_MESSAGES } from "@/lib/oidc/errors";
import { PROFILE_TOOL_SCOPES } from "@/lib/profile/scopes";
import { createUser } from "@/lib/users/users";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { CALLBACK, registerClient } from "../helpers/oauth";

/** The issuer: BASE_URL as tests/setup.ts sets it. Requests to it go to the test server instead. */
const ISSUER = "http://localhost:3000";

const router = new ApiRouter([
  { file: "app/.well-known/openid-configuration/route.ts", module: discoveryRoute },
  { file: "app/.well-known/jwks.json/route.ts", module: jwksRoute },
  { file: "app/oauth/authorize/route.ts", module: authorizeRoute },
  { file: "app/oauth/token/route.ts", module: tokenRoute },
  { file: "app/oauth/revoke/route.ts", module: revokeRoute },
  { file: "app/oauth/userinfo/route.ts", module: userinfoRoute },
  { file: "app/v1/sso/client/route.ts", module: clientRoute },
  { file: "app/v1/profile/route.ts", module: profileRoute },
]);

let server: Server;
let origin: string;
/** Every request the relying party sent, as "METHOD /path". */
const sent: string[] = [];

/** An issuer URL as the test server's URL: same path and query. */
function onServer(url: string | URL): URL {
  const u = new URL(url);
  if (u.origin !== ISSUER) throw new Error(`The relying party left the issuer: ${u.href}`);
  return new URL(`${u.pathname}${u.search}`, origin);
}

/** openid-client's fetch: requests to the issuer reach the test server, everything else unchanged. */
const toServer: oidc.CustomFetch = (url, options) => {
  sent.push(`${options.method} ${new URL(url).pathname}`);
  return fetch(onServer(url), options as RequestInit);
};

let t: Tenant;
/** A person with an email address (proven by a mailbox) and profile fields. */
let ada: { id: string };
/** A person with an address but no proof that they control it. */
let unproven: { id: string };

beforeAll(async () => {
  server = createServer((req, res) => {
    // As scripts/server.mjs: the client address is the connection's own.
    stampClientIp(req, 0);
    dispatch(router, req, res).then(
      (served) => {
        if (!served) res.writeHead(404, { "content-type": "text/plain" }).end("not served here");
      },
      () => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  t = await createTenant();
  const prisma = await db();
  ada = await createUser({ plane: "live", name: "Ada Lovelace" });
  await prisma.user.update({
    where: { id: ada.id },
    data: { email: "ada@example.com", givenName: "Ada", familyName: "Lovelace", location: "London" },
  });
  // Her Gmail is connected: the mailbox owns the address.
  await prisma.appConnection.create({
    data: { userId: ada.id, app: "gmail", provider: "google", accountId: "g-ada", accountEmail: "ada@example.com", accessTokenSealed: "v1.x.x.x" },
  });
  unproven = await createUser({ plane: "live", name: "Una Proven" });
  await prisma.user.update({ where: { id: unproven.id }, data: { email: "una@example.com", emailProof: "none" } });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Method = "none" | "client_secret_basic" | "client_secret_post";

function clientAuth(method: Method, secret: string | undefined): oidc.ClientAuth {
  if (method === "none") return oidc.None();
  if (!secret) throw new Error(`a ${method} client was registered without a secret`);
  return method === "client_secret_basic" ? oidc.ClientSecretBasic(secret) : oidc.ClientSecretPost(secret);
}

interface RelyingParty {
  config: oidc.Configuration;
  clientId: string;
  secret?: string;
  method: Method;
}

/** Registers a client of the method and discovers the issuer, with ID-token signature checks on. */
async function relyingParty(method: Method): Promise<RelyingParty> {
  const registered = await registerClient(t, { method });
  const config = await oidc.discovery(new URL(ISSUER), registered.client_id, undefined, clientAuth(method, registered.client_secret), {
    [oidc.customFetch]: toServer,
    execute: [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks],
  });
  return { config, clientId: registered.client_id, secret: registered.client_secret, method };
}

/** The relying party's authorize request, answered as a browser would see it: the flow's id. */
async function startFlow(rp: RelyingParty, scope: string) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(rp.config, {
    redirect_uri: CALLBACK,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  expect(`${url.origin}${url.pathname}`).toBe(`${ISSUER}/oauth/authorize`);
  const res = await fetch(onServer(url), { redirect: "manual", headers: { accept: "text/html" } });
  expect(res.status, await res.clone().text()).toBe(303);
  const location = new URL(res.headers.get("location")!);
  expect(location.origin).toBe(ISSUER);
  const flowId = /^\/flow\/([A-Za-z0-9]{32})$/.exec(location.pathname)?.[1];
  expect(flowId, location.pathname).toBeDefined();
  return { flowId: flowId!, verifier, state, nonce };
}

/** Authorize → the person finishes the flow → the relying party exchanges the code (ID token required). */
async function signIn(rp: RelyingParty, userId: string, scope = "openid email profile") {
  const flow = await startFlow(rp, scope);
  const { redirectTo } = await returnFromReceipt({ flowId: flow.flowId, userId });
  const callback = new URL(redirectTo);
  expect(`${callback.origin}${callback.pathname}`).toBe(CALLBACK);
  const tokens = await oidc.authorizationCodeGrant(rp.config, callback, {
    pkceCodeVerifier: flow.verifier,
    expectedState: flow.state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
  return { tokens, nonce: flow.nonce };
}

/** GET /v1/profile as the tenant's agent, naming the user by the access token. */
function readProfile(accessToken: string) {
  return fetch(new URL("/v1/profile?sections=identity", origin), {
    headers: { authorization: `Bearer ${accessToken}`, "x-api-key": t.keys.sk, "x-agent": t.agent.handle },
  });
}

function userinfo(accessToken: string) {
  return fetch(new URL("/oauth/userinfo", origin), { headers: { authorization: `Bearer ${accessToken}` } });
}

/** The OAuth error a rejected openid-client call carries. */
async function rejection(promise: Promise<unknown>): Promise<oidc.ResponseBodyError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(oidc.ResponseBodyError);
  return err as oidc.ResponseBodyError;
}

describe("discovery", () => {
  it("finds the issuer at BASE_URL with the endpoints and capabilities the service advertises", async () => {
    const rp = await relyingParty("none");
    const meta = rp.config.serverMetadata();
    expect(meta.issuer).toBe(ISSUER);
    expect(meta.authorization_endpoint).toBe(`${ISSUER}/oauth/authorize`);
    expect(meta.token_endpoint).toBe(`${ISSUER}/oauth/token`);
    expect(meta.jwks_uri).toBe(`${ISSUER}/.well-known/jwks.json`);
    expect(meta.supportsPKCE()).toBe(true);
    expect(meta.response_types_supported).toEqual(["code"]);
    expect(meta.grant_types_supported).toEqual(["authorization_code", "refresh_token"]);
    expect(meta.id_token_signing_alg_values_supported).toEqual(["RS256"]);
    expect(meta.scopes_supported).toEqual(["openid", "email", "profile"]);
    expect(meta.token_endpoint_auth_methods_supported).toEqual(["none", "client_secret_basic", "client_secret_post"]);
    // The revocation and userinfo endpoints are advertised, so tokenRevocation and fetchUserInfo need
    // nothing by hand (userinfo answers the subject only); no iss parameter on the callback.
    expect(meta.revocation_endpoint).toBe(`${ISSUER}/oauth/revoke`);
    expect(meta.userinfo_endpoint).toBe(`${ISSUER}/oauth/userinfo`);
    expect(meta.authorization_response_iss_parameter_supported).toBeUndefined();
    expect(sent).toContain("GET /.well-known/openid-configuration");
  });
});

describe.each(["none", "client_secret_basic", "client_secret_post"] as const)("a %s client", (method) => {
  let rp: RelyingParty;
  beforeAll(async () => {
    rp = await relyingParty(method);
    expect(rp.clientId.startsWith(PREFIX.oauthClient)).toBe(true);
    if (method === "none") expect(rp.secret).toBeUndefined();
    else expect(rp.secret?.startsWith(PREFIX.oauthClientSecret)).toBe(true);
  });

  it("signs in with PKCE and a nonce, and the ID token passes openid-client's signature and claim checks", async () => {
    sent.length = 0;
    const { tokens, nonce } = await signIn(rp, t.users.live.id);
    // The code went to the token endpoint, and the ID token's signature was checked against the
    // published keys (this configuration had not fetched them before).
    expect(sent).toEqual(["POST /oauth/token", "GET /.well-known/jwks.json"]);
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.access_token.startsWith(PREFIX.accessToken)).toBe(true);
    expect(tokens.refresh_token?.startsWith(PREFIX.refreshToken)).toBe(true);
    expect(tokens.scope).toBe([...PROFILE_TOOL_SCOPES, "openid", "email", "profile"].join(" "));
    expect(tokens.expiresIn()).toBeGreaterThan(3500);

    const claims = tokens.claims()!;
    expect(claims.iss).toBe(ISSUER);
    expect(claims.aud).toBe(rp.clientId);
    expect(claims.sub).toBe(t.users.live.id);
    expect(claims.nonce).toBe(nonce);
    expect(claims.exp - claims.iat).toBe(ID_TOKEN_TTL_SECONDS);
    for (const absent of ["auth_time", "at_hash", "azp"]) expect(claims, absent).not.toHaveProperty(absent);

    const header = decodeProtectedHeader(tokens.id_token!);
    expect(header.alg).toBe("RS256");
    const jwks = (await (await fetch(new URL("/.well-known/jwks.json", origin))).json()) as { keys: Array<{ kid: string }> };
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
  });

  it("reads the profile with the access token, and userinfo answers only its subject", async () => {
    const { tokens } = await signIn(rp, ada.id);
    const profile = await readProfile(tokens.access_token);
    expect(profile.status).toBe(200);
    const body = (await profile.json()) as { livemode: boolean; identity: Record<string, unknown> };
    expect(body.livemode).toBe(true);
    expect(body.identity).toMatchObject({ name: "Ada Lovelace", email: "ada@example.com" });

    const info = await userinfo(tokens.access_token);
    expect(info.status).toBe(200);
    expect(await info.json()).toEqual({ sub: ada.id });
  });

  it("refreshes into a new refresh token with no ID token; the first token used again after its successor was used ends the chain", async () => {
    const { tokens } = await signIn(rp, t.users.live.id);
    const first = tokens.refresh_token!;

    const second = await oidc.refreshTokenGrant(rp.config, first);
    expect(second.refresh_token).toBeDefined();
    expect(second.refresh_token).not.toBe(first);
    expect(second.access_token).not.toBe(tokens.access_token);
    expect(second.id_token).toBeUndefined();
    expect(second.scope).toBe(tokens.scope);
    expect((await readProfile(second.access_token)).status).toBe(200);

    const third = await oidc.refreshTokenGrant(rp.config, second.refresh_token!);
    expect(third.refresh_token).not.toBe(second.refresh_token);
    expect(third.id_token).toBeUndefined();

    const reuse = await rejection(oidc.refreshTokenGrant(rp.config, first));
    expect(reuse.status).toBe(400);
    expect(reuse.error).toBe("invalid_grant");
    expect(reuse.error_description).toBe(OAUTH_MESSAGES.refreshReuse);
    // The whole chain ends: the newest refresh token and its access token too.
    const after = await rejection(oidc.refreshTokenGrant(rp.config, third.refresh_token!));
    expect(after.error).toBe("invalid_grant");
    expect(after.error_description).toBe(OAUTH_MESSAGES.refreshReuse);
    expect((await readProfile(third.access_token)).status).toBe(401);
  });

  it("revokes the refresh token: the access token stops reading the profile and the refresh token stops refreshing", async () => {
    const { tokens } = await signIn(rp, t.users.live.id);
    expect((await readProfile(tokens.access_token)).status).toBe(200);

    sent.length = 0;
    await oidc.tokenRevocation(rp.config, tokens.refresh_token!);
    expect(sent).toEqual(["POST /oauth/revoke"]);

    const profile = await readProfile(tokens.access_token);
    expect(profile.status).toBe(401);
    expect(((await profile.json()) as { error: unknown }).error).toMatchObject({ code: "invalid_access_token", message: MESSAGES.invalidAccessToken });
    const info = await userinfo(tokens.access_token);
    expect(info.status).toBe(401);
    expect(((await info.json()) as { error: string }).error).toBe("invalid_token");

    const refused = await rejection(oidc.refreshTokenGrant(rp.config, tokens.refresh_token!));
    expect(refused.error).toBe("invalid_grant");
    expect(refused.error_description).toBe(OAUTH_MESSAGES.refreshRevoked);
  });

  it("revokes an access token alone: it stops working while its refresh token still refreshes", async () => {
    const { tokens } = await signIn(rp, t.users.live.id);
    await oidc.tokenRevocation(rp.config, tokens.access_token);
    expect((await readProfile(tokens.access_token)).status).toBe(401);
    const refreshed = await oidc.refreshTokenGrant(rp.config, tokens.refresh_token!);
    expect((await readProfile(refreshed.access_token)).status).toBe(200);
  });

  it("hears of a declined flow as access_denied with its state, and exchanges nothing", async () => {
    const flow = await startFlow(rp, "openid");
    const { redirectTo } = await declineFlow({ flowId: flow.flowId });
    sent.length = 0;
    const err = await oidc
      .authorizationCodeGrant(rp.config, new URL(redirectTo), { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(oidc.AuthorizationResponseError);
    expect((err as oidc.AuthorizationResponseError).error).toBe("access_denied");
    expect(new URL(redirectTo).searchParams.get("state")).toBe(flow.state);
    expect(sent).toEqual([]);
  });
});

describe("ID token claims", () => {
  let rp: RelyingParty;
  beforeAll(async () => {
    rp = await relyingParty("none");
  });

  it("carries only iss, sub, aud, iat, exp and nonce with scope openid alone", async () => {
    const { tokens } = await signIn(rp, ada.id, "openid");
    expect(Object.keys(tokens.claims()!).sort()).toEqual(["aud", "exp", "iat", "iss", "nonce", "sub"]);
    expect(tokens.scope).toBe([...PROFILE_TOOL_SCOPES, "openid"].join(" "));
  });

  it("adds email and email_verified with scope email when the account has an address", async () => {
    const { tokens } = await signIn(rp, ada.id, "openid email");
    const claims = tokens.claims()!;
    expect(claims.email).toBe("ada@example.com");
    expect(claims.email_verified).toBe(true);
    expect(claims).not.toHaveProperty("name");
    expect(claims).not.toHaveProperty("given_name");
  });

  it("says email_verified false for an address without proof", async () => {
    const { tokens } = await signIn(rp, unproven.id, "openid email");
    expect(tokens.claims()).toMatchObject({ email: "una@example.com", email_verified: false });
  });

  it("has no email claims for an account without an address, even with scope email", async () => {
    const { tokens } = await signIn(rp, t.users.live.id, "openid email");
    const claims = tokens.claims()!;
    expect(claims).not.toHaveProperty("email");
    expect(claims).not.toHaveProperty("email_verified");
  });

  it("adds the profile claims the account holds with scope profile, and no email without scope email", async () => {
    const { tokens } = await signIn(rp, ada.id, "openid profile");
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ name: "Ada Lovelace", given_name: "Ada", family_name: "Lovelace", location: "London" });
    for (const absent of ["picture", "birthdate", "email", "email_verified"]) expect(claims, absent).not.toHaveProperty(absent);
  });

  it("gives both sets with scope openid email profile", async () => {
    const { tokens, nonce } = await signIn(rp, ada.id);
    expect(Object.keys(tokens.claims()!).sort()).toEqual(
      ["aud", "email", "email_verified", "exp", "family_name", "given_name", "iat", "iss", "location", "name", "nonce", "sub"].sort(),
    );
    expect(tokens.claims()!.nonce).toBe(nonce);
  });
});

describe("confidential client authentication", () => {
  it.each([
    ["client_secret_basic", "client_secret_post"],
    ["client_secret_post", "client_secret_basic"],
  ] as const)("refuses a %s client that sends its secret by %s", async (registered, sentAs) => {
    // A developer account of its own: the same registration again would answer the earlier client, without its secret.
    const own = await createTenant();
    const { client_id, client_secret } = await registerClient(own, { method: registered });
    const rp: RelyingParty = {
      config: await oidc.discovery(new URL(ISSUER), client_id, undefined, clientAuth(sentAs, client_secret), {
        [oidc.customFetch]: toServer,
        execute: [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks],
      }),
      clientId: client_id,
      secret: client_secret,
      method: sentAs,
    };
    const flow = await startFlow(rp, "openid");
    const { redirectTo } = await returnFromReceipt({ flowId: flow.flowId, userId: own.users.live.id });
    const err = await oidc.authorizationCodeGrant(rp.config, new URL(redirectTo), { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce }).then(
      () => null,
      (e: unknown) => e,
    );
    // A 401 with a WWW-Authenticate challenge: openid-client hands over the response itself.
    expect(err).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    const challenge = err as oidc.WWWAuthenticateChallengeError;
    expect(challenge.status).toBe(401);
    expect(challenge.cause[0]?.scheme).toBe("basic");
    expect(await challenge.response.json()).toEqual({ error: "invalid_client", error_description: OAUTH_MESSAGES.clientAuthFailed });
  });

  it("refuses a wrong secret with invalid_client", async () => {
    const { client_id } = await registerClient(t, { method: "client_secret_basic" });
    const config = await oidc.discovery(new URL(ISSUER), client_id, undefined, oidc.ClientSecretBasic(`${PREFIX.oauthClientSecret}wrong`), {
      [oidc.customFetch]: toServer,
      execute: [oidc.allowInsecureRequests],
    });
    const rp: RelyingParty = { config, clientId: client_id, method: "client_secret_basic" };
    const flow = await startFlow(rp, "openid");
    const { redirectTo } = await returnFromReceipt({ flowId: flow.flowId, userId: t.users.live.id });
    const err = await oidc.authorizationCodeGrant(config, new URL(redirectTo), { pkceCodeVerifier: flow.verifier, expectedState: flow.state }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    expect(await (err as oidc.WWWAuthenticateChallengeError).response.json()).toEqual({
      error: "invalid_client",
      error_description: OAUTH_MESSAGES.clientAuthFailed,
    });
  });
});
