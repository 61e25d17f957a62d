// A developer's page with the sign-in button: the page, its callback page, and the server-side code
// exchange followed by a profile read with the access token. node:http only, no dependencies.
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { URLSearchParams } from "node:url";

// eslint-disable-next-line no-restricted-properties -- an example app is configured by its own environment
const { SERVICE_URL = "http://localhost:3000", CLIENT_ID, SECRET_KEY, AGENT, PORT = "4000" } = process.env;
if (!CLIENT_ID || !SECRET_KEY || !AGENT) throw new Error("Set CLIENT_ID (oc_…), SECRET_KEY (sk_…) and AGENT (the agent's handle).");
const REDIRECT_URI = `http://localhost:${PORT}/callback`;
const sdk = `${SERVICE_URL}/sdk/v1/service-sso.js`;
const integrity = `sha384-${createHash("sha384")
  .update(await (await fetch(sdk)).text())
  .digest("base64")}`;
const page = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trailhead</title>
<script src="${sdk}" integrity="${integrity}" crossorigin="anonymous"></script></head><body style="font-family:system-ui;padding:32px">${body}</body></html>`;
const HOME = page(`<h1>Trailhead</h1><service-sso-button client-id="${CLIENT_ID}" redirect-uri="${REDIRECT_URI}" agent-name="Trailhead"></service-sso-button>
<section id="profile" hidden><h2 id="name"></h2><p id="summary"></p><ul id="facts"></ul></section><p id="error" role="alert"></p>
<script>
  addEventListener("service:sso-authenticated", ({ detail: { result: p } }) => {
    document.getElementById("profile").hidden = false;
    document.getElementById("name").textContent = "Signed in: " + (p.name ?? "(no name shared)");
    document.getElementById("summary").textContent = p.summary || "(no summary yet)";
    for (const fact of p.facts) document.getElementById("facts").appendChild(document.createElement("li")).textContent = fact;
  });
  addEventListener("service:sso-error", ({ detail }) => (document.getElementById("error").textContent = detail.message));
</script>`);
const CALLBACK = page(`<p>Finishing sign-in…</p><script>Service.handleSsoCallback({ exchangeUrl: "/exchange" });</script>`);

async function exchange(req) {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  const { code, codeVerifier } = JSON.parse(raw);
  const form = { grant_type: "authorization_code", code, code_verifier: codeVerifier, redirect_uri: REDIRECT_URI, client_id: CLIENT_ID };
  const tokens = await (await fetch(`${SERVICE_URL}/oauth/token`, { method: "POST", body: new URLSearchParams(form) })).json();
  if (!tokens.access_token) return { error: tokens.error ?? "exchange_failed", error_description: tokens.error_description };
  // The access token stays on this server; the page gets only what it shows.
  const headers = { "x-api-key": SECRET_KEY, "x-agent": AGENT, authorization: `Bearer ${tokens.access_token}` };
  const profile = await (await fetch(`${SERVICE_URL}/v1/profile?sections=identity,preferences,summary`, { headers })).json();
  if (profile.error) return { error: profile.error.code, error_description: profile.error.message };
  return { name: profile.identity?.name ?? null, summary: profile.summary ?? "", facts: [...(profile.identity?.facts ?? []), ...(profile.preferences ?? [])] };
}

createServer((req, res) => {
  const send = (type, body, status = 200) => res.writeHead(status, { "content-type": type }).end(body);
  if (req.url === "/") return send("text/html", HOME);
  if (req.url?.startsWith("/callback")) return send("text/html", CALLBACK);
  if (req.url === "/exchange" && req.method === "POST") {
    return void exchange(req).then(
      (r) => send("application/json", JSON.stringify(r), r.error ? 400 : 200),
      (e) => send("application/json", JSON.stringify({ error: "exchange_failed", error_description: String(e) }), 502),
    );
  }
  send("text/plain", "not found", 404);
}).listen(Number(PORT), () => console.log(`Trailhead example on http://localhost:${PORT}`));
