// The developer dashboard in Chromium: a new developer signs up with the code e-mailed to them (read
// from the development outbox), names the account, creates a live secret key (its secret shown once),
// calls GET /v1/agents with it, creates an agent and approves an origin, rotates the key (both keys
// work during the overlap), and invites a teammate. Every page: reached from the keyboard, no serious
// or critical axe-core violation, screenshots at 360 px and on a desktop (e2e/screenshots).
import { expect, test, type Page } from "@playwright/test";
import { codeFromEmailOutbox } from "./support/dashboard";
import { noSeriousViolations, PHONE, shoot as shootPage, tabTo } from "./support/pages";

test.use({ viewport: PHONE });

const shoot = (page: Page, name: string) => shootPage(page, `dashboard-${name}`);

test("a new developer signs up with an e-mailed code, creates keys, an agent and an origin, and calls the API", async ({ page, request }) => {
  // A whole journey of a dozen pages, each checked by axe-core and screenshotted: longer than one test's default.
  test.setTimeout(240_000);
  const email = `dev-${Date.now()}@example.com`;

  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in to the developer dashboard");
  await noSeriousViolations(page);
  await shoot(page, "01-sign-in");

  // The address field has the focus; Enter sends the code.
  await expect(page.getByLabel("Work email")).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enter your code");
  await expect(page.getByText(email)).toBeVisible();
  await noSeriousViolations(page);
  await shoot(page, "02-code");

  const { code } = await codeFromEmailOutbox(page, email);
  await page.getByLabel("Six-digit code").fill(code === "000000" ? "111111" : "000000");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("form-error")).toHaveText("That code is not right. Check the email and try again.");
  await shoot(page, "03-code-error");
  await page.getByLabel("Six-digit code").fill(code);
  await page.keyboard.press("Enter");

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Name your developer account");
  await noSeriousViolations(page);
  await shoot(page, "04-welcome");
  await page.keyboard.type("Lighthouse Labs");
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lighthouse Labs");
  await noSeriousViolations(page);
  await shoot(page, "05-overview");

  // API keys, reached with Tab and Enter.
  await page.goto("/dashboard");
  await tabTo(page, page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "API keys" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API keys");
  await noSeriousViolations(page);
  await shoot(page, "06-keys-empty");
  await page.getByLabel("Kind").selectOption("secret");
  await page.getByLabel("Plane").selectOption("live");
  await page.getByLabel("Name (optional)").fill("Server");
  await page.getByLabel("Name (optional)").press("Enter");
  const secret = await page.getByTestId("secret-value").innerText();
  expect(secret).toMatch(/^sk_[A-Za-z0-9]{32}$/);
  await expect(page.getByTestId("live-keys").getByTestId("key-row")).toHaveCount(1);
  await noSeriousViolations(page);
  await shoot(page, "07-key-created");

  // Shown once: a new visit to the page does not show it.
  await page.reload();
  await expect(page.getByTestId("live-keys").getByTestId("key-row")).toHaveCount(1);
  expect(await page.content()).not.toContain(secret);

  const agentsBefore = await request.get("/v1/agents", { headers: { "x-api-key": secret } });
  expect(agentsBefore.status()).toBe(200);
  expect((await agentsBefore.json()).agents).toEqual([]);

  // An agent.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Agents" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Agents");
  await page.getByLabel("Handle").fill(`lighthouse-${Date.now().toString(36)}`);
  await page.getByLabel("Display name (optional)").fill("Lighthouse");
  await page.getByRole("button", { name: "Create agent" }).click();
  await expect(page.getByTestId("agent-row")).toHaveCount(1);
  const signInUrl = await page.getByTestId("sign-in-url").innerText();
  // The edit form opens from the keyboard.
  await tabTo(page, page.getByText(/^Edit lighthouse-/));
  await page.keyboard.press("Enter");
  await page.getByLabel("Brand colour (#rrggbb, optional)").fill("#0f766e");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(/Agent lighthouse-\S+ saved\./)).toBeVisible();
  await noSeriousViolations(page);
  await shoot(page, "08-agents");

  const agents = await request.get("/v1/agents", { headers: { "x-api-key": secret } });
  expect(agents.status()).toBe(200);
  const listed = (await agents.json()).agents as Array<{ handle: string; display_name: string; brand_color: string; sign_in_url: string }>;
  expect(listed).toHaveLength(1);
  expect(listed[0]).toMatchObject({ display_name: "Lighthouse", brand_color: "#0f766e", sign_in_url: signInUrl });

  // An origin.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Origins" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Approved origins");
  await page.getByRole("textbox", { name: "Origin" }).fill("http://app.example.com");
  await page.getByRole("textbox", { name: "Origin" }).press("Enter");
  await expect(page.getByTestId("form-error")).toHaveText("origin must be an https origin (or localhost)");
  await page.getByRole("textbox", { name: "Origin" }).fill("https://app.example.com");
  await page.getByRole("textbox", { name: "Origin" }).press("Enter");
  await expect(page.getByTestId("origin-row")).toHaveText(/https:\/\/app\.example\.com/);
  await noSeriousViolations(page);
  await shoot(page, "09-origins");

  // An SSO client on the approved origin: confidential, its secret shown once.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "SSO clients" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("SSO clients");
  await page.getByLabel("Plane").selectOption("live");
  await page.getByLabel("Type").selectOption("client_secret_post");
  await page.getByLabel("Callback URL").fill("https://app.example.com/auth/callback");
  await page.getByRole("button", { name: "Create client" }).click();
  await expect(page.getByTestId("client-row")).toHaveCount(1);
  expect(await page.getByTestId("secret-value").innerText()).toMatch(/^ocs_[A-Za-z0-9]{40}$/);
  await page.getByLabel(/^New callback URL/).fill("http://localhost:4321/callback");
  await page.getByRole("button", { name: "Add callback" }).click();
  await expect(page.getByRole("button", { name: "Remove http://localhost:4321/callback" })).toBeVisible();
  await noSeriousViolations(page);
  await shoot(page, "09b-sso-clients");

  // Sign-in links: a message line registered over the API shows by its last four digits; a return destination.
  const line = await request.post("/v1/auth/sign-in/message-lines", {
    headers: { "x-api-key": secret, "x-agent": listed[0]!.handle },
    data: { channel: "sms", phone: "+14155550123", label: "Support" },
  });
  expect(line.status()).toBe(201);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Sign-in links" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign-in links");
  await expect(page.getByTestId("line-row")).toContainText("number ending in 0123");
  await page.getByRole("textbox", { name: /^Destination/ }).fill("https://app.example.com/signed-in");
  await page.getByRole("button", { name: "Add destination" }).click();
  await expect(page.getByTestId("destination-row")).toContainText("https://app.example.com/signed-in");
  expect(await page.content()).not.toContain("5550123");
  await noSeriousViolations(page);
  await shoot(page, "09c-sign-in-links");

  // Rotation: the new key is shown once, and both keys work during the overlap.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "API keys" }).click();
  await page.getByRole("button", { name: /^Rotate key sk_/ }).click();
  await expect(page.getByText(/The old key keeps working until .* UTC, then stops\./)).toBeVisible();
  const rotated = await page.getByTestId("secret-value").innerText();
  expect(rotated).toMatch(/^sk_[A-Za-z0-9]{32}$/);
  expect(rotated).not.toBe(secret);
  await expect(page.getByText(/Rotated · works until/)).toBeVisible();
  await noSeriousViolations(page);
  await shoot(page, "10-key-rotated");
  for (const key of [secret, rotated]) expect((await request.get("/v1/agents", { headers: { "x-api-key": key } })).status()).toBe(200);

  // Revoking the old key ends it at once.
  const oldRow = page.getByTestId("live-keys").getByTestId("key-row").first();
  await oldRow.locator("summary").click();
  await expect(oldRow.getByText("The key stops working at once")).toBeVisible();
  await shoot(page, "10b-key-revoke-confirm");
  await oldRow.getByRole("button", { name: /^Revoke now key/ }).click();
  await expect(page.getByText(/^Revoked /)).toBeVisible();
  expect((await request.get("/v1/agents", { headers: { "x-api-key": secret } })).status()).toBe(401);
  expect((await request.get("/v1/agents", { headers: { "x-api-key": rotated } })).status()).toBe(200);

  // Members: the owner invites a teammate.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Members" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Members");
  await page.getByRole("textbox", { name: "Email", exact: true }).fill(`mate-${Date.now()}@example.com`);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(/^Invitation sent to mate-/)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Pending invitations" })).toBeVisible();
  await noSeriousViolations(page);
  await shoot(page, "11-members");
});

