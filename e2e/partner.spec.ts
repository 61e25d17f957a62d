// Partner links end to end in Chromium: a partner creates a flow session (POST /v1/flows/sessions),
// the person opens its link and walks each way in to the receipt — connect, no flow (connect on this
// installation), linked_account (and phone-first for a partner that asked for it), and the import-only
// flow — and the partner reads what was brought in (GET /v1/flows/sessions/:id). A required mailbox is
// on top marked Required and holds Continue until connected. Screenshots of the partner import screen
// at 360 px and on a desktop (e2e/screenshots).
import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { shoot } from "./support/pages";

interface Partner {
  secret_key: string;
  agent: string;
  agent_name: string;
}
const seed = JSON.parse(readFileSync(`${process.env.E2E_DATA_DIR}-seed.json`, "utf8")) as Partner & { phone_first_partner: Partner };

test.use({ viewport: { width: 360, height: 780 } });

interface Session {
  id: string;
  flow: string;
  url: string;
  status: string;
  imported: Array<{ provider: string; memories: number; import_ids: string[] }>;
  connected: string[];
  partner_ref_linked: boolean | null;
}

async function createSession(request: APIRequestContext, body: Record<string, unknown>, partner: Partner = seed): Promise<Session> {
  const res = await request.post("/v1/flows/sessions", { headers: { "X-API-Key": partner.secret_key, "X-Agent": partner.agent }, data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Session;
}

async function readSession(request: APIRequestContext, id: string, partner: Partner = seed): Promise<Session> {
  const res = await request.get(`/v1/flows/sessions/${id}`, { headers: { "X-API-Key": partner.secret_key, "X-Agent": partner.agent } });
  expect(res.status()).toBe(200);
  return (await res.json()) as Session;
}

const ref = () => `partner-${Math.random().toString(36).slice(2)}`;

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

async function phoneAndCode(page: Page) {
  const phone = freshPhone();
  await expect(page.getByLabel("Mobile number")).toBeVisible();
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("Mobile number").fill(phone.national);
  await page.getByRole("button", { name: "Text me a code" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enter the code");
  await page.getByLabel("Six-digit code").fill(await codeFromOutbox(page, phone.e164.slice(-4)));
}

/** Imports a pasted list from one assistant and keeps it. */
async function importFrom(page: Page, assistant: string, lines: string[]) {
  await page.getByRole("link", { name: new RegExp(assistant) }).click();
  await page.getByLabel(`Paste ${assistant}’s answer`).fill(lines.join("\n"));
  await page.getByRole("button", { name: "Preview memories" }).click();
  const memories = `${lines.length} ${lines.length === 1 ? "memory" : "memories"}`;
  await expect(page.getByText(`${memories} from ${assistant} will be saved`)).toBeVisible();
  await page.getByRole("button", { name: `Keep ${memories}` }).click();
  await expect(page.getByText(`✓ ${memories}`)).toBeVisible();
}

const assistantNames = (page: Page) => page.getByRole("region", { name: "Assistants" }).getByRole("link");
const continueButton = (page: Page) => page.getByRole("button", { name: "Continue", exact: true });

test("connect: the import screen offers the session's sources, the required mailbox holds Continue; then phone, code, receipt", async ({ page, request }) => {
  const session = await createSession(request, { flow: "connect", partner_ref: ref(), sources: ["chatgpt", "claude"], required: [["gmail", "outlook"]] });
  await page.goto(session.url);
  await expect(page).toHaveURL(/\/flow\/[A-Za-z0-9]{32}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  // Only the session's sources among the assistants.
  await expect(page.getByRole("link", { name: /ChatGPT/ })).toBeVisible();
  await expect(page.getByRole("link", { name: /Claude/ })).toBeVisible();
  await expect(page.getByText("Gemini")).toHaveCount(0);
  await expect(page.getByText("Grok")).toHaveCount(0);
  // The required mailboxes first among the apps, each marked Required; the line says one is enough.
  const apps = page.locator("section[aria-labelledby=apps-title] li");
  await expect(apps.nth(0)).toContainText("Gmail");
  await expect(apps.nth(0)).toContainText("Required");
  await expect(apps.nth(1)).toContainText("Outlook");
  await expect(apps.nth(1)).toContainText("Required");
  await expect(apps.nth(2)).not.toContainText("Required");
  await expect(page.getByText("one of them is enough")).toBeVisible();
  await expect(page.getByTestId("link-notice")).toContainText(`${seed.agent_name} asked to link its account to your profile`);
  await expect(continueButton(page)).toBeDisabled();
  await shoot(page, "30-partner-import");

  // An import alone does not meet the mailbox entry.
  await importFrom(page, "ChatGPT", ["- I live in Porto", "- I cycle to work"]);
  await expect(continueButton(page)).toBeDisabled();
  await shoot(page, "31-partner-import-required");
  await page.getByRole("link", { name: /Gmail/ }).click();
  await expect(apps.nth(0)).toContainText("✓ Connected");
  await expect(continueButton(page)).toBeEnabled();
  await continueButton(page).click();
  await phoneAndCode(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
  await expect(page.getByText("You can close this page and go back to")).toBeVisible();
  await shoot(page, "32-partner-receipt");

  const after = await readSession(request, session.id);
  expect(after).toMatchObject({ status: "completed", connected: ["gmail"], partner_ref_linked: true, imported: [{ provider: "chatgpt", memories: 2 }] });
});

test("no flow: this installation has the connect flow, so import, phone, code, receipt", async ({ page, request }) => {
  const session = await createSession(request, { partner_ref: ref() });
  expect(session.flow).toBe("connect");
  await page.goto(session.url);
  await expect(assistantNames(page)).toHaveCount(4);
  await expect(continueButton(page)).toBeDisabled();
  await importFrom(page, "Claude", ["- I speak Portuguese"]);
  await continueButton(page).click();
  await phoneAndCode(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
  expect(await readSession(request, session.id)).toMatchObject({ status: "completed", imported: [{ provider: "claude", memories: 1 }] });
});

test("linked_account: served as connect (import, phone, code)", async ({ page, request }) => {
  const session = await createSession(request, { flow: "linked_account", partner_ref: ref(), sources: ["gemini"] });
  await page.goto(session.url);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  await expect(assistantNames(page)).toHaveCount(1);
  await importFrom(page, "Gemini", ["- I run marathons", "- I live near the sea"]);
  await continueButton(page).click();
  await phoneAndCode(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
  expect(await readSession(request, session.id)).toMatchObject({ status: "completed", partner_ref_linked: true, imported: [{ provider: "gemini", memories: 2 }] });
});

test("linked_account for a partner with the phone-first order: phone and code, then the import screen signed in", async ({ page, request }) => {
  const partner = seed.phone_first_partner;
  const session = await createSession(request, { flow: "linked_account", partner_ref: ref(), required: ["email"] }, partner);
  await page.goto(session.url);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Save it to your profile");
  await phoneAndCode(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${partner.agent_name}`);
  const apps = page.locator("section[aria-labelledby=apps-title] li");
  await expect(apps.nth(0)).toContainText("Gmail");
  await expect(apps.nth(0)).toContainText("Required");
  await expect(continueButton(page)).toHaveCount(0);
  const proceed = page.getByRole("button", { name: `Continue to ${partner.agent_name}` });
  await expect(proceed).toBeDisabled();
  await page.getByRole("link", { name: /Gmail/ }).click();
  await expect(apps.nth(0)).toContainText("✓ Connected");
  await expect(proceed).toBeEnabled();
  await proceed.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${partner.agent_name}`);
  expect(await readSession(request, session.id, partner)).toMatchObject({ status: "completed", connected: ["gmail"], partner_ref_linked: true });
});

test("the import-only flow: the import screen, then the receipt; no phone, no code, no apps", async ({ page, request }) => {
  const partnerRef = ref();
  const session = await createSession(request, { flow: "import", partner_ref: partnerRef, sources: ["chatgpt", "grok"] });
  await page.goto(session.url);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  await expect(assistantNames(page)).toHaveCount(2);
  await expect(page.getByRole("heading", { name: "Apps" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Sign in" })).toHaveCount(0);
  await expect(page.getByText("gets your profile through Profile Service")).toBeVisible();
  await expect(page.getByText("signs you in with")).toHaveCount(0);
  await expect(continueButton(page)).toBeDisabled();
  await shoot(page, "33-partner-import-only");
  await importFrom(page, "Grok", ["- I keep bees", "- I live in Ghent"]);
  await continueButton(page).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Saved for ${seed.agent_name}`);
  await expect(page.getByLabel("Mobile number")).toHaveCount(0);
  await shoot(page, "34-partner-import-only-receipt");

  expect(await readSession(request, session.id)).toMatchObject({ status: "completed", partner_ref_linked: true, imported: [{ provider: "grok", memories: 2 }] });
  // The partner reads it with its own id for the person.
  const profile = await request.get("/v1/profile", { headers: { "X-API-Key": seed.secret_key, "X-Agent": seed.agent, "X-User-Id": partnerRef } });
  expect(profile.status()).toBe(200);
  expect(JSON.stringify(await profile.json())).toContain("Ghent");
  // A used link opens nothing more.
  expect((await request.get(session.url, { maxRedirects: 0 })).status()).toBe(410);
});
