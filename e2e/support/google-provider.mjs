// A local provider speaking Google's side of app connections and of Google sign-in for the browser tests (node
// oidc-provider): sign-in and consent happen at once on /interaction/:uid, for one account.
// Usage: PORT=3105 REDIRECT_URIS=http://localhost:3100/connect/callback,http://localhost:3100/api/auth/callback/google \
//   node e2e/support/google-provider.mjs
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import Provider from "oidc-provider";

const port = Number(process.env.PORT ?? 3105);
const issuer = `http://127.0.0.1:${port}`;
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: "e2e-google-client",
      client_secret: "e2e-google-secret",
      token_endpoint_auth_method: "client_secret_post",
      redirect_uris: (process.env.REDIRECT_URIS ?? "http://localhost:3100/connect/callback,http://localhost:3100/api/auth/callback/google").split(","),
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    },
  ],
  jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "e2e", alg: "RS256", use: "sig" }] },
  cookies: { keys: [randomBytes(16).toString("hex")] },
  scopes: [
    "openid",
    "email",
    "offline_access",
    "https://www.googleapis.com/auth/gmail.readonly",
    "https://www.googleapis.com/auth/calendar.readonly",
    "https://www.googleapis.com/auth/drive.readonly",
    "https://www.googleapis.com/auth/spreadsheets.readonly",
  ],
  claims: { openid: ["sub"], email: ["email", "email_verified"] },
  findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id, email: "grace.hopper@example.com", email_verified: true }) }),
  features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
  // As Google does: the scopes' claims are in the ID token too, not only at userinfo.
  conformIdTokenClaims: false,
  issueRefreshToken: async () => true,
});
const callback = provider.callback();
createServer((req, res) => {
  if (req.url?.startsWith("/interaction/")) {
    (async () => {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: "e2e-account", clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      await provider.interactionFinished(req, res, { login: { accountId: "e2e-account" }, consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: false });
    })().catch((err) => res.writeHead(500).end(String(err)));
    return;
  }
  if (req.url === "/health") return res.writeHead(200).end("ok");
  callback(req, res);
}).listen(port, "127.0.0.1");
