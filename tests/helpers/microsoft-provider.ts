// A local stand-in for the Microsoft identity platform and Microsoft Graph's /me: authorization code
// with PKCE, a client secret, refresh tokens, and GET /v1.0/me answering the mailbox's id and address
// for a valid access token; its access tokens' account and scopes for a local Graph mail server
// (tests/helpers/graph-mail.ts), and a count of the requests its token endpoint answered.
import { startLocalProvider } from "./local-provider";

export const MICROSOFT_TEST_CLIENT = { id: "microsoft-test-client", secret: "microsoft-test-secret" };

export async function startMicrosoftProvider(opts: { redirectUri: string; mail: string }) {
  let tokenRequests = 0;
  const local = await startLocalProvider({
    client: MICROSOFT_TEST_CLIENT,
    redirectUri: opts.redirectUri,
    accountId: "ms-account-1",
    // Mail.Send is granted only when asked for (allowing outlook:send).
    scopes: ["openid", "offline_access", "User.Read", "Mail.Read", "Mail.Send"],
    routes: (provider, req, res) => {
      if (req.method === "POST" && req.url === "/token") tokenRequests++;
      if (req.url !== "/v1.0/me") return false;
      (async () => {
        const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
        const found = token ? await provider.AccessToken.find(token) : undefined;
        if (!found) return res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "InvalidAuthenticationToken" } }));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: found.accountId, mail: opts.mail, userPrincipalName: "someone@tenant.example" }));
      })().catch((err) => res.writeHead(500).end(String(err)));
      return true;
    },
  });
  const { issuer } = local;
  return {
    env: {
      MICROSOFT_CLIENT_ID: MICROSOFT_TEST_CLIENT.id,
      MICROSOFT_CLIENT_SECRET: MICROSOFT_TEST_CLIENT.secret,
      MICROSOFT_AUTHORIZATION_URL: `${issuer}/auth`,
      MICROSOFT_TOKEN_URL: `${issuer}/token`,
      MICROSOFT_PROFILE_URL: `${issuer}/v1.0/me`,
    },
    consent: local.consent,
    /** The account and scopes of a live access token of this provider; null for an unknown, expired or ended one. */
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
    /** Ends one access token and nothing else of its grant, as Graph refusing a token before its expiry does. */
    async expireAccessToken(token: string): Promise<void> {
      await (await local.provider.AccessToken.find(token))?.destroy();
    },
    /** Requests the token endpoint has answered (code exchanges and refreshes). */
    tokenRequests: () => tokenRequests,
    close: local.close,
  };
}
