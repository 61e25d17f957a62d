// The sign-in button on a developer's own page, in Chromium against the production server: the page
// loads {BASE_URL}/sdk/v1/service-sso.js with its integrity value, the person signs in in the popup,
// the popup's callback page sends the code to the page's own server, which exchanges it at
// POST /oauth/token; the page sees start, open, authenticated, close. Also the attempts that end in
// start, open, error, close with the button usable again: the popup closed early, the person declining
// (Cancel: error=access_denied on the callback), and the developer's server failing the exchange (a code
// already used, a 500). And: the setup notice, keyboard use and focus ring, a blocked popup (full-page
// sign-in instead), and screenshots of the button light and dark (e2e/screenshots/sso-button-*.png).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type Page, type Route } from "@playwright/test";

const seed = JSON.parse(readFileSync(`${process.env.E2E_DATA_DIR}-seed.json`, "utf8")) as { publishable_key: string; agent_name: string };
const SHOTS = path.resolve("e2e/screenshots");
const EVENTS = ["start", "open", "authenticated", "error", "close"].map((n) => `service:sso-${n}`);

interface DeveloperSite {
  url: string;
  clientId: string;
  close(): Promise<void>;
}

/** The developer's site: the page with the button, the callback page, and the 30-line exchange endpoint. */
async function startDeveloperSite(issuer: string): Promise<DeveloperSite> {
  const script = await (await fetch(`${issuer}/sdk/v1/service-sso.js`)).text();
  const integrity = `sha384-${createHash("sha384").update(script).digest("base64")}`;
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
  const head = `<meta charset="utf-8"><title>Trailhead</title><script src="${issuer}/sdk/v1/service-sso.js" integrity="${integrity}" crossorigin="anonymous"></script>`;
  const collect = `<script>window.__events=[];for(const n of ${JSON.stringify(EVENTS)})addEventListener(n,(e)=>__events.push({type:e.type,detail:e.detail}));</script>`;
  const html = (body: string) =>
    `<!doctype html><html lang="en"><head>${head}${collect}</head><body style="font-family:system-ui;padding:32px;color-scheme:light dark">${body}</body></html>`;

  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- node:http ignores the handler's promise; each branch answers itself
  server.on("request", async (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const send = (status: number, type: string, body: string) => res.writeHead(status, { "content-type": type }).end(body);
    if (url.pathname === "/") {
      return send(
        200,
        "text/html",
        html(`<h1>Trailhead</h1><service-sso-button client-id="${clientId}" redirect-uri="${redirectUri}" agent-name="Trailhead" width="300"></service-sso-button>`),
      );
    }
    if (url.pathname === "/setup") return send(200, "text/html", html(`<h1>Trailhead</h1><service-sso-button agent-name="Trailhead" width="340"></service-sso-button>`));
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
async function signInAsNewPerson(flow: Page) {
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

interface Recorded {
  type: string;
  detail: { state?: string; mode?: string; message?: string; result?: { sub: string; aud: string; hasAccessToken: boolean } };
}
/** The sign-in events the developer's page has heard, in order. */
const recorded = (page: Page) => page.evaluate(() => (window as unknown as { __events: Recorded[] }).__events);
const eventTypes = async (page: Page) => (await recorded(page)).map((e) => e.type);
const button = (page: Page) => page.getByRole("button", { name: "Sign in with Profile Service" });
const storedAttempts = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("service-sso:")));

/** Does what opens the sign-in (a click, a key) and returns the popup it opened, once on the hosted flow's first screen. */
async function openPopup(page: Page, act: () => Promise<void>): Promise<Page> {
  const popupOpened = page.context().waitForEvent("page");
  await act();
  const popup = await popupOpened;
  await expect(popup).toHaveURL(/\/flow\/[A-Za-z0-9]{32}$/);
  return popup;
}

/**
 * An attempt that ended in an error: the page heard start, open, error (with this message), close and
 * nothing else, the popup is gone, the attempt's verifier is deleted, and the button opens a new sign-in.
 */
async function expectFailedAttempt(page: Page, popup: Page, message: string) {
  await expect.poll(() => eventTypes(page)).toEqual(["service:sso-start", "service:sso-open", "service:sso-error", "service:sso-close"]);
  expect((await recorded(page))[2]!.detail.message).toBe(message);
  await expect.poll(() => popup.isClosed()).toBe(true);
  expect(await storedAttempts(page)).toEqual([]);
  await expect(button(page)).toHaveAttribute("aria-busy", "false");
  const again = await openPopup(page, () => button(page).click());
  await expect.poll(() => eventTypes(page)).toEqual(["service:sso-start", "service:sso-open", "service:sso-error", "service:sso-close", "service:sso-start", "service:sso-open"]);
  await again.close();
}

let site: DeveloperSite;
test.beforeAll(async ({ baseURL }) => {
  site = await startDeveloperSite(baseURL!);
});
test.afterAll(() => site.close());

test("the served script: JavaScript, open to any origin, immutable under its version", async ({ request }) => {
  const res = await request.get("/sdk/v1/service-sso.js");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("text/javascript; charset=utf-8");
  expect(res.headers()["access-control-allow-origin"]).toBe("*");
  const version = createHash("sha256")
    .update(await res.body())
    .digest("base64url")
    .slice(0, 16);
  const pinned = await request.get(`/sdk/v1/service-sso.js?v=${version}`);
  expect(pinned.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
});

test("a person signs in in the popup; the page's server exchanges the code; start, open, authenticated, close", async ({ page }) => {
  await page.goto(site.url);
  const popup = await openPopup(page, () => button(page).click());
  await signInAsNewPerson(popup);
  await expect.poll(() => popup.isClosed()).toBe(true);
  await expect.poll(() => eventTypes(page)).toEqual(["service:sso-start", "service:sso-open", "service:sso-authenticated", "service:sso-close"]);
  const events = await recorded(page);
  expect(events[1]!.detail.mode).toBe("popup");
  const result = events[2]!.detail.result!;
  expect(result.aud).toBe(site.clientId);
  expect(result.sub).toMatch(/^[0-9a-f-]{36}$/);
  expect(result.hasAccessToken).toBe(true);
  expect(JSON.stringify(events)).not.toMatch(/mcp_at_|access_token/);
  // The attempt's verifier is gone once used.
  expect(await storedAttempts(page)).toEqual([]);
  await expect(button(page)).toBeEnabled();
});

test("keyboard: Tab reaches the button with a visible focus ring, Enter opens the popup; closing it early is an error", async ({ page }) => {
  await page.goto(site.url);
  await page.keyboard.press("Tab");
  await expect(button(page)).toBeFocused();
  const ring = await button(page).evaluate((b) => getComputedStyle(b).outlineStyle + " " + getComputedStyle(b).outlineWidth);
  expect(ring).toBe("solid 3px");
  const popup = await openPopup(page, () => page.keyboard.press("Enter"));
  await popup.close();
  await expectFailedAttempt(page, popup, "The sign-in window was closed before sign-in finished.");
});

test("the person declines in the popup: the callback gets error=access_denied and the state, the page hears error and close", async ({ page }) => {
  await page.goto(site.url);
  const popup = await openPopup(page, () => button(page).click());
  const callback = popup.waitForRequest((r) => r.url().startsWith(`${site.url}/callback?`));
  await popup.getByRole("button", { name: "Cancel", exact: true }).click();
  const params = new URL((await callback).url()).searchParams;
  expect(params.get("error")).toBe("access_denied");
  expect(params.get("state")).toBe((await recorded(page))[0]!.detail.state);
  expect(params.has("code")).toBe(false);
  await expectFailedAttempt(page, popup, "Sign-in was cancelled.");
});

const failedExchanges = [
  {
    name: "the code was already used: the token endpoint refuses it, and the page's server answers 400 invalid_grant",
    // The page's server redeems the code, then redeems it again and answers with that second outcome.
    answer: async (route: Route) => {
      expect((await route.fetch()).status()).toBe(200);
      const replay = await route.fetch();
      expect(replay.status()).toBe(400);
      expect(await replay.json()).toEqual({ error: "invalid_grant" });
      await route.fulfill({ response: replay });
    },
    message: "Sign-in could not be finished (invalid_grant).",
  },
  {
    name: "the page's server fails with a 500 page that is not JSON",
    answer: (route: Route) => route.fulfill({ status: 500, contentType: "text/html", body: "<h1>Internal Server Error</h1>" }),
    message: "Sign-in could not be finished (exchange_failed).",
  },
];
for (const failure of failedExchanges) {
  test(`the exchange fails, ${failure.name}: the page hears error and close, never authenticated`, async ({ page, context }) => {
    await context.route(`${site.url}/exchange`, failure.answer);
    await page.goto(site.url);
    const popup = await openPopup(page, () => button(page).click());
    await signInAsNewPerson(popup);
    await expectFailedAttempt(page, popup, failure.message);
  });
}

test("without client-id and redirect-uri the button shows how to finish the setup", async ({ page }) => {
  await page.goto(`${site.url}/setup`);
  await expect(page.getByRole("note")).toContainText("Sign-in button needs setup");
  await expect(page.getByRole("note")).toContainText("client-id (oc_…) and redirect-uri");
  await expect(page.getByRole("button")).toHaveCount(0);
  await page.locator("service-sso-button").screenshot({ path: path.join(SHOTS, "sso-button-setup-light.png") });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.locator("service-sso-button").screenshot({ path: path.join(SHOTS, "sso-button-setup-dark.png") });
});

test("a blocked popup: the sign-in happens in the tab instead, and the callback page sees authenticated and close", async ({ page }) => {
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await page.goto(site.url);
  await button(page).click();
  await expect(page).toHaveURL(/\/flow\/[A-Za-z0-9]{32}$/);
  await signInAsNewPerson(page);
  await expect(page).toHaveURL(new RegExp(`^${site.url}/callback\\?`));
  await expect(page.locator("#status")).toHaveText("Signed in");
  await expect.poll(() => eventTypes(page)).toEqual(["service:sso-authenticated", "service:sso-close"]);
});

test("screenshots of the button, light and dark, at rest and focused", async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 200 });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(site.url);
    await page.evaluate((s) => (document.body.style.background = s === "dark" ? "#0b0f19" : "#ffffff"), scheme);
    const el = page.locator("service-sso-button");
    await expect(button(page)).toBeVisible();
    expect((await el.boundingBox())!.width).toBe(300);
    await el.screenshot({ path: path.join(SHOTS, `sso-button-${scheme}.png`) });
    await page.keyboard.press("Tab");
    await page.screenshot({ path: path.join(SHOTS, `sso-button-${scheme}-focus.png`) });
  }
});
