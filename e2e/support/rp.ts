// A relying party for the browser tests: a small web app that signs people in with the service
// through openid-client (authorization code + PKCE, ID token signature checked), then reads the
// person's profile with the access token.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as client from "openid-client";

export interface RelyingParty {
  url: string;
  clientId: string;
  /** The tokens of the last completed sign-in (its refresh token, for the tests that rotate it). */
  lastTokens(): { access_token: string; refresh_token?: string } | null;
  close(): Promise<void>;
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export async function startRelyingParty(opts: {
  issuer: string;
  publishableKey: string;
  secretKey: string;
  agent: string;
  scope?: string;
  required?: string;
}): Promise<RelyingParty> {
  const server: Server = createServer();
  // All interfaces: the browser may reach "localhost" over IPv4 or IPv6.
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const port = (server.address() as AddressInfo).port;
  const redirectUri = `http://localhost:${port}/callback`;
  const registered = await fetch(`${opts.issuer}/v1/sso/client`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ publishable_key: opts.publishableKey, redirect_uri: redirectUri }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const config = await client.discovery(new URL(opts.issuer), clientId, undefined, client.None(), { execute: [client.allowInsecureRequests] });
  client.enableNonRepudiationChecks(config);
  const attempts = new Map<string, { verifier: string; nonce: string }>();
  let last: { access_token: string; refresh_token?: string } | null = null;

  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- node:http ignores the handler's promise; each branch answers or fails the request itself
  server.on("request", async (req, res) => {
    const url = new URL(req.url ?? "/", `http://localhost:${port}`);
    const page = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html lang="en"><head><title>Trailhead</title></head><body><main>${body}</main></body></html>`);
    };
    try {
      if (url.pathname === "/login") {
        const verifier = client.randomPKCECodeVerifier();
        const state = client.randomState();
        const nonce = client.randomNonce();
        attempts.set(state, { verifier, nonce });
        const target = client.buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: opts.scope ?? "openid email profile",
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: "S256",
          state,
          nonce,
          ...(opts.required ? { required: opts.required } : {}),
        });
        res.writeHead(302, { location: target.href });
        return res.end();
      }
      if (url.pathname === "/callback") {
        const state = url.searchParams.get("state") ?? "";
        const attempt = attempts.get(state);
        if (url.searchParams.get("error")) {
          return page(
            200,
            `<h1>Sign-in cancelled</h1><p data-testid="error">${escape(url.searchParams.get("error")!)}</p><p data-testid="state-known">${attempt ? "yes" : "no"}</p>`,
          );
        }
        if (!attempt) return page(400, "<h1>Unknown sign-in attempt</h1>");
        const tokens = await client.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: attempt.verifier,
          expectedState: state,
          expectedNonce: attempt.nonce,
          idTokenExpected: true,
        });
        last = { access_token: tokens.access_token, refresh_token: tokens.refresh_token };
        const claims = tokens.claims()!;
        const profile = await fetch(`${opts.issuer}/v1/profile`, {
          headers: { "X-API-Key": opts.secretKey, "X-Agent": opts.agent, Authorization: `Bearer ${tokens.access_token}` },
        });
        const search = await fetch(`${opts.issuer}/v1/profile/search?query=${encodeURIComponent("Lisbon")}`, {
          headers: { "X-API-Key": opts.secretKey, "X-Agent": opts.agent, Authorization: `Bearer ${tokens.access_token}` },
        });
        return page(
          200,
          `<h1>Signed in</h1><p data-testid="sub">${escape(String(claims.sub))}</p><p data-testid="aud">${escape(String(claims.aud))}</p>` +
            `<p data-testid="email">${escape(typeof claims.email === "string" ? claims.email : "")}</p><p data-testid="email-verified">${escape(typeof claims.email_verified === "boolean" ? String(claims.email_verified) : "")}</p>` +
            `<p data-testid="profile-status">${profile.status}</p><pre data-testid="profile">${escape(await profile.text())}</pre>` +
            `<p data-testid="search-status">${search.status}</p><pre data-testid="search">${escape(await search.text())}</pre>`,
        );
      }
      page(200, `<h1>Trailhead</h1><a href="/login">Sign in with your profile</a>`);
    } catch (err) {
      page(500, `<h1>Sign-in failed</h1><pre data-testid="failure">${escape(String((err as Error).message))}</pre>`);
    }
  });
  return { url: `http://localhost:${port}`, clientId, lastTokens: () => last, close: () => new Promise((r) => server.close(() => r())) };
}
