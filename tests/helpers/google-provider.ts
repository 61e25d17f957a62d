// A local identity provider speaking Google's side of the connection flow: authorization code with
// PKCE, a client secret, refresh tokens, revocation, userinfo with a verified address.
import { startLocalProvider } from "./local-provider";

export const GOOGLE_TEST_CLIENT = { id: "google-test-client", secret: "google-test-secret" };
const APP_SCOPES = [
  "https://www.googleapis.com/auth/gmail.readonly",
  "https://www.googleapis.com/auth/calendar.readonly",
  "https://www.googleapis.com/auth/drive.readonly",
  "https://www.googleapis.com/auth/spreadsheets.readonly",
];

export async function startGoogleProvider(opts: { redirectUri: string | string[]; email: string; accountId?: string; emailVerified?: boolean }) {
  const local = await startLocalProvider({
    client: GOOGLE_TEST_CLIENT,
    redirectUri: opts.redirectUri,
    accountId: opts.accountId ?? "google-account-1",
    scopes: ["openid", "email", "offline_access", ...APP_SCOPES],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    accountClaims: { email: opts.email, email_verified: opts.emailVerified ?? true },
  });
  const { issuer } = local;

  /** Revokes a token at the provider, as a person removing the app in their Google account would. */
  async function revokeAtProvider(token: string) {
    const res = await fetch(`${issuer}/token/revocation`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, client_id: GOOGLE_TEST_CLIENT.id, client_secret: GOOGLE_TEST_CLIENT.secret }),
    });
    if (res.status !== 200) throw new Error(`revocation failed: ${res.status}`);
  }

  return {
    issuer,
    env: {
      GOOGLE_CLIENT_ID: GOOGLE_TEST_CLIENT.id,
      GOOGLE_CLIENT_SECRET: GOOGLE_TEST_CLIENT.secret,
      GOOGLE_ISSUER: issuer,
      GOOGLE_AUTHORIZATION_URL: `${issuer}/auth`,
      GOOGLE_TOKEN_URL: `${issuer}/token`,
      GOOGLE_USERINFO_URL: `${issuer}/me`,
      GOOGLE_REVOCATION_URL: `${issuer}/token/revocation`,
      GOOGLE_JWKS_URL: `${issuer}/jwks`,
    },
    consent: local.consent,
    revokeAtProvider,
    close: local.close,
  };
}
