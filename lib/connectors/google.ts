// Google as a connection provider (Gmail, Calendar, Drive, Sheets): the authorization-code flow with PKCE
// through openid-client, offline access for a refresh token, and the account's verified address
// from its ID token; the scopes Google grants apart from reading (sending mail, creating events) are
// asked for when the person allows the capability that needs them. Endpoints and credentials come from
// configuration.
import * as oauth from "openid-client";
import { env } from "../env";
import { clientConfiguration, refreshWith, tokenSet } from "./oauth-client";
import type { App } from "../catalogue";
import type { ConnectorProvider } from "./types";

/** What each Google app asks for, beyond the account's address. */
export const GOOGLE_APP_SCOPES = {
  gmail: "https://www.googleapis.com/auth/gmail.readonly",
  calendar: "https://www.googleapis.com/auth/calendar.readonly",
  drive: "https://www.googleapis.com/auth/drive.readonly",
  sheets: "https://www.googleapis.com/auth/spreadsheets.readonly",
} as const satisfies Partial<Record<App, string>>;
export type GoogleApp = keyof typeof GOOGLE_APP_SCOPES;

/** What Google grants separately for an action tool's capability, asked for when the person allows it. */
export const GOOGLE_CAPABILITY_SCOPES: Readonly<Record<string, string>> = {
  "gmail:send": "https://www.googleapis.com/auth/gmail.send",
  "calendar:create_event": "https://www.googleapis.com/auth/calendar.events",
};

function capabilityScope(capability: string): string | undefined {
  return Object.hasOwn(GOOGLE_CAPABILITY_SCOPES, capability) ? GOOGLE_CAPABILITY_SCOPES[capability] : undefined;
}

function configuration(): oauth.Configuration {
  const e = env();
  if (!e.GOOGLE_CLIENT_ID || !e.GOOGLE_CLIENT_SECRET) throw new Error("Google is not configured (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET).");
  return clientConfiguration(
    {
      issuer: e.GOOGLE_ISSUER,
      authorization_endpoint: e.GOOGLE_AUTHORIZATION_URL,
      token_endpoint: e.GOOGLE_TOKEN_URL,
      userinfo_endpoint: e.GOOGLE_USERINFO_URL,
      revocation_endpoint: e.GOOGLE_REVOCATION_URL,
      jwks_uri: e.GOOGLE_JWKS_URL,
    },
    { id: e.GOOGLE_CLIENT_ID, secret: e.GOOGLE_CLIENT_SECRET },
  );
}

export const google: ConnectorProvider = {
  id: "google",
  configured: () => !!env().GOOGLE_CLIENT_ID && !!env().GOOGLE_CLIENT_SECRET,

  capabilityScope,

  authorizationUrl({ app, state, codeChallenge, redirectUri, capability }) {
    // A capability of this app adds its scope; include_granted_scopes keeps what was granted before.
    const extra = capability?.startsWith(`${app}:`) ? capabilityScope(capability) : undefined;
    return oauth.buildAuthorizationUrl(configuration(), {
      redirect_uri: redirectUri,
      scope: ["openid", "email", GOOGLE_APP_SCOPES[app as GoogleApp], ...(extra ? [extra] : [])].join(" "),
      code_challenge: codeChallenge,
      code_challenge_method: "S256",
      state,
      access_type: "offline",
      prompt: "consent",
      include_granted_scopes: "true",
    });
  },

  async exchange({ callbackUrl, state, verifier }) {
    const config = configuration();
    const res = await oauth.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: verifier, expectedState: state });
    // The address counts only when Google says the account owns it (email_verified).
    const claims = res.claims();
    const verified = (c: Record<string, unknown> | undefined) => (typeof c?.email === "string" && c.email_verified === true ? c.email : null);
    let email = verified(claims);
    let sub = claims?.sub;
    if (!sub || !email) {
      const info = await oauth.fetchUserInfo(config, res.access_token, sub ?? oauth.skipSubjectCheck);
      sub = info.sub;
      email = verified(info);
    }
    return { ...tokenSet(res), account: { id: sub, email } };
  },

  refresh: (refreshToken) => refreshWith(configuration(), refreshToken),

  async revoke(token) {
    await oauth.tokenRevocation(configuration(), token);
  },
};
