// A local identity provider speaking Google's side of the connection flow (node oidc-provider):
// authorization code with PKCE, a client secret, refresh tokens, revocation, userinfo with a
// verified address. Sign-in and consent happen at once at /interaction/:uid.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { followProviderRedirects } from "./provider-browser";

export const GOOGLE_TEST_CLIENT = { id: "google-test-client", secret: "google-test-secret" };
const APP_SCOPES = ["https://www.googleapis.com/auth/gmail.readonly", "https://www.googleapis.com/auth/calendar.readonly", "https://www.googleapis.com/auth/drive.readonly"];

export async function startGoogleProvider(opts: { redirectUri: string; email: string; accountId?: string }) {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const accountId = opts.accountId ?? "google-account-1";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: GOOGLE_TEST_CLIENT.id,
        client_secret: GOOGLE_TEST_CLIENT.secret,
        token_endpoint_auth_method: "client_secret_post",
        redirect_uris: [opts.redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "test", alg: "RS256", use: "sig" }] },
    cookies: { keys: [randomBytes(16).toString("hex")] },
    scopes: ["openid", "email", "offline_access", ...APP_SCOPES],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id, email: opts.email, email_verified: true }) }),
    features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
    issueRefreshToken: async () => true,
    rotateRefreshToken: true,
  });
  provider.proxy = false;
  const callback = provider.callback();
  server.on("request", (req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      (async () => {
        const details = await provider.interactionDetails(req, res);
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: false });
      })().catch((err) => {
        res.writeHead(500).end(String(err));
      });
      return;
    }
    callback(req, res);
  });

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
    consent: (url: URL) => followProviderRedirects(issuer, url),
    revokeAtProvider,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
