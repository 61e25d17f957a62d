// A local stand-in for the Microsoft identity platform and Microsoft Graph's /me: authorization code
// with PKCE, a client secret, refresh tokens (node oidc-provider), and GET /v1.0/me answering the
// mailbox's id and address for a valid access token. Sign-in and consent happen at once.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { followProviderRedirects } from "./provider-browser";

export const MICROSOFT_TEST_CLIENT = { id: "microsoft-test-client", secret: "microsoft-test-secret" };

export async function startMicrosoftProvider(opts: { redirectUri: string; mail: string }) {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const accountId = "ms-account-1";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: MICROSOFT_TEST_CLIENT.id,
        client_secret: MICROSOFT_TEST_CLIENT.secret,
        token_endpoint_auth_method: "client_secret_post",
        redirect_uris: [opts.redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "ms", alg: "RS256", use: "sig" }] },
    cookies: { keys: [randomBytes(16).toString("hex")] },
    scopes: ["openid", "offline_access", "User.Read", "Mail.Read"],
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
    issueRefreshToken: async () => true,
  });
  const callback = provider.callback();
  server.on("request", (req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      (async () => {
        const details = await provider.interactionDetails(req, res);
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: false });
      })().catch((err) => res.writeHead(500).end(String(err)));
      return;
    }
    if (req.url === "/v1.0/me") {
      (async () => {
        const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
        const found = token ? await provider.AccessToken.find(token) : undefined;
        if (!found) return res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "InvalidAuthenticationToken" } }));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: found.accountId, mail: opts.mail, userPrincipalName: "someone@tenant.example" }));
      })().catch((err) => res.writeHead(500).end(String(err)));
      return;
    }
    callback(req, res);
  });

  return {
    env: {
      MICROSOFT_CLIENT_ID: MICROSOFT_TEST_CLIENT.id,
      MICROSOFT_CLIENT_SECRET: MICROSOFT_TEST_CLIENT.secret,
      MICROSOFT_AUTHORIZATION_URL: `${issuer}/auth`,
      MICROSOFT_TOKEN_URL: `${issuer}/token`,
      MICROSOFT_PROFILE_URL: `${issuer}/v1.0/me`,
    },
    consent: (url: URL) => followProviderRedirects(issuer, url),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
