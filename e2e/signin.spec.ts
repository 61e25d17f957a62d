// Sign-in end to end in Chromium: a relying party using openid-client starts it; the person imports
// a pasted memory list, enters a number and the code from the development outbox, reaches the
// receipt and returns; the relying party checks the ID token and reads the profile with the access
// token. Also the sandbox user with 424242, Sign in for an existing account, a decline, an expired
// flow — with screenshots of every screen at 360 px and on a desktop (e2e/screenshots).
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { shoot } from "./support/pages";
import { startRelyingParty, type RelyingParty } from "./support/rp";

const seed = JSON.parse(readFileSync(`${process.env.E2E_DATA_DIR}-seed.json`, "utf8")) as { secret_key: string; publishable_key: string; agent: string; agent_name: string };
const MEMORY_LIST = ["[2024-03-05] - I live in Lisbon", "[2024-04-01] - I'm vegetarian", "- I love trail running"].join("\n");

test.use({ viewport: { width: 360, height: 780 } });

function freshPhone(): { e164: string; national: string } {
  const line = String(2000 + Math.floor(Math.random() * 7000));
  return { e164: `+1415555${line}`, national: `415 555 ${line}` };
}

async function codeFromOutbox(page: Page, last4: string): Promise<string> {
  const outbox = await page.context().newPage();
  await outbox.goto("/dev/outbox");
  const message = outbox
    .getByTestId("outbox-message")
    .filter({ has: outbox.getByTestId("outbox-last4").getByText(last4, { exact: true }) })
    .first();
  const body = await message.getByTestId("outbox-body").innerText();
  await outbox.close();
  return body.match(/^(\d{6}) is your Profile Service sign-in code/)![1]!;
}

async function importPastedList(page: Page, opts: { shots?: boolean } = {}) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  await expect(page.getByRole("button", { name: "Continue", exact: true })).toBeDisabled();
  if (opts.shots) await shoot(page, "01-import");
  await page.getByRole("link", { name: /ChatGPT/ }).click();
  await expect(page.getByText("Ask ChatGPT for its memories of you")).toBeVisible();
  if (opts.shots) await shoot(page, "02-import-chatgpt");
  await page.getByLabel("Paste ChatGPT’s answer").fill(MEMORY_LIST);
  await page.getByRole("button", { name: "Preview memories" }).click();
  await expect(page.getByText("3 memories from ChatGPT will be saved")).toBeVisible();
  await expect(page.getByText("I live in Lisbon")).toBeVisible();
  if (opts.shots) await shoot(page, "03-import-preview");
  await page.getByRole("button", { name: "Keep 3 memories" }).click();
  await expect(page.getByText("✓ 3 memories")).toBeVisible();
  await expect(page.getByRole("button", { name: "Continue", exact: true })).toBeEnabled();
  if (opts.shots) await shoot(page, "04-import-ready");
  await page.getByRole("button", { name: "Continue", exact: true }).click();
}