test("the e-mailed link signs in with one click, once", async ({ page, browser }) => {
  const email = `link-${Date.now()}@example.com`;
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Work email").fill(email);
  await page.getByRole("button", { name: "Email me a code" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enter your code");
  const { link } = await codeFromEmailOutbox(page, email);

  const other = await browser.newContext({ viewport: { width: 360, height: 780 } });
  const tab = await other.newPage();
  await tab.goto(link);
  await expect(tab.getByText(`Sign in as ${email}.`)).toBeVisible();
  await noSeriousViolations(tab);
  await shoot(tab, "12-link");
  await tab.getByRole("button", { name: "Sign in" }).click();
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText("Name your developer account");

  // The same link again, in another browser: the code was used.
  const again = await (await browser.newContext()).newPage();
  await again.goto(link);
  await again.getByRole("button", { name: "Sign in" }).click();
  await expect(again.getByTestId("form-error")).toHaveText("This code has expired or was already used. Send a new one.");
  await other.close();
});

async function signUp(page: Page, email: string, accountName: string) {
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Work email").fill(email);
  await page.getByRole("button", { name: "Email me a code" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enter your code");
  await page.getByLabel("Six-digit code").fill((await codeFromEmailOutbox(page, email)).code);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Name your developer account");
  await page.getByLabel("Account name").fill(accountName);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(accountName);
}

test("an invited teammate accepts, switches between accounts, and cannot manage members", async ({ page, browser }) => {
  const stamp = Date.now();
  const ownerEmail = `owner-${stamp}@example.com`;
  const mateEmail = `mate-${stamp}@example.com`;
  await signUp(page, ownerEmail, "Harbour Co");
  await page.goto("/dashboard/members");
  await page.getByRole("textbox", { name: "Email", exact: true }).fill(mateEmail);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${mateEmail}.`)).toBeVisible();

  const mateContext = await browser.newContext({ viewport: { width: 360, height: 780 } });
  const mate = await mateContext.newPage();
  await signUp(mate, mateEmail, "Mate's Own");
  await mate.goto("/dev/email-outbox");
  const inviteText = await mate.getByTestId("email-message").filter({ hasText: "You are invited to Harbour Co" }).first().innerText();
  const invite = inviteText.match(/https?:\/\/\S+\/dashboard\/invite\?token=[A-Za-z0-9]+/)![0];
  await mate.goto(invite);
  await expect(mate.getByRole("heading", { level: 1 })).toHaveText("Join Harbour Co");
  await noSeriousViolations(mate);
  await shoot(mate, "13-invite");
  await mate.getByRole("button", { name: "Accept invitation" }).click();

  // Two accounts: the switcher in the header, usable from the keyboard.
  await expect(mate.getByRole("heading", { level: 1 })).toHaveText("Harbour Co");
  const account = mate.getByRole("combobox", { name: "Account" });
  await expect(account).toBeVisible();
  await noSeriousViolations(mate);
  await shoot(mate, "14-switcher");
  await tabTo(mate, account);
  await account.selectOption({ label: "Mate's Own (owner)" });
  await mate.keyboard.press("Tab");
  await mate.keyboard.press("Enter");
  await expect(mate.getByRole("heading", { level: 1 })).toHaveText("Mate's Own");
  await account.selectOption({ label: "Harbour Co (member)" });
  await mate.getByRole("button", { name: "Switch" }).click();
  await expect(mate.getByRole("heading", { level: 1 })).toHaveText("Harbour Co");

  // A member sees the members, and no way to manage them.
  await mate.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Members" }).click();
  await expect(mate.getByTestId("member-row")).toHaveCount(2);
  await expect(mate.getByRole("button", { name: /Remove|Make owner|Make member|Send invitation/ })).toHaveCount(0);
  await noSeriousViolations(mate);
  await shoot(mate, "15-members-as-member");

  // Sign out ends the dashboard session only.
  await mate.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(mate).toHaveURL(/\/dashboard\/sign-in$/);
  await mate.goto("/dashboard/keys");
  await expect(mate).toHaveURL(/\/dashboard\/sign-in$/);
  expect((await mateContext.cookies()).map((c) => c.name)).not.toContain("dashboard.session-token");
  await mateContext.close();
});
