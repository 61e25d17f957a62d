// Auth.js with the service as a standard OpenID Connect provider: discovery at the issuer, a
// confidential client (client_secret_basic), PKCE S256, state and nonce. The session is a JWT in an
// encrypted cookie that only this server can read; it holds the access token for the profile read.
import "server-only";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import NextAuth from "next-auth";
import { getToken, type JWT } from "next-auth/jwt";
import type { OIDCConfig } from "next-auth/providers";
import { headers } from "next/headers";
import { config } from "./config";

/** The ID token claims this app reads (scopes openid email profile). */
interface IdTokenClaims extends JWTPayload {
  sub: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
}

/** What the server knows about the person signed in, read from the session cookie. */
export interface SignedIn {
  /** The ID token's sub: the key of the person in this app. */
  sub: string;
  name: string | null;
  /** The address, only when the ID token said email_verified: true. */
  email: string | null;
  /** email_verified as the ID token carried it (false when the claim was absent). */
  emailVerified: boolean;
  accessToken: string;
}

const PROVIDER_ID = "profile-service";

/**
 * Auth.js's cookies under names of this app's own. Cookies do not tell ports apart, so on localhost
 * the defaults (authjs.session-token, …) would be shared with the service, which uses them too.
 * Served over http on localhost, so none is Secure.
 */
const COOKIE_PREFIX = "basecamp";
const cookie = (name: string) => ({ name: `${COOKIE_PREFIX}.${name}`, options: { httpOnly: true, sameSite: "lax" as const, path: "/", secure: false } });
const cookies = {
  sessionToken: cookie("session-token"),
  callbackUrl: cookie("callback-url"),
  csrfToken: cookie("csrf-token"),
  pkceCodeVerifier: cookie("pkce.code_verifier"),
  state: cookie("state"),
  nonce: cookie("nonce"),
};
const jwks = createRemoteJWKSet(new URL(`${config.serviceUrl}/.well-known/jwks.json`));

/**
 * Auth.js checks the ID token's iss, aud, exp and nonce; its signature is checked here against the
 * service's keys (RS256, matched by kid), so every claim the session keeps comes from a verified token.
 */
async function verifiedClaims(idToken: string | undefined): Promise<IdTokenClaims> {
  if (!idToken) throw new Error("The token response carried no ID token.");
  const { payload } = await jwtVerify<IdTokenClaims>(idToken, jwks, { issuer: config.serviceUrl, audience: config.clientId, algorithms: ["RS256"] });
  return payload;
}

const profileService: OIDCConfig<IdTokenClaims> = {
  id: PROVIDER_ID,
  name: "Profile Service",
  type: "oidc",
  issuer: config.serviceUrl,
  clientId: config.clientId,
  clientSecret: config.clientSecret,
  client: { token_endpoint_auth_method: "client_secret_basic" },
  checks: ["pkce", "state", "nonce"],
  authorization: { params: { scope: "openid email profile" } },
  // The user is keyed on sub; an address is used only when the ID token says it is verified.
  profile: (claims) => ({ id: claims.sub, name: claims.name ?? null, email: claims.email_verified === true ? (claims.email ?? null) : null }),
};

/** Revokes the access token at the service (the client authenticates as it registered). */
async function revoke(accessToken: string): Promise<void> {
  const basic = Buffer.from(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`).toString("base64");
  await fetch(`${config.serviceUrl}/oauth/revoke`, {
    method: "POST",
    headers: { authorization: `Basic ${basic}` },
    body: new URLSearchParams({ token: accessToken }),
  }).catch(() => undefined);
}

export const { handlers, signIn, signOut } = NextAuth({
  providers: [profileService],
  secret: config.authSecret,
  trustHost: true,
  session: { strategy: "jwt" },
  cookies,
  callbacks: {
    async jwt({ token, account }) {
      if (account?.provider !== PROVIDER_ID) return token;
      const claims = await verifiedClaims(account.id_token);
      const verified = claims.email_verified === true;
      return {
        sub: claims.sub,
        name: claims.name ?? null,
        email: verified ? (claims.email ?? null) : null,
        email_verified: verified,
        access_token: account.access_token,
        expires_at: account.expires_at,
      } satisfies JWT;
    },
    // What /api/auth/session and auth() answer: who is signed in, never the access token.
    session({ session, token }) {
      return { expires: session.expires, user: { id: token.sub, name: token.name, email: token.email } };
    },
  },
  events: {
    async signOut(message) {
      const accessToken = "token" in message ? message.token?.access_token : undefined;
      if (typeof accessToken === "string") await revoke(accessToken);
    },
  },
});

/**
 * The person signed in to this app and their access token, read on the server; null when signed out
 * or once the access token has expired (an hour after sign-in), so the person signs in again.
 */
export async function signedIn(): Promise<SignedIn | null> {
  const token = await getToken({ req: { headers: await headers() }, secret: config.authSecret, cookieName: cookies.sessionToken.name });
  if (!token?.sub || typeof token.access_token !== "string") return null;
  if (typeof token.expires_at === "number" && token.expires_at * 1000 <= Date.now()) return null;
  return {
    sub: token.sub,
    name: typeof token.name === "string" ? token.name : null,
    email: typeof token.email === "string" ? token.email : null,
    emailVerified: token.email_verified === true,
    accessToken: token.access_token,
  };
}
