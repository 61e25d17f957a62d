// The development connection provider: with CONNECT_DRIVER=development, an app whose real provider
// has no credentials connects through /dev/connect on this service instead. The person names the
// address to connect as; nothing is fetched from any provider. The code it hands back is sealed
// (app, address, state, PKCE challenge, callback, expiry) and checked like a provider's would be:
// state, callback and S256 verifier. Development connections never refresh or revoke anywhere, and
// never prove a live account's address (lib/oidc/claims.ts).
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { now as clockNow } from "../platform/clock";
import { openSecret, s256, sealSecret } from "../platform/crypto";
import { env } from "../env";
import { DEVELOPMENT_PROVIDER, ProviderGrantError, type ConnectorProvider } from "./types";

const CODE_PURPOSE = "dev-connect-code";
/** How long the development consent's code may wait for the exchange. */
export const DEV_CODE_TTL_MS = 60_000;

const codePayload = z.object({ app: z.string(), email: z.string(), state: z.string(), challenge: z.string(), redirectUri: z.string(), exp: z.number() });

/** The page standing in for a provider's consent screen. */
export function devConsentUrl(): string {
  return `${env().BASE_URL}/dev/connect`;
}

/** The code /dev/connect sends back to the callback once the person allows the connection. */
export function devAuthorizationCode(input: { app: string; email: string; state: string; challenge: string; redirectUri: string }): string {
  return sealSecret(CODE_PURPOSE, JSON.stringify({ ...input, exp: clockNow().getTime() + DEV_CODE_TTL_MS }));
}

export const development: ConnectorProvider = {
  id: DEVELOPMENT_PROVIDER,
  configured: () => env().CONNECT_DRIVER === "development",
  authorizationUrl({ app, state, codeChallenge, redirectUri }) {
    const url = new URL(devConsentUrl());
    for (const [k, v] of Object.entries({ app, state, code_challenge: codeChallenge, code_challenge_method: "S256", redirect_uri: redirectUri })) url.searchParams.set(k, v);
    return url;
  },
  async exchange({ callbackUrl, state, verifier }) {
    const code = callbackUrl.searchParams.get("code") ?? "";
    let payload: z.infer<typeof codePayload>;
    try {
      payload = codePayload.parse(JSON.parse(openSecret(CODE_PURPOSE, code)));
    } catch {
      throw new Error("The development code is not one of this service's.");
    }
    const redirectUri = callbackUrl.origin + callbackUrl.pathname;
    if (payload.state !== state || payload.redirectUri !== redirectUri || payload.exp <= clockNow().getTime()) throw new Error("The development code does not match this attempt.");
    if (s256(verifier) !== payload.challenge) throw new Error("The development code's PKCE verifier does not match.");
    return {
      accessToken: `dev_${randomBytes(24).toString("base64url")}`,
      refreshToken: null,
      expiresAt: null,
      scopes: [],
      account: { id: `development:${payload.email}`, email: payload.email },
    };
  },
  async refresh() {
    throw new ProviderGrantError("development connections are not refreshed");
  },
  async revoke() {
    // Nothing was granted anywhere.
  },
};