async function phoneAndCode(page: Page, phone: { e164: string; national: string }, opts: { shots?: boolean; code?: string; codeShot?: string } = {}) {
  await expect(page.getByLabel("Mobile number")).toBeVisible();
  await page.getByLabel("Country").selectOption("US");
  if (opts.shots) {
    await page.getByRole("button", { name: "Text me a code" }).click();
    await expect(page.locator("#phone-error")).toHaveText("Enter your mobile number.");
    await expect(page.getByLabel("Mobile number")).toHaveAttribute("aria-invalid", "true");
    await shoot(page, "05-phone-error");
  }
  await page.getByLabel("Mobile number").fill(phone.national);
  if (opts.shots) await shoot(page, "06-phone");
  await page.getByRole("button", { name: "Text me a code" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enter the code");
  await expect(page.getByText(phone.e164.slice(-4), { exact: true })).toBeVisible();
  if (opts.codeShot) await shoot(page, opts.codeShot);
  const input = page.getByLabel("Six-digit code");
  await expect(input).toHaveAttribute("autocomplete", "one-time-code");
  await expect(input).toHaveAttribute("inputmode", "numeric");
  if (opts.shots) {
    await input.fill("000000");
    await expect(page.locator("#code-error")).toContainText("That code is not right");
    await shoot(page, "07-code-error");
  }
  const code = opts.code ?? (await codeFromOutbox(page, phone.e164.slice(-4)));
  // Pasting the whole code sends it.
  await input.fill("");
  await input.focus();
  await page.evaluate((c) => {
    const el = document.getElementById("code") as HTMLInputElement;
    el.value = c;
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, code);
}

/** The client asked for email and a new account has no verified address: the mailbox is offered, and skipped. */
async function skipOfferedMailbox(page: Page, opts: { shots?: boolean } = {}) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add your mailbox");
  if (opts.shots) await shoot(page, "08-mailbox-offered");
  await page.getByRole("button", { name: "Not now" }).click();
}

async function receiptAndReturn(page: Page, rp: RelyingParty, opts: { shots?: boolean; saved?: string } = {}) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
  if (opts.saved) await expect(page.getByText(opts.saved)).toBeVisible();
  if (opts.shots) {
    await page.getByRole("button", { name: "Stay here" }).click();
    await shoot(page, "09-receipt");
  }
  await page.getByRole("button", { name: `Return to ${seed.agent_name}` }).click();
  await expect(page).toHaveURL(new RegExp(`^${rp.url}/callback\\?`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signed in");
}

let rp: RelyingParty;
test.beforeAll(async ({ baseURL }) => {
  rp = await startRelyingParty({ issuer: baseURL!, publishableKey: seed.publishable_key, secretKey: seed.secret_key, agent: seed.agent });
});
test.afterAll(() => rp.close());

test("a new person signs in: import, phone, code from the outbox, receipt, and the relying party reads the profile", async ({ page }) => {
  await page.goto(`${rp.url}/login`);
  await expect(page).toHaveURL(/\/flow\/[A-Za-z0-9]{32}$/);
  await importPastedList(page, { shots: true });
  await phoneAndCode(page, freshPhone(), { shots: true });
  await skipOfferedMailbox(page, { shots: true });
  await receiptAndReturn(page, rp, { shots: true, saved: "3 memories" });

  expect(await page.getByTestId("aud").innerText()).toBe(rp.clientId);
  expect(await page.getByTestId("sub").innerText()).toMatch(/^[0-9a-f-]{36}$/);
  expect(await page.getByTestId("profile-status").innerText()).toBe("200");
  const profile = JSON.parse(await page.getByTestId("profile").innerText());
  expect(JSON.stringify(profile)).toContain("Lisbon");
  expect(await page.getByTestId("search-status").innerText()).toBe("200");
  expect(await page.getByTestId("search").innerText()).toContain("Lives in Lisbon");
});

test("a slow return is sent once: neither the countdown nor a second click sends it again", async ({ page }) => {
  await page.goto(`${rp.url}/login`);
  await importPastedList(page);
  await phoneAndCode(page, freshPhone());
  await skipOfferedMailbox(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
  // The service answers the return slower than the countdown runs out.
  let posts = 0;
  await page.route("**/flow/*/return", async (route) => {
    posts++;
    await new Promise((r) => setTimeout(r, 7_000));
    await route.continue();
  });
  const button = page.getByRole("button", { name: `Return to ${seed.agent_name}` });
  await button.click({ noWaitAfter: true });
  await button.click({ noWaitAfter: true, timeout: 1_000 }).catch(() => undefined);
  await expect(page).toHaveURL(new RegExp(`^${rp.url}/callback\\?`), { timeout: 20_000 });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signed in");
  expect(posts).toBe(1);
});

test("Sign in for an existing account: phone and code first, then the import screen, signed in", async ({ page }) => {
  const phone = freshPhone();
  await page.goto(`${rp.url}/login`);
  await importPastedList(page);
  await phoneAndCode(page, phone);
  await skipOfferedMailbox(page);
  await receiptAndReturn(page, rp);
  const sub = await page.getByTestId("sub").innerText();

  await page.context().clearCookies();
  await page.goto(`${rp.url}/login`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in with your phone");
  await shoot(page, "10-sign-in-phone");
  await phoneAndCode(page, phone);
  await expect(page.getByText("You’re signed in.")).toBeVisible();
  await expect(page.getByRole("button", { name: `Continue to ${seed.agent_name}` })).toBeEnabled();
  await shoot(page, "11-import-signed-in");
  await page.getByRole("button", { name: `Continue to ${seed.agent_name}` }).click();
  await receiptAndReturn(page, rp, { saved: undefined });
  expect(await page.getByTestId("sub").innerText()).toBe(sub);
});

test("the sandbox user signs in with 424242", async ({ page, request, baseURL }) => {
  const sandbox = await (await request.post("/v1/sandbox/provision")).json();
  const sandboxRp = await startRelyingParty({ issuer: baseURL!, publishableKey: sandbox.publishable_key, secretKey: sandbox.secret_key, agent: sandbox.agent.handle });
  try {
    await page.goto(`${sandboxRp.url}/login`);
    await page.getByRole("button", { name: "Sign in" }).click();
    // Another number on the test plane gets a real code: the page does not offer it the sandbox's.
    const other = freshPhone();
    await page.getByLabel("Country").selectOption("US");
    await page.getByLabel("Mobile number").fill(other.national);
    await page.getByRole("button", { name: "Text me a code" }).click();
    await expect(page.getByText(other.e164.slice(-4), { exact: true })).toBeVisible();
    await expect(page.getByText("takes the code 424242")).toHaveCount(0);
    await page.getByRole("button", { name: "Use a different number" }).click();
    await page.getByLabel("Mobile number").fill(sandbox.user.phone);
    await page.getByRole("button", { name: "Text me a code" }).click();
    await expect(page.getByText("The sandbox's number takes the code 424242.")).toBeVisible();
    // Six digits typed send the code at once.
    await page.getByLabel("Six-digit code").fill("424242");
    await expect(page.getByRole("button", { name: /^Continue to / })).toBeEnabled();
    await page.getByRole("button", { name: /^Continue to / }).click();
    await page.getByRole("button", { name: /^Return to / }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signed in");
    expect(await page.getByTestId("sub").innerText()).toBe(sandbox.user.id);
    expect(await page.getByTestId("profile").innerText()).toContain("Lisbon");
  } finally {
    await sandboxRp.close();
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the whole sign-in still works: forms post, errors show, the receipt's button returns", async ({ page }) => {
    const phone = freshPhone();
    await page.goto(`${rp.url}/login`);
    await page.getByRole("link", { name: /ChatGPT/ }).click();
    await page.getByLabel("Paste ChatGPT’s answer").fill(MEMORY_LIST);
    await page.getByRole("button", { name: "Preview memories" }).click();
    await page.getByRole("button", { name: "Keep 3 memories" }).click();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("button", { name: "Text me a code" }).click();
    await expect(page.locator("#phone-error")).toHaveText("Enter your mobile number.");
    await page.getByLabel("Mobile number").fill(phone.national);
    await page.getByRole("button", { name: "Text me a code" }).click();
    const code = await codeFromOutbox(page, phone.e164.slice(-4));
    await page.getByLabel("Six-digit code").fill(code);
    await page.getByRole("button", { name: "Confirm" }).click();
    await skipOfferedMailbox(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
    await page.getByRole("button", { name: `Return to ${seed.agent_name}` }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signed in");
    expect(await page.getByTestId("profile-status").innerText()).toBe("200");
  });
});

test("an export file uploads into a preview", async ({ page }) => {
  await page.goto(`${rp.url}/login`);
  await page.getByRole("link", { name: /Claude/ }).click();
  await page.getByLabel(/Or upload conversations\.json from your Claude export/).setInputFiles("tests/fixtures/exports/claude-conversations.json");
  await page.getByRole("button", { name: "Preview memories" }).click();
  await expect(page.getByText(/memor(y|ies) from Claude will be saved/)).toBeVisible();
  await page.getByRole("button", { name: /^Keep \d+ memor/ }).click();
  await expect(page.getByRole("button", { name: "Continue", exact: true })).toBeEnabled();
});

test("a person who cancels returns access_denied to the app", async ({ page }) => {
  await page.goto(`${rp.url}/login`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(new RegExp(`^${rp.url}/callback\\?error=access_denied&state=`));
  await expect(page.getByTestId("error")).toHaveText("access_denied");
  await expect(page.getByTestId("state-known")).toHaveText("yes");
});

test("a required mailbox comes first: Gmail is connected at its provider, and the ID token's email is verified by it", async ({ page, baseURL }) => {
  const mailboxRp = await startRelyingParty({ issuer: baseURL!, publishableKey: seed.publishable_key, secretKey: seed.secret_key, agent: seed.agent, required: "gmail" });
  try {
    await page.goto(`${mailboxRp.url}/login`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${seed.agent_name} asks for your mailbox`);
    await expect(page.getByRole("listitem").filter({ hasText: "Outlook" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Continue", exact: true })).toBeDisabled();
    await shoot(page, "12-mailbox-required");
    await page.getByRole("link", { name: /Gmail/ }).click();
    // The provider signs the account in and sends the browser back.
    await expect(page.getByRole("listitem").filter({ hasText: "Gmail" })).toContainText("grace.hopper@example.com");
    await expect(page.getByRole("listitem").filter({ hasText: "Gmail" })).toContainText("✓ Connected");
    await shoot(page, "13-mailbox-connected");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
    await expect(page.getByRole("button", { name: "Continue", exact: true })).toBeEnabled();
    await shoot(page, "14-import-with-gmail");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await phoneAndCode(page, freshPhone());
    await expect(page.getByText("Gmail", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: `Return to ${seed.agent_name}` }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signed in");
    await expect(page.getByTestId("email")).toHaveText("grace.hopper@example.com");
    await expect(page.getByTestId("email-verified")).toHaveText("true");
  } finally {
    await mailboxRp.close();
  }
});

test("the mailbox page's Google sign-in proves the address: the sign-in ends and the ID token's email is verified", async ({ page }) => {
  await page.goto(`${rp.url}/login`);
  await importPastedList(page);
  await phoneAndCode(page, freshPhone());
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add your mailbox");
  await expect(page.getByRole("heading", { name: "Or confirm it by signing in" })).toBeVisible();
  await shoot(page, "19-mailbox-sign-in-offered");
  // The provider signs the account in at once and sends the browser back through next-auth.
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await receiptAndReturn(page, rp);
  await expect(page.getByTestId("email")).toHaveText("grace.hopper@example.com");
  await expect(page.getByTestId("email-verified")).toHaveText("true");
});

test("the account page lists a connected app and disconnects it; signing out ends the session", async ({ page, baseURL }) => {
  await page.goto(`${rp.url}/login`);
  await importPastedList(page);
  await phoneAndCode(page, freshPhone());
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Add your mailbox");
  await page.getByRole("link", { name: /Gmail/ }).click();
  // Signed in already: the connection joins the account and the browser comes back to the flow.
  await expect(page.getByRole("listitem").filter({ hasText: "Gmail" })).toContainText("✓ Connected");
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await receiptAndReturn(page, rp);

  await page.goto(`${baseURL}/account`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your profile");
  const gmail = page.getByRole("region", { name: "Connected apps" }).getByRole("listitem").filter({ hasText: "Gmail" });
  await expect(gmail).toContainText("grace.hopper@example.com");
  await expect(page.getByRole("region", { name: "Email" })).toContainText("✓ Verified");
  await shoot(page, "20-account");
  await page.getByRole("button", { name: "Disconnect Gmail" }).click();
  await expect(page.getByRole("status")).toHaveText(/Gmail is disconnected/);
  await expect(gmail).toContainText("Not connected");
  await expect(page.getByRole("button", { name: "Disconnect Gmail" })).toHaveCount(0);
  // The address stays, without the mailbox that proved it.
  await expect(page.getByRole("region", { name: "Email" })).toContainText("Not verified");
  await shoot(page, "21-account-disconnected");

  // Notion has no credentials here: the development provider's page stands in for Notion's.
  await page.getByRole("link", { name: "Connect Notion" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connect Notion");
  await shoot(page, "22-dev-connect");
  await page.getByLabel("Notion address").fill("grace@notion.example");
  await page.getByRole("button", { name: "Allow", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Notion is connected.");
  await expect(page.getByRole("listitem").filter({ hasText: "Notion" })).toContainText("grace@notion.example");

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
  await page.goto(`${baseURL}/account`);
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
});

test.describe("connect links", () => {
  async function mintLink(request: import("@playwright/test").APIRequestContext, body: Record<string, unknown>) {
    const res = await request.post("/v1/profile/connect", {
      headers: { "X-API-Key": seed.secret_key, "X-Agent": seed.agent, "X-User-Id": `e2e-${Math.random().toString(36).slice(2)}` },
      data: body,
    });
    expect(res.status()).toBe(200);
    return (await res.json()) as { status: string; connect_url: string; expires_at: string; instructions: string };
  }

  test("a link for one app opens on that app; a person not signed in enters phone and code after it", async ({ page, request }) => {
    const link = await mintLink(request, { app: "gmail", purpose: "Trailhead finds your bookings in Gmail." });
    expect(link.status).toBe("authorization_required");
    await page.goto(link.connect_url);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connect Gmail");
    await expect(page.getByText("Trailhead finds your bookings in Gmail.")).toBeVisible();
    await expect(page.getByText("ChatGPT")).toHaveCount(0);
    // The link binds the developer's id for whoever finishes it: every screen says so, from the first.
    await expect(page.getByTestId("link-notice")).toContainText(`${seed.agent_name} asked to link its account to your profile`);
    await shoot(page, "17-connect-app");
    await page.getByRole("link", { name: /Gmail/ }).click();
    await expect(page.getByRole("listitem").filter({ hasText: "Gmail" })).toContainText("✓ Connected");
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await expect(page.getByTestId("link-notice")).toContainText(`${seed.agent_name} asked to link its account to your profile`);
    const phone = freshPhone();
    await phoneAndCode(page, phone, { codeShot: "24-connect-link-code" });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
    expect((await (await request.get(`${link.connect_url}/status`)).json()).status).toBe("approved");
  });

  test("a link asking for a capability keeps its own page; a person not signed in enters the phone number first", async ({ page, request }) => {
    const link = await mintLink(request, { capability: "gmail:send" });
    await page.goto(link.connect_url);
    await expect(page.getByLabel("Mobile number")).toBeVisible();
    const phone = freshPhone();
    await phoneAndCode(page, phone);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Allow ${seed.agent_name} to send e-mail from your Gmail?`);
    await shoot(page, "18-connect-capability");
    expect((await (await request.get(`${link.connect_url}/status`)).json()).status).toBe("pending");
    await page.getByRole("button", { name: "Allow", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
    expect((await (await request.get(`${link.connect_url}/status`)).json()).status).toBe("approved");
  });
});

test("the development outbox shows messages with the last four digits only", async ({ page }) => {
  await page.goto("/dev/outbox");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Text message outbox");
  await shoot(page, "15-outbox");
});

test("an expired flow shows a clear page with a way to start again", async ({ page }) => {
  const dir = path.resolve(".test-data", `e2e-expired-${Date.now()}`);
  const flow = JSON.parse(
    execFileSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "e2e/support/seed.ts", dir, "expired-flow"], { encoding: "utf8" }).trim().split("\n").pop()!,
  );
  const port = 3190 + test.info().workerIndex;
  const server = spawn(process.execPath, ["scripts/server.mjs"], {
    env: { ...process.env, PORT: String(port), NODE_ENV: "production", DATA_DIR: dir, BASE_URL: `http://localhost:${port}`, DATABASE_URL: "", REDIS_URL: "" },
    stdio: "ignore",
  });
  try {
    await expect.poll(async () => (await fetch(`http://localhost:${port}/api/health`).catch(() => null))?.status, { timeout: 60_000 }).toBe(200);
    await page.context().addCookies([{ name: `service_flow_${flow.flow_id}`, value: flow.browser_secret, url: `http://localhost:${port}/flow/${flow.flow_id}` }]);
    await page.goto(`http://localhost:${port}/flow/${flow.flow_id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This sign-in has expired");
    await expect(page.getByRole("link", { name: `Start again at ${flow.app_name}` })).toHaveAttribute("href", "http://localhost:4999");
    await shoot(page, "16-expired");
  } finally {
    server.kill();
  }
});
