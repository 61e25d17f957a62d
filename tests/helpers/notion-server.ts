// A local server speaking Notion's OAuth: /v1/oauth/authorize sends the browser straight back with a
// code (the person approves at once), /v1/oauth/token takes JSON with HTTP Basic client
// authentication (code and refresh grants), /v1/oauth/revoke ends a token.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export const NOTION_TEST_CLIENT = { id: "notion-test-client", secret: "notion-test-secret" };

export async function startNotionServer(opts: { email: string }) {
  const codes = new Map<string, string>(); // code → redirect_uri
  const refreshTokens = new Set<string>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://local");
    const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.method === "GET" && url.pathname === "/v1/oauth/authorize") {
      if (url.searchParams.get("client_id") !== NOTION_TEST_CLIENT.id || url.searchParams.get("owner") !== "user") return send(400, { error: "invalid_request" });
      const code = randomBytes(8).toString("hex");
      const redirect = url.searchParams.get("redirect_uri")!;
      codes.set(code, redirect);
      const back = new URL(redirect);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      return res.writeHead(302, { location: back.toString() }).end();
    }
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const basic = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
      if (basic !== `${NOTION_TEST_CLIENT.id}:${NOTION_TEST_CLIENT.secret}`) return send(401, { error: "invalid_client" });
      if (!String(req.headers["content-type"]).startsWith("application/json")) return send(400, { error: "invalid_request" });
      const body = JSON.parse(raw || "{}") as Record<string, string>;
      const issue = () => {
        const refresh = `nrt_${randomBytes(8).toString("hex")}`;
        refreshTokens.add(refresh);
        return send(200, {
          access_token: `ntn_${randomBytes(8).toString("hex")}`,
          refresh_token: refresh,
          expires_in: 3600,
          token_type: "bearer",
          bot_id: "bot-1",
          workspace_name: "Test workspace",
          owner: { type: "user", user: { id: "notion-user-1", person: { email: opts.email } } },
        });
      };
      if (url.pathname === "/v1/oauth/token" && body.grant_type === "authorization_code") {
        if (codes.get(body.code!) !== body.redirect_uri) return send(400, { error: "invalid_grant" });
        codes.delete(body.code!);
        return issue();
      }
      if (url.pathname === "/v1/oauth/token" && body.grant_type === "refresh_token") {
        if (!refreshTokens.delete(body.refresh_token!)) return send(400, { error: "invalid_grant", error_description: "refresh token revoked" });
        return issue();
      }
      if (url.pathname === "/v1/oauth/revoke") {
        refreshTokens.delete(body.token!);
        return send(200, {});
      }
      send(404, { error: "not_found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: {
      NOTION_CLIENT_ID: NOTION_TEST_CLIENT.id,
      NOTION_CLIENT_SECRET: NOTION_TEST_CLIENT.secret,
      NOTION_AUTHORIZATION_URL: `${base}/v1/oauth/authorize`,
      NOTION_TOKEN_URL: `${base}/v1/oauth/token`,
      NOTION_REVOCATION_URL: `${base}/v1/oauth/revoke`,
    },
    /** The browser at Notion: approval is immediate, so one redirect brings it back. */
    async consent(url: URL): Promise<URL> {
      const res = await fetch(url, { redirect: "manual" });
      return new URL(res.headers.get("location")!);
    },
    isRefreshValid: (token: string) => refreshTokens.has(token),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
