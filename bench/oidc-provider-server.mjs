// The reference OpenID Connect provider of the token benchmark (bench/oidc.ts): node-oidc-provider
// with one public client, PKCE S256, refresh tokens rotated on every use and its default in-memory
// adapter. A person's sign-in and consent are replaced by /interaction/:uid, which signs in one fixed
// account and grants `openid offline_access` at once, so a script can walk the flow over HTTP.
// Usage: PORT=4100 CLIENT_ID=bench-client REDIRECT_URI=http://localhost:4000/callback node bench/oidc-provider-server.mjs
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import Provider from "oidc-provider";

const port = Number(process.env.PORT ?? 4100);
const clientId = process.env.CLIENT_ID ?? "bench-client";
const redirectUri = process.env.REDIRECT_URI ?? "http://localhost:4000/callback";
const ACCOUNT_ID = "bench-account";
const DAY = 24 * 60 * 60;

/** An RS256 signing key of the same size as the service's (2048 bits), made at start. */
function signingJwks() {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "bench-rs256", alg: "RS256", use: "sig" }] };
}

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: clientId,
      token_endpoint_auth_method: "none",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    },
  ],
  jwks: signingJwks(),
  cookies: { keys: [randomBytes(32).toString("base64url")] },
  findAccount: async (_ctx, accountId) => ({
    accountId,
    claims: async () => ({ sub: accountId, email: "ada@example.com", email_verified: true, name: "Ada Lovelace" }),
  }),
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  features: { devInteractions: { enabled: false } },
  // PKCE is required of public clients and S256 is the only method (the version 9 defaults).
  rotateRefreshToken: true,
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
  ttl: { AccessToken: 60 * 60, AuthorizationCode: 5 * 60, IdToken: 60 * 60, RefreshToken: 90 * DAY, Grant: 90 * DAY, Session: 14 * DAY, Interaction: 60 * 60 },
});

/** Signs in ACCOUNT_ID and grants the requested scopes, then sends the browser back to the authorization endpoint. */
async function interact(req, res) {
  const details = await provider.interactionDetails(req, res);
  const grant = new provider.Grant({ accountId: ACCOUNT_ID, clientId: details.params.client_id });
  grant.addOIDCScope(details.params.scope ?? "openid");
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId: ACCOUNT_ID }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

const callback = provider.callback();
const server = createServer((req, res) => {
  if (req.method === "GET" && req.url?.startsWith("/interaction/")) {
    interact(req, res).catch((err) => {
      console.error(err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
    return;
  }
  callback(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => console.log(`oidc-provider listening on http://127.0.0.1:${port}`));

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
