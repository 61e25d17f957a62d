// A local provider speaking Google's side of app connections and of Google sign-in for the browser tests (node
// oidc-provider): sign-in and consent happen at once on /interaction/:uid, for one account. For the callbacks
// in CONSENT_REDIRECT_URIS the person clicks through instead, as on a first visit to Google: they choose an
// account (one with a verified address, one without) and then allow the app.
// Usage: PORT=3105 REDIRECT_URIS=http://localhost:3100/connect/callback,http://localhost:3100/api/auth/callback/google \
//   CONSENT_REDIRECT_URIS=http://localhost:3100/api/dashboard-auth/callback/google node e2e/support/google-provider.mjs
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { URLSearchParams } from "node:url";
import Provider from "oidc-provider";

const port = Number(process.env.PORT ?? 3105);
const consentRedirectUris = (process.env.CONSENT_REDIRECT_URIS ?? "").split(",").filter(Boolean);
/** The accounts on offer; the first one is signed in at once where no one chooses. */
const ACCOUNTS = [
  { id: "e2e-account", name: "Grace Hopper", email: "grace.hopper@example.com", email_verified: true },
  { id: "e2e-unverified", name: "Mallory Unverified", email: "mallory@example.com", email_verified: false },
];
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
  findAccount: async (_ctx, id) => {
    const account = ACCOUNTS.find((a) => a.id === id) ?? ACCOUNTS[0];
    return { accountId: id, claims: async () => ({ sub: id, email: account.email, email_verified: account.email_verified }) };
  },
  features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
  // As Google does: the scopes' claims are in the ID token too, not only at userinfo.
  conformIdTokenClaims: false,
  issueRefreshToken: async () => true,
});
const callback = provider.callback();

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)} - Google Accounts</title>
<style>body{font-family:sans-serif;margin:0;padding:24px;color:#202124}main{max-width:400px;margin:0 auto}button{display:block;width:100%;margin:8px 0;padding:12px;font-size:16px;text-align:left;background:#fff;border:1px solid #747775;border-radius:8px;color:#202124}button.primary{background:#0b57d0;color:#fff;text-align:center;border-color:#0b57d0}</style>
</head><body><main><p>Sign in with Google</p>${body}</main></body></html>`;
}

async function readForm(req) {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  return new URLSearchParams(raw);
}

/** Finishes the interaction for the account: signed in, the scopes asked for granted. */
async function finish(req, res, details, accountId) {
  const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope));
  await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: false });
}

/** The account chooser, then the consent page for the account chosen (a form posting back to the interaction). */
async function clickThrough(req, res, details) {
  const form = req.method === "POST" ? await readForm(req) : new URLSearchParams();
  const account = ACCOUNTS.find((a) => a.id === form.get("account"));
  const action = `/interaction/${escape(details.uid)}`;
  const html = (title, body) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(title, body));
  if (!account) {
    const choices = ACCOUNTS.map((a) => `<button type="submit" name="account" value="${a.id}">${escape(a.name)}<br>${escape(a.email)}</button>`).join("");
    return html("Choose an account", `<h1>Choose an account</h1><p>to continue to Profile Service</p><form method="post" action="${action}">${choices}</form>`);
  }
  if (form.get("allow") === "yes") return finish(req, res, details, account.id);
  return html(
    "Allow access",
    `<h1>Profile Service wants to access your Google Account</h1><p>${escape(account.email)}</p><p>This will allow Profile Service to see your primary Google Account email address.</p>
<form method="post" action="${action}"><input type="hidden" name="account" value="${account.id}"><button type="submit" name="allow" value="yes" class="primary">Continue</button></form>`,
  );
}

createServer((req, res) => {
  if (req.url?.startsWith("/interaction/")) {
    (async () => {
      const details = await provider.interactionDetails(req, res);
      if (consentRedirectUris.includes(String(details.params.redirect_uri))) return clickThrough(req, res, details);
      await finish(req, res, details, ACCOUNTS[0].id);
    })().catch((err) => res.writeHead(500).end(String(err)));
    return;
  }
  if (req.url === "/health") return res.writeHead(200).end("ok");
  callback(req, res);
}).listen(port, "127.0.0.1");
