// The sign-in button on a developer's own page, in Chromium against the production server: the page
// loads {BASE_URL}/sdk/v1/service-sso.js with its integrity value, the person signs in in the popup,
// the popup's callback page sends the code to the page's own server, which exchanges it at
// POST /oauth/token; the page sees start, open, authenticated, close. Also the attempts that end in
// start, open, error, close with the button usable again: the popup closed early, the person declining
// (Cancel: error=access_denied on the callback), and the developer's server failing the exchange (a code
// already used, a 500). And: the setup notice, keyboard use and focus ring, a blocked popup (full-page
// sign-in instead), and screenshots of the button light and dark (e2e/screenshots/sso-button-*.png).
import { createHash } from "node:crypto";
import { expect, test, type Page, type Route } from "@playwright/test";
import { reviewShot } from "./support/pages";
import { button, eventTypes, openPopup, recorded, signInAsNewPerson, startDeveloperSite, storedAttempts, type DeveloperSite } from "./support/sso-site";

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
  await reviewShot(page.locator("service-sso-button"), "sso-button-setup-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await reviewShot(page.locator("service-sso-button"), "sso-button-setup-dark");
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

test("the button, light and dark, at rest and focused: 300 px wide; screenshots for review", async ({ page }) => {
  await page.setViewportSize({ width: 420, height: 200 });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(site.url);
    await page.evaluate((s) => (document.body.style.background = s === "dark" ? "#0b0f19" : "#ffffff"), scheme);
    const el = page.locator("service-sso-button");
    await expect(button(page)).toBeVisible();
    expect((await el.boundingBox())!.width).toBe(300);
    await reviewShot(el, `sso-button-${scheme}`);
    await page.keyboard.press("Tab");
    await reviewShot(page, `sso-button-${scheme}-focus`, { fullPage: false });
  }
});
