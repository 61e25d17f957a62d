// A local server speaking GitHub's side of GitHub sign-in for the browser tests, on GitHub's wire format: the
// web flow (/login/oauth/authorize shows "Sign in to GitHub", then "Authorize", and sends the browser back
// with a code and the state; POST /login/oauth/access_token exchanges the code for a token, checking the
// client secret, the redirect_uri and the PKCE verifier, as JSON when asked for and form-encoded otherwise)
// and the REST API under /api/v3 as GitHub Enterprise Server lays it out (GET /user, GET /user/emails with
// GitHub's primary and verified flags). Two accounts: "ada", whose primary address is verified, and "eve",
// whose primary address is not.
// Usage: PORT=3106 REDIRECT_URIS=http://localhost:3100/api/dashboard-auth/callback/github node e2e/support/github-provider.mjs
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { URLSearchParams } from "node:url";

const port = Number(process.env.PORT ?? 3106);
const CLIENT = { id: "e2e-github-client", secret: "e2e-github-secret", name: "Profile Service" };
/** The password of every account here (e2e/dashboard-third-party.spec.ts types it). */
const PASSWORD = "correct-horse-battery-staple";
const ACCOUNTS = [
  {
    id: 1201,
    login: "ada",
    name: "Ada Lovelace",
    // The profile's public address is not the verified primary one, as GitHub allows.
    publicEmail: "ada@analytical.example",
    emails: [
      { email: "ada.lovelace@example.com", primary: true, verified: true },
      { email: "ada@analytical.example", primary: false, verified: false },
    ],
  },
  { id: 1202, login: "eve", name: "Eve Unverified", publicEmail: null, emails: [{ email: "eve@example.com", primary: true, verified: false }] },
];

function startGitHubProvider() {
  const redirectUris = (process.env.REDIRECT_URIS ?? "http://localhost:3100/api/dashboard-auth/callback/github").split(",").filter(Boolean);
  /** Signed-in browsers: the user_session cookie's value → the account's login. */
  const sessions = new Map();
  /** Codes not yet exchanged (10 minutes, once): code → what the authorization asked for. */
  const codes = new Map();
  /** Access tokens → the account's login. */
  const tokens = new Map();

  return createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    const json = (status, body) => res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
    const html = (status, title, body) => res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(page(title, body));
    const sessionLogin = sessions.get(cookie(req, "user_session"));

    if (url.pathname === "/health") return res.writeHead(200).end("ok");

    // The web flow: sign in (once per browser), then authorize the app for the account.
    if (url.pathname === "/login/oauth/authorize" && req.method === "GET") {
      const problem = authorizeProblem(url.searchParams, redirectUris);
      if (problem) return html(400, "Error", `<h1>${escape(problem)}</h1>`);
      if (!sessionLogin) return res.writeHead(302, { location: `/login?return_to=${encodeURIComponent(url.pathname + url.search)}` }).end();
      return html(200, "Authorize application", authorizePage(url.searchParams, sessionLogin));
    }
    if (url.pathname === "/login/oauth/authorize" && req.method === "POST") {
      return readForm(req).then((form) => {
        const params = new URLSearchParams(form.get("query") ?? "");
        const problem = authorizeProblem(params, redirectUris);
        if (problem || !sessionLogin) return html(400, "Error", `<h1>${escape(problem ?? "Sign in first.")}</h1>`);
        const back = new URL(params.get("redirect_uri"));
        if (form.get("authorize") !== "1") {
          back.searchParams.set("error", "access_denied");
          back.searchParams.set("error_description", "The user has denied your application access.");
        } else {
          const code = randomBytes(10).toString("hex");
          codes.set(code, {
            login: sessionLogin,
            redirectUri: params.get("redirect_uri"),
            challenge: params.get("code_challenge"),
            expires: Date.now() + 10 * 60_000,
          });
          back.searchParams.set("code", code);
        }
        if (params.has("state")) back.searchParams.set("state", params.get("state"));
        res.writeHead(302, { location: back.toString() }).end();
      });
    }
    if (url.pathname === "/login" && req.method === "GET") {
      return html(200, "Sign in to GitHub", loginPage(url.searchParams.get("return_to") ?? "/", false));
    }
    if (url.pathname === "/session" && req.method === "POST") {
      return readForm(req).then((form) => {
        const returnTo = form.get("return_to") ?? "/";
        const account = ACCOUNTS.find((a) => a.login === form.get("login")?.trim().toLowerCase());
        if (!account || form.get("password") !== PASSWORD) return html(200, "Sign in to GitHub", loginPage(returnTo, true));
        const id = randomBytes(16).toString("hex");
        sessions.set(id, account.login);
        // Only a path on this server: the return address never leaves it.
        const location = returnTo.startsWith("/") && !returnTo.startsWith("//") ? returnTo : "/";
        res.writeHead(302, { location, "set-cookie": `user_session=${id}; Path=/; HttpOnly; SameSite=Lax` }).end();
      });
    }

    // The token exchange: GitHub answers errors with 200 and an error field.
    if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
      return readForm(req).then((form) => {
        const wantsJson = String(req.headers.accept ?? "").includes("application/json");
        const reply = (body) =>
          wantsJson ? json(200, body) : res.writeHead(200, { "content-type": "application/x-www-form-urlencoded; charset=utf-8" }).end(new URLSearchParams(body).toString());
        const [basicId, basicSecret] = basicCredentials(req.headers.authorization);
        const clientId = basicId ?? form.get("client_id");
        const clientSecret = basicSecret ?? form.get("client_secret");
        if (clientId !== CLIENT.id || clientSecret !== CLIENT.secret) {
          return reply({ error: "incorrect_client_credentials", error_description: "The client_id and/or client_secret passed are incorrect." });
        }
        const code = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const bad = { error: "bad_verification_code", error_description: "The code passed is incorrect or expired." };
        if (!code || code.expires < Date.now()) return reply(bad);
        if (form.has("redirect_uri") && form.get("redirect_uri") !== code.redirectUri) {
          return reply({ error: "redirect_uri_mismatch", error_description: "The redirect_uri MUST match the registered callback URL for this application." });
        }
        const verifier = form.get("code_verifier");
        if (code.challenge && (!verifier || createHash("sha256").update(verifier).digest("base64url") !== code.challenge)) return reply(bad);
        const accessToken = `gho_${randomBytes(18).toString("base64url")}`;
        tokens.set(accessToken, code.login);
        return reply({ access_token: accessToken, token_type: "bearer", scope: "read:user,user:email" });
      });
    }

    // The REST API, for a token.
    if (req.method === "GET" && (url.pathname === "/api/v3/user" || url.pathname === "/api/v3/user/emails")) {
      const token = String(req.headers.authorization ?? "").replace(/^(Bearer|token) /i, "");
      const account = ACCOUNTS.find((a) => a.login === tokens.get(token));
      if (!account) return json(401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
      if (url.pathname === "/api/v3/user") {
        return json(200, { login: account.login, id: account.id, avatar_url: null, type: "User", name: account.name, email: account.publicEmail });
      }
      return json(
        200,
        account.emails.map((e) => ({ ...e, visibility: e.primary ? "private" : null })),
      );
    }
    json(404, { message: "Not Found" });
  });
}

