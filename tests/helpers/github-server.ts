// A local server speaking GitHub's OAuth app protocol: /login/oauth/authorize sends the browser
// straight back with a code (the person approves at once), /login/oauth/access_token exchanges it
// (client secret by HTTP Basic or in the form, PKCE S256 checked, JSON when asked for), and the REST
// API answers /api/user and /api/user/emails for the token, as GitHub Enterprise Server lays it out.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export const GITHUB_TEST_CLIENT = { id: "github-test-client", secret: "github-test-secret" };

export interface GitHubAccount {
  login: string;
  /** The profile's public address (may be null, as on GitHub). */
  publicEmail: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

export async function startGitHubServer(account: GitHubAccount) {
  const codes = new Map<string, { redirectUri: string; challenge: string | null }>();
  const tokens = new Set<string>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://local");
    const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.method === "GET" && url.pathname === "/login/oauth/authorize") {
      const redirectUri = url.searchParams.get("redirect_uri");
      if (url.searchParams.get("client_id") !== GITHUB_TEST_CLIENT.id || !redirectUri) return send(400, { error: "invalid_request" });
      if (url.searchParams.has("code_challenge") && url.searchParams.get("code_challenge_method") !== "S256") return send(400, { error: "invalid_request" });
      const code = randomBytes(10).toString("hex");
      codes.set(code, { redirectUri, challenge: url.searchParams.get("code_challenge") });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      if (url.searchParams.has("state")) back.searchParams.set("state", url.searchParams.get("state")!);
      return res.writeHead(302, { location: back.toString() }).end();
    }
    if (req.method === "GET" && (url.pathname === "/api/user" || url.pathname === "/api/user/emails")) {
      const token = (req.headers.authorization ?? "").replace(/^(Bearer|token) /i, "");
      if (!tokens.has(token)) return send(401, { message: "Bad credentials" });
      if (url.pathname === "/api/user") return send(200, { id: 583231, login: account.login, name: null, email: account.publicEmail, avatar_url: null });
      return send(
        200,
        account.emails.map((e) => ({ ...e, visibility: e.primary ? "private" : null })),
      );
    }
    if (req.method === "POST" && url.pathname === "/login/oauth/access_token") {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        const form = new URLSearchParams(raw);
        const basic = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
        const [basicId, basicSecret] = basic.split(":").map((v) => decodeURIComponent(v.replace(/\+/g, " ")));
        const id = basicId || form.get("client_id");
        const secret = basicSecret ?? form.get("client_secret");
        if (id !== GITHUB_TEST_CLIENT.id || secret !== GITHUB_TEST_CLIENT.secret) return send(200, { error: "incorrect_client_credentials" });
        const code = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (!code || code.redirectUri !== form.get("redirect_uri")) return send(200, { error: "bad_verification_code" });
        const verifier = form.get("code_verifier");
        if (code.challenge && (!verifier || createHash("sha256").update(verifier).digest("base64url") !== code.challenge)) return send(200, { error: "bad_verification_code" });
        const accessToken = `gho_${randomBytes(16).toString("hex")}`;
        tokens.add(accessToken);
        if (!String(req.headers.accept).includes("application/json")) {
          return res
            .writeHead(200, { "content-type": "application/x-www-form-urlencoded" })
            .end(new URLSearchParams({ access_token: accessToken, token_type: "bearer", scope: "read:user,user:email" }).toString());
        }
        send(200, { access_token: accessToken, token_type: "bearer", scope: "read:user,user:email" });
      });
      return;
    }
    send(404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    env: { GITHUB_CLIENT_ID: GITHUB_TEST_CLIENT.id, GITHUB_CLIENT_SECRET: GITHUB_TEST_CLIENT.secret, GITHUB_URL: base, GITHUB_API_URL: `${base}/api` },
    /** Follows the authorize redirect as the browser would, to the service's callback. */
    async consent(start: URL): Promise<URL> {
      const res = await fetch(start, { redirect: "manual" });
      const location = res.headers.get("location");
      if (!location) throw new Error(`GitHub answered ${res.status}: ${await res.text()}`);
      return new URL(location);
    },
    /** Changes what the account holds (a test then signs in again). */
    account,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
