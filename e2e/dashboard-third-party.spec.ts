// Dashboard sign-in with Google and GitHub in Chromium, against the local providers the browser tests run
// (e2e/support/google-provider.mjs, e2e/support/github-provider.mjs): the developer presses the provider's
// button on /dashboard/sign-in, clicks through the provider's own pages, and comes back signed in to the
// dashboard as the address the provider verified (the first time, on the welcome page that names the
// account; the next time, on the overview), with no person's session set. An account whose address the
// provider does not vouch for is refused, with the reason on the sign-in page; so is a sign-in cancelled at
// the provider. Keyboard use, axe-core, screenshots at 360 px and on a desktop (e2e/screenshots).
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { noSeriousViolations, PHONE, shoot as shootPage, tabTo } from "./support/pages";

/** The password of the local GitHub's accounts (e2e/support/github-provider.mjs). */
const GITHUB_PASSWORD = "correct-horse-battery-staple";
const UNVERIFIED = "That account did not give a verified email address. Use the emailed code instead.";

test.use({ viewport: PHONE });

const shoot = (page: Page, name: string) => shootPage(page, `dashboard-third-party-${name}`);

/** Opens the dashboard signed out and presses the provider's button from the keyboard. */
async function startWith(page: Page, provider: "Google" | "GitHub") {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
  const button = page.getByRole("button", { name: `Continue with ${provider}`, exact: true });
  await tabTo(page, button);
  await page.keyboard.press("Enter");
}

/** Google's account chooser and consent, clicked through. */
async function atGoogle(page: Page, account: RegExp) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose an account");
  await page.getByRole("button", { name: account }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Profile Service wants to access your Google Account");
  await page.getByRole("button", { name: "Continue" }).click();
}

/** GitHub's sign-in page (when the browser has no GitHub session yet), then its authorization page, authorized or cancelled. */
async function atGitHub(page: Page, login: string, opts: { signIn: boolean; cancel?: boolean }) {
  if (opts.signIn) {
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to GitHub");
    await page.getByLabel("Username or email address").fill(login);
    await page.getByLabel("Password").fill(GITHUB_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
  }
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Authorize Profile Service");
  await page.getByRole("button", { name: opts.cancel ? "Cancel" : `Authorize ${login}` }).click();
}

async function cookieNames(context: BrowserContext): Promise<string[]> {
  return (await context.cookies()).map((c) => c.name);
}

/** Signed in to the dashboard, and to nothing else: the person's session cookie is not set. */
async function onlyTheDashboardSession(context: BrowserContext) {
  const names = await cookieNames(context);
  expect(names).toContain("dashboard.session-token");
  expect(names.filter((n) => /authjs\.session-token/.test(n))).toEqual([]);
}

/** The first sign-in: the welcome page names the address, the account is named, the overview follows. */
async function welcomeAndName(page: Page, email: string, accountName: string, shot?: string) {
  await expect(page).toHaveURL(/\/dashboard\/welcome$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Name your developer account");
  await expect(page.getByText(`Signed in as ${email}.`)).toBeVisible();
  await noSeriousViolations(page);
  if (shot) await shoot(page, shot);
  await expect(page.getByLabel("Account name")).toBeFocused();
  await page.keyboard.type(accountName);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(accountName);
}

/** Refused: back on the sign-in page with the reason, and signed in to nothing. */
async function refusedAsUnverified(page: Page) {
  await expect(page).toHaveURL(/\/dashboard\/sign-in\?error=unverified$/);
  // The page's own alert (Next.js's route announcer is an alert too, an empty one).
  const alert = page.getByRole("alert").filter({ hasText: /\S/ });
  await expect(alert).toHaveText(UNVERIFIED);
  await expect(alert).toBeVisible();
  expect((await cookieNames(page.context())).filter((n) => /session-token/.test(n))).toEqual([]);
  // Nothing signed in: the dashboard still sends the browser to sign in.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
}

test("the sign-in page offers Google and GitHub beside the e-mailed code, from the keyboard", async ({ page }) => {
  await page.goto("/dashboard/sign-in");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to the developer dashboard");
  await expect(page.getByText("Or continue with")).toBeVisible();
  const google = page.getByRole("button", { name: "Continue with Google", exact: true });
  const github = page.getByRole("button", { name: "Continue with GitHub", exact: true });
  await expect(google).toBeVisible();
  await expect(github).toBeVisible();
  // The address field first, then its button, then the providers in the order offered.
  await expect(page.getByLabel("Work email")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Email me a code" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(google).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(github).toBeFocused();
  await noSeriousViolations(page);
  await shoot(page, "01-sign-in");
});

test("Google: the verified address signs in to the dashboard, the welcome page first; no person's session is set", async ({ page, context }) => {
  await startWith(page, "Google");
  await atGoogle(page, /Grace Hopper/);
  await welcomeAndName(page, "grace.hopper@example.com", "Hopper Labs", "02-google-welcome");
  await onlyTheDashboardSession(context);
  await shoot(page, "03-google-overview");

  // Signed out and in again: Google has the account and the consent already, and the overview follows.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
  expect(await cookieNames(context)).not.toContain("dashboard.session-token");
  await startWith(page, "Google");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hopper Labs");
  await onlyTheDashboardSession(context);
});

test("Google: an account without a verified address is refused, with the reason", async ({ page }) => {
  await startWith(page, "Google");
  await atGoogle(page, /Mallory Unverified/);
  await expect(page).toHaveURL(/\/dashboard\/sign-in\?error=unverified$/);
  await noSeriousViolations(page);
  await shoot(page, "04-google-unverified");
  await refusedAsUnverified(page);
});

test("GitHub: the verified primary address signs in to the dashboard, the welcome page first; no person's session is set", async ({ page, context }) => {
  await startWith(page, "GitHub");
  await atGitHub(page, "ada", { signIn: true });
  // The primary address GitHub verified, not the profile's public one.
  await welcomeAndName(page, "ada.lovelace@example.com", "Analytical Engines");
  await onlyTheDashboardSession(context);

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
  await startWith(page, "GitHub");
  await atGitHub(page, "ada", { signIn: false });
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Analytical Engines");
  await onlyTheDashboardSession(context);
});

test("GitHub: an account whose primary address is not verified is refused, with the reason", async ({ page }) => {
  await startWith(page, "GitHub");
  await atGitHub(page, "eve", { signIn: true });
  await refusedAsUnverified(page);
});

test("GitHub: cancelling at GitHub comes back to the sign-in page with a message, signed in to nothing", async ({ page }) => {
  await startWith(page, "GitHub");
  await atGitHub(page, "ada", { signIn: true, cancel: true });
  // GitHub sends error=access_denied back to the callback; next-auth names it OAuthCallbackError.
  await expect(page).toHaveURL(/\/dashboard\/sign-in\?error=OAuthCallbackError$/);
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveText("Sign-in with that provider did not finish. Try again, or use the emailed code.");
  expect((await cookieNames(page.context())).filter((n) => /session-token/.test(n))).toEqual([]);
});
