// The developer's site for the sign-in button's browser tests: the page with the button, the callback
// page, and the 30-line exchange endpoint that redeems the code at POST /oauth/token. The pages load
// either the served script ({BASE_URL}/sdk/v1/service-sso.js with its integrity value) or the
// developer's own bundles built from the npm package (@profile-service/browser). Also the hosted flow
// as a new person signing in.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page } from "@playwright/test";

export const seed = JSON.parse(readFileSync(`${process.env.E2E_DATA_DIR}-seed.json`, "utf8")) as { publishable_key: string; agent_name: string };
export const EVENTS = ["start", "open", "authenticated", "error", "close"].map((n) => `service:sso-${n}`);

export interface DeveloperSite {
  url: string;
  clientId: string;
  close(): Promise<void>;
}

/** The developer's own code, bundled from the npm package: one ES module for the button's page, one for the callback page. */
export interface SiteBundles {
  page: string;
  callback: string;
}

/**
 * The developer's site: the page with the button, the callback page, and the 30-line exchange endpoint.
 * With `bundles`, both pages run the developer's bundles (served at /page.js and /callback.js) instead of
 * the served script.
 */
export async function startDeveloperSite(issuer: string, opts: { bundles?: SiteBundles } = {}): Promise<DeveloperSite> {
  const bundles = opts.bundles;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  const redirectUri = `${origin}/callback`;
  const registered = await fetch(`${issuer}/v1/sso/client`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ publishable_key: seed.publishable_key, redirect_uri: redirectUri }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  let served = "";
  if (!bundles) {
    const script = await (await fetch(`${issuer}/sdk/v1/service-sso.js`)).text();
    const integrity = `sha384-${createHash("sha384").update(script).digest("base64")}`;
    served = `<script src="${issuer}/sdk/v1/service-sso.js" integrity="${integrity}" crossorigin="anonymous"></script>`;
  }
  const collect = `<script>window.__events=[];for(const n of ${JSON.stringify(EVENTS)})addEventListener(n,(e)=>__events.push({type:e.type,detail:e.detail}));</script>`;
  const html = (body: string, bundle?: "page" | "callback") =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trailhead</title>${served}${collect}${bundle && bundles ? `<script type="module" src="/${bundle}.js"></script>` : ""}</head><body style="font-family:system-ui;padding:32px;color-scheme:light dark">${body}</body></html>`;

  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- node:http ignores the handler's promise; each branch answers itself
  server.on("request", async (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const send = (status: number, type: string, body: string) => res.writeHead(status, { "content-type": type }).end(body);
    if (url.pathname === "/") {
      return send(
        200,
        "text/html",
        html(`<h1>Trailhead</h1><service-sso-button client-id="${clientId}" redirect-uri="${redirectUri}" agent-name="Trailhead" width="300"></service-sso-button>`, "page"),
      );
    }
    if (bundles && (url.pathname === "/page.js" || url.pathname === "/callback.js")) {
      return send(200, "text/javascript", url.pathname === "/page.js" ? bundles.page : bundles.callback);
    }
    if (url.pathname === "/setup") return send(200, "text/html", html(`<h1>Trailhead</h1><service-sso-button agent-name="Trailhead" width="340"></service-sso-button>`));
    if (url.pathname === "/callback" && bundles) return send(200, "text/html", html(`<p id="status">Finishing sign-in…</p>`, "callback"));
    if (url.pathname === "/callback") {
      // The callback page: the verifier kept for this attempt goes with the code to this site's own server.
      const callback = `<p id="status">Finishing sign-in…</p><script>
        const p = new URLSearchParams(location.search);
        const state = p.get("state");
        const body = { code: p.get("code"), codeVerifier: Service.getSsoPkce(state), state };
        (p.get("error") ? Promise.resolve({ error: p.get("error") }) : fetch("/exchange", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json()).catch(() => ({ error: "exchange_failed" })))
          .then((result) => { document.getElementById("status").textContent = result.error ? "Sign-in failed" : "Signed in"; Service.completeSso(result); });
      </script>`;
      return send(200, "text/html", html(callback));
    }
    if (url.pathname === "/exchange" && req.method === "POST") {
      let raw = "";
      for await (const chunk of req) raw += String(chunk);
      const { code, codeVerifier } = JSON.parse(raw) as { code: string; codeVerifier: string };
      const token = await fetch(`${issuer}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: codeVerifier, redirect_uri: redirectUri, client_id: clientId }),
      });
      const answer = (await token.json()) as { id_token?: string; access_token?: string; error?: string };
      if (!token.ok || !answer.id_token) return send(400, "application/json", JSON.stringify({ error: answer.error ?? "exchange_failed" }));
      // The tokens stay here; the page learns who signed in.
      const claims = JSON.parse(Buffer.from(answer.id_token.split(".")[1]!, "base64url").toString()) as { sub: string; aud: string };
      return send(200, "application/json", JSON.stringify({ signedIn: true, sub: claims.sub, aud: claims.aud, hasAccessToken: Boolean(answer.access_token) }));
    }
    send(404, "text/plain", "not found");
  });
  return { url: origin, clientId, close: () => new Promise((r) => server.close(() => r())) };
}

