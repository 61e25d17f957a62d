// Microsoft as a connection provider (Outlook): the authorization-code flow with PKCE through
// openid-client against the Microsoft identity platform, offline access for a refresh token, and
// the mailbox's own address from Microsoft Graph (/me: mail). Sending mail needs Mail.Send, asked for
// when the person allows outlook:send (incremental consent). Microsoft has no revocation endpoint:
// disconnecting deletes the tokens.
import * as oauth from "openid-client";
import { env } from "../env";
import { clientConfiguration, refreshWith, tokenSet } from "./oauth-client";
import type { ConnectorProvider } from "./types";

export const MICROSOFT_APP_SCOPES = { outlook: ["offline_access", "User.Read", "Mail.Read"] } as const;

/** What Microsoft grants separately for an action tool's capability, asked for when the person allows it. */
export const MICROSOFT_CAPABILITY_SCOPES: Readonly<Record<string, string>> = { "outlook:send": "Mail.Send" };

function capabilityScope(capability: string): string | undefined {
  return Object.hasOwn(MICROSOFT_CAPABILITY_SCOPES, capability) ? MICROSOFT_CAPABILITY_SCOPES[capability] : undefined;
}

function configuration(): oauth.Configuration {
  const e = env();
  if (!e.MICROSOFT_CLIENT_ID || !e.MICROSOFT_CLIENT_SECRET) throw new Error("Microsoft is not configured (MICROSOFT_CLIENT_ID, MICROSOFT_CLIENT_SECRET).");
  return clientConfiguration(
    // No ID token is asked for (no openid scope), so the issuer is only a name here.
    { issuer: new URL(e.MICROSOFT_AUTHORIZATION_URL).origin, authorization_endpoint: e.MICROSOFT_AUTHORIZATION_URL, token_endpoint: e.MICROSOFT_TOKEN_URL },
    { id: e.MICROSOFT_CLIENT_ID, secret: e.MICROSOFT_CLIENT_SECRET },
  );
}

export const microsoft: ConnectorProvider = {
  id: "microsoft",
  configured: () => !!env().MICROSOFT_CLIENT_ID && !!env().MICROSOFT_CLIENT_SECRET,

  capabilityScope,

  authorizationUrl({ state, codeChallenge, redirectUri, capability }) {
    // Microsoft keeps what the person consented to before; the request names the new scope beside the reading ones.
    const extra = capability?.startsWith("outlook:") ? capabilityScope(capability) : undefined;
    return oauth.buildAuthorizationUrl(configuration(), {
      redirect_uri: redirectUri,
      scope: [...MICROSOFT_APP_SCOPES.outlook, ...(extra ? [extra] : [])].join(" "),
      code_challenge: codeChallenge,
      code_challenge_method: "S256",
      state,
    });
  },

  async exchange({ callbackUrl, state, verifier }) {
    const config = configuration();
    const res = await oauth.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: verifier, expectedState: state });
    const me = await oauth.fetchProtectedResource(config, res.access_token, new URL(env().MICROSOFT_PROFILE_URL), "GET");
    if (!me.ok) throw new Error(`Microsoft Graph answered ${me.status} for the profile.`);
    const profile = (await me.json()) as { id?: string; mail?: string | null };
    if (!profile.id) throw new Error("Microsoft Graph gave no account id.");
    // `mail` is the mailbox's own address; the sign-in name (userPrincipalName) is not proof of one.
    return { ...tokenSet(res), account: { id: profile.id, email: profile.mail ?? null } };
  },

  refresh: (refreshToken) => refreshWith(configuration(), refreshToken),

  async revoke() {
    // The Microsoft identity platform has no token revocation endpoint.
  },
};