/** Why an authorization request is refused, or null: the client and a registered callback, PKCE with S256 only. */
function authorizeProblem(params, redirectUris) {
  if (params.get("client_id") !== CLIENT.id) return "The client_id is not known.";
  if (!redirectUris.includes(params.get("redirect_uri") ?? "")) return "The redirect_uri is not associated with this application.";
  if (params.has("code_challenge") && params.get("code_challenge_method") !== "S256") return "Only S256 is supported as code_challenge_method.";
  return null;
}

function cookie(req, name) {
  const pair = String(req.headers.cookie ?? "")
    .split(";")
    .map((c) => c.trim().split("="))
    .find(([k]) => k === name);
  return pair?.[1];
}

function basicCredentials(header) {
  if (!header?.startsWith("Basic ")) return [undefined, undefined];
  const decoded = Buffer.from(header.slice(6), "base64").toString();
  const colon = decoded.indexOf(":");
  return [decoded.slice(0, colon), decoded.slice(colon + 1)].map((v) => decodeURIComponent(v.replace(/\+/g, " ")));
}

async function readForm(req) {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  return new URLSearchParams(raw);
}

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)} · GitHub</title>
<style>body{font-family:sans-serif;margin:0;padding:24px;background:#f6f8fa;color:#1f2328}main{max-width:340px;margin:0 auto}label{display:block;margin-top:12px;font-weight:600}input{display:block;width:100%;box-sizing:border-box;margin-top:4px;padding:8px;font-size:16px}button{margin-top:16px;width:100%;padding:10px;font-size:16px;border-radius:6px;border:1px solid #1f2328;background:#fff}button.primary{background:#1f883d;border-color:#1f883d;color:#fff}.error{padding:12px;background:#ffebe9;border:1px solid #ff818266}</style>
</head><body><main>${body}</main></body></html>`;
}

function loginPage(returnTo, failed) {
  return `<h1>Sign in to GitHub</h1><p>to continue to ${escape(CLIENT.name)}</p>${failed ? '<p role="alert" class="error">Incorrect username or password.</p>' : ""}
<form method="post" action="/session"><input type="hidden" name="return_to" value="${escape(returnTo)}">
<label for="login">Username or email address</label><input id="login" name="login" autocomplete="username" autofocus required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" class="primary">Sign in</button></form>`;
}

function authorizePage(params, login) {
  const query = new URLSearchParams(params).toString();
  return `<h1>Authorize ${escape(CLIENT.name)}</h1><p>${escape(CLIENT.name)} wants to access your <strong>${escape(login)}</strong> account</p>
<ul><li>Personal user data: email addresses (read-only), profile information (read-only)</li></ul>
<form method="post" action="/login/oauth/authorize"><input type="hidden" name="query" value="${escape(query)}">
<button type="submit" name="authorize" value="0">Cancel</button><button type="submit" name="authorize" value="1" class="primary">Authorize ${escape(login)}</button></form>`;
}

startGitHubProvider().listen(port, "127.0.0.1");