function freshPhone(): { e164: string; national: string } {
  const line = String(2000 + Math.floor(Math.random() * 7000));
  return { e164: `+1415555${line}`, national: `415 555 ${line}` };
}

/** The hosted flow as a new person: a pasted memory list, a phone number, the code from the outbox, the receipt. */
export async function signInAsNewPerson(flow: Page) {
  await expect(flow.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  await flow.getByRole("link", { name: /ChatGPT/ }).click();
  await flow.getByLabel("Paste ChatGPT’s answer").fill("- I live in Porto\n- I love trail running");
  await flow.getByRole("button", { name: "Preview memories" }).click();
  await flow.getByRole("button", { name: "Keep 2 memories" }).click();
  await flow.getByRole("button", { name: "Continue", exact: true }).click();
  const phone = freshPhone();
  await flow.getByLabel("Country").selectOption("US");
  await flow.getByLabel("Mobile number").fill(phone.national);
  await flow.getByRole("button", { name: "Text me a code" }).click();
  await expect(flow.getByRole("heading", { level: 1 })).toHaveText("Enter the code");
  const outbox = await flow.context().newPage();
  await outbox.goto("/dev/outbox");
  const message = outbox
    .getByTestId("outbox-message")
    .filter({ has: outbox.getByTestId("outbox-last4").getByText(phone.e164.slice(-4), { exact: true }) })
    .first();
  const code = (await message.getByTestId("outbox-body").innerText()).match(/^(\d{6})/)![1]!;
  await outbox.close();
  await flow.getByLabel("Six-digit code").fill(code);
  await expect(flow.getByRole("heading", { level: 1 })).toHaveText("Add your mailbox");
  await flow.getByRole("button", { name: "Not now" }).click();
  await expect(flow.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
  await flow.getByRole("button", { name: `Return to ${seed.agent_name}` }).click();
}

export interface Recorded {
  type: string;
  detail: { state?: string; mode?: string; message?: string; result?: { sub: string; aud: string; hasAccessToken: boolean } };
}
/** The sign-in events the developer's page has heard, in order. */
export const recorded = (page: Page) => page.evaluate(() => (window as unknown as { __events: Recorded[] }).__events);
export const eventTypes = async (page: Page) => (await recorded(page)).map((e) => e.type);
export const button = (page: Page) => page.getByRole("button", { name: "Sign in with Profile Service" });
export const storedAttempts = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("service-sso:")));

/** Does what opens the sign-in (a click, a key) and returns the popup it opened, once on the hosted flow's first screen. */
export async function openPopup(page: Page, act: () => Promise<void>): Promise<Page> {
  const popupOpened = page.context().waitForEvent("page");
  await act();
  const popup = await popupOpened;
  await expect(popup).toHaveURL(/\/flow\/[A-Za-z0-9]{32}$/);
  return popup;
}
