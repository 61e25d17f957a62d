// A local OAuth 2.0 / OpenID Connect provider (node oidc-provider) for the connection tests: one
// confidential client, PKCE, refresh tokens, revocation; sign-in and consent happen at once at
// /interaction/:uid for one account. `routes` answers extra paths (a profile API, say).
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { followProviderRedirects } from "./provider-browser";

export interface LocalProviderOptions {
  client: { id: string; secret: string };
  redirectUri: string | string[];
  accountId: string;
  scopes: string[];
  claims?: Record<string, string[]>;
  accountClaims?: Record<string, unknown>;
  routes?: (provider: any, req: IncomingMessage, res: ServerResponse) => boolean;
}

export async function startLocalProvider(opts: LocalProviderOptions) {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: opts.client.id,
        client_secret: opts.client.secret,
        token_endpoint_auth_method: "client_secret_post",
        redirect_uris: [opts.redirectUri].flat(),
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "local", alg: "RS256", use: "sig" }] },
    cookies: { keys: [randomBytes(16).toString("hex")] },
    scopes: opts.scopes,
    ...(opts.claims ? { claims: opts.claims } : {}),
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id, ...opts.accountClaims }) }),
    features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
    // As Google does: the scopes' claims are in the ID token too, not only at userinfo.
    conformIdTokenClaims: false,
    issueRefreshToken: async () => true,
    rotateRefreshToken: true,
  });
  const callback = provider.callback();
  server.on("request", (req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      (async () => {
        const details = await provider.interactionDetails(req, res);
        const grant = new provider.Grant({ accountId: opts.accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        await provider.interactionFinished(req, res, { login: { accountId: opts.accountId }, consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: false });
      })().catch((err) => res.writeHead(500).end(String(err)));
      return;
    }
    if (opts.routes?.(provider, req, res)) return;
    callback(req, res);
  });
  return {
    issuer,
    provider,
    consent: (url: URL) => followProviderRedirects(issuer, url),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
