// A local identity provider speaking Google's side of the connection flow: authorization code with
// PKCE, a client secret, refresh tokens, revocation, userinfo with a verified address; its access
// tokens' account and scopes for a local API server (tests/helpers/google-apis.ts), and a count of the
// requests its token endpoint answered.
import { startLocalProvider } from "./local-provider";

export const GOOGLE_TEST_CLIENT = { id: "google-test-client", secret: "google-test-secret" };
const APP_SCOPES = [
  "https://www.googleapis.com/auth/gmail.readonly",
  "https://www.googleapis.com/auth/calendar.readonly",
  "https://www.googleapis.com/auth/drive.readonly",
  "https://www.googleapis.com/auth/spreadsheets.readonly",
  // Granted separately, for sending mail and creating events (incremental authorization).
  "https://www.googleapis.com/auth/gmail.send",
  "https://www.googleapis.com/auth/calendar.events",
];

export async function startGoogleProvider(opts: { redirectUri: string | string[]; email: string; accountId?: string; emailVerified?: boolean }) {
  let tokenRequests = 0;
  const local = await startLocalProvider({
    client: GOOGLE_TEST_CLIENT,
    redirectUri: opts.redirectUri,
    accountId: opts.accountId ?? "google-account-1",
    scopes: ["openid", "email", "offline_access", ...APP_SCOPES],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    accountClaims: { email: opts.email, email_verified: opts.emailVerified ?? true },
    routes: (_provider, req) => {
      if (req.method === "POST" && req.url === "/token") tokenRequests++;
      return false;
    },
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
    /** The account and scopes of a live access token of this provider; null for an unknown, expired or revoked one. */
    async introspect(token: string): Promise<{ account: string; scopes: string[] } | null> {
      const found = await local.provider.AccessToken.find(token);
      if (!found || found.isExpired) return null;
      return {
        account: String(found.accountId),
        scopes: String(found.scope ?? "")
          .split(" ")
          .filter(Boolean),
      };
    },
    /** Ends one access token and nothing else of its grant, as Google refusing a token before its expiry does. */
    async expireAccessToken(token: string): Promise<void> {
      await (await local.provider.AccessToken.find(token))?.destroy();
    },
    /** Requests the token endpoint has answered (code exchanges and refreshes). */
    tokenRequests: () => tokenRequests,
    revokeAtProvider,
    close: local.close,
  };
}
