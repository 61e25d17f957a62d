// The screen gallery (/dev/screens): every hosted flow screen in each of its states, the person's pages
// and the developer dashboard, drawn from fixtures, screenshotted at four widths and compared with the
// baselines in e2e/screens/chromium-<major>/; axe-core checks each at 390 and 1280 px.
// A change to a screen shows up here as a changed image in review. To accept intended changes:
//   npx playwright test e2e/screens.spec.ts --update-snapshots
import { expect, test } from "@playwright/test";
import { noSeriousViolations } from "./support/pages";
import { virtualAuthenticator } from "./support/passkeys";

/** Every state the gallery shows, in its order; the first test holds the two lists together. */
const STATES = [
  "import",
  "import-required",
  "import-prompt",
  "import-preview",
  "import-ready",
  "import-signed-in",
  "import-link",
  "phone",
  "phone-sign-in",
  "phone-passkey",
  "phone-link",
  "code",
  "code-sandbox",
  "code-outbox",
  "code-link",
  "mailbox-required",
  "mailbox-either",
  "mailbox-connected",
  "mailbox-offered",
  "mailbox-code-sent",
  "mailbox-verify-error",
  "app-required",
  "app-connected",
  "apps",
  "capability",
  "capability-read",
  "receipt",
  "receipt-passkey",
  "receipt-nothing-new",
  "receipt-messages",
  "receipt-own",
  "ended-unknown",
  "ended-foreign",
  "ended-finished",
  "ended-expired",
  // The person's pages (components/account/gallery.tsx).
  "account",
  "account-new",
  "account-passkeys",
  "account-memories",
  "account-delete",
  "account-deleted",
  "account-signed-out",
  "page-unavailable",
  // The developer dashboard (components/dashboard/gallery.tsx).
  "dashboard-overview",
  "dashboard-overview-new",
  "dashboard-keys",
  "dashboard-agents",
  "dashboard-origins",
  "dashboard-sso",
  "dashboard-sign-in-links",
  "dashboard-imports",
  "dashboard-webhooks",
  "dashboard-webhooks-empty",
  "dashboard-usage",
  "dashboard-requests",
  "dashboard-requests-found",
  "dashboard-requests-empty",
  "dashboard-members",
  "dashboard-sign-in",
  "dashboard-sign-in-error",
  "dashboard-sign-in-code",
  "dashboard-sign-in-code-outbox",
  "dashboard-sign-in-link",
  "dashboard-welcome",
  "dashboard-invite",
  "dashboard-invite-signed-out",
];
const WIDTHS = [360, 390, 768, 1280] as const;
const AXE_WIDTHS = [390, 1280] as const;
// Countdowns (a new code, the automatic return) stay where they start: the clock does not move.
const FROZEN_AT = new Date("2026-03-04T10:00:00Z");

test("the gallery lists every state, and each opens", async ({ page }) => {
  await page.goto("/dev/screens");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Screen gallery");
  expect(await page.getByTestId("gallery-state").allTextContents()).toEqual(STATES);
  const unknown = await page.request.get("/dev/screens/no-such-state");
  expect(unknown.status()).toBe(404);
});

for (const state of STATES) {
  test(`screen ${state} at ${WIDTHS.join(", ")} px`, async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    page.on("pageerror", (e) => problems.push(e.message));
    await page.clock.install({ time: FROZEN_AT });
    await page.clock.pauseAt(new Date(FROZEN_AT.getTime() + 60_000));
    // One load per state, then the window resized: the layouts answer to the width alone (CSS, and the
    // menu's media query), and a load costs several times what a resize and a screenshot do together.
    await page.setViewportSize({ width: WIDTHS[0], height: 800 });
    // The passkey offer is made only where a platform authenticator exists: this state's device has one.
    if (state === "receipt-passkey") await virtualAuthenticator(page);
    await page.goto(`/dev/screens/${state}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    for (const width of WIDTHS) {
      // The comparison with the baseline retries until the page matches it: a layout still settling
      // after the resize is waited out there, not by a check of its own.
      await page.setViewportSize({ width, height: 800 });
      // A tall page at 1280 px takes a loaded machine more than the default 5 s to shoot twice alike.
      await expect(page).toHaveScreenshot(`${state}-${width}.png`, { fullPage: true, timeout: 20_000 });
    }
    // axe-core at a phone's width and a desktop's: no state ships with a serious or critical violation.
    // It waits on timers of its own, so the clock runs again first. A receipt would then return to the
    // app by itself, leaving the page under axe: "Stay here" keeps it, as a person would.
    const stay = page.getByRole("button", { name: "Stay here" });
    if (await stay.count()) await stay.click();
    await page.clock.resume();
    for (const width of AXE_WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await noSeriousViolations(page);
    }
    expect(problems).toEqual([]);
  });
}
