// The person's own pages end to end in Chromium: signed in with phone and code (from the development
// outbox) through an agent's connect link, they see their profile as agents do, filter, edit, remove
// and forget memories, revoke the agent (whose next call is refused), download the export, and delete
// the account. Every page: no serious or critical axe-core violation, usable from the keyboard, and
// screenshots at 360 px and on a desktop (e2e/screenshots).
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { noSeriousViolations, PHONE, shoot } from "./support/pages";

const seed = JSON.parse(readFileSync(`${process.env.E2E_DATA_DIR}-seed.json`, "utf8")) as { secret_key: string; agent: string; agent_name: string };
const MEMORY_LIST = ["[2024-03-05] - I live in Lisbon", "[2024-04-01] - I'm vegetarian", "- I love trail running"].join("\n");

test.use({ viewport: PHONE });

function freshPhone(): { e164: string; national: string } {
  const line = String(2000 + Math.floor(Math.random() * 7000));
  return { e164: `+1415556${line}`, national: `415 556 ${line}` };
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

/** An agent's connect link, finished by a new person: ChatGPT's memories imported, then phone and code. */
async function signInThroughConnectLink(page: Page, request: import("@playwright/test").APIRequestContext, externalId: string) {
  const res = await request.post("/v1/profile/connect", { headers: { "X-API-Key": seed.secret_key, "X-Agent": seed.agent, "X-User-Id": externalId }, data: {} });
  expect(res.status()).toBe(200);
  const link = (await res.json()) as { connect_url: string };
  await page.goto(link.connect_url);
  await page.getByRole("link", { name: /ChatGPT/ }).click();
  await page.getByLabel("Paste ChatGPT’s answer").fill(MEMORY_LIST);
  await page.getByRole("button", { name: "Preview memories" }).click();
  await page.getByRole("button", { name: "Keep 3 memories" }).click();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  const phone = freshPhone();
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("Mobile number").fill(phone.national);
  await page.getByRole("button", { name: "Text me a code" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enter the code");
  const code = await codeFromOutbox(page, phone.e164.slice(-4));
  await page.getByLabel("Six-digit code").fill(code);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
}

function profileCall(request: import("@playwright/test").APIRequestContext, externalId: string) {
  return request.get("/v1/profile", { headers: { "X-API-Key": seed.secret_key, "X-Agent": seed.agent, "X-User-Id": externalId } });
}

test("the person's own pages: profile, memories, revoking an agent, export and deleting the account", async ({ page, request, baseURL }) => {
  const externalId = `e2e-account-${Math.random().toString(36).slice(2)}`;
  await signInThroughConnectLink(page, request, externalId);
  expect((await profileCall(request, externalId)).status()).toBe(200);

  // The profile as agents see it, and the approved agent.
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your profile");
  const profile = page.getByRole("region", { name: "Your profile as agents see it" });
  await expect(profile).toContainText("Lisbon");
  await expect(page.getByRole("region", { name: "Agents you approved" })).toContainText(seed.agent_name);
  await noSeriousViolations(page);
  await shoot(page, "40-account");

  // Memories: keyboard to the list, filter by source, edit, remove, forget.
  await page.getByRole("link", { name: "See and edit your memories" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your memories");
  await expect(page.getByTestId("memory")).toHaveCount(3);
  await noSeriousViolations(page);
  await shoot(page, "41-memories");
  await page.getByLabel("Source").selectOption({ label: "Imported from ChatGPT (3)" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/source=imports%2Fchatgpt/);

  const lisbon = page.getByTestId("memory").filter({ hasText: "Lisbon" });
  // The edit opens from the keyboard (a disclosure).
  await lisbon.locator("summary").focus();
  await page.keyboard.press("Enter");
  await lisbon.getByLabel("What it should say").fill("I live in Porto");
  await noSeriousViolations(page);
  await shoot(page, "42-memories-edit");
  await lisbon.getByRole("button", { name: /Save/ }).click();
  await expect(page.getByRole("status")).toContainText("Saved");
  await expect(page).toHaveURL(/source=imports%2Fchatgpt/);
  await expect(page.getByTestId("memory").filter({ hasText: "Porto" })).toContainText("edited by you");
  await expect(page.getByTestId("memory").filter({ hasText: "Lisbon" })).toHaveCount(0);

  await page.getByRole("button", { name: /^Remove .*trail running/i }).click();
  await expect(page.getByRole("status")).toHaveText("Removed.");
  // Forget from the keyboard: focus the button and press Enter.
  await page.getByRole("button", { name: /^Forget, don.t learn again.*vegetarian/i }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toContainText("Forgotten");
  await expect(page.getByTestId("memory")).toHaveCount(1);
  await shoot(page, "43-memories-after");
  const read = JSON.stringify(await (await profileCall(request, externalId)).json());
  expect(read).toContain("Porto");
  expect(read).not.toMatch(/vegetarian|trail running|Lisbon/i);

  // Revoke the agent: its next call is refused.
  await page.goto("/account");
  await page.getByRole("button", { name: `Revoke ${seed.agent_name}` }).click();
  await expect(page.getByRole("status")).toContainText("Revoked");
  await expect(page.getByRole("region", { name: "Agents you approved" })).toContainText("No agent can read your profile.");
  await shoot(page, "44-account-revoked");
  const refused = await profileCall(request, externalId);
  expect(refused.status()).toBe(403);

  // The export: a JSON attachment, never cached, with the memories and their provenance.
  const download = await page.request.get("/account/export.json");
  expect(download.status()).toBe(200);
  expect(download.headers()["content-disposition"]).toMatch(/^attachment; filename="profile-export\.json"/);
  expect(download.headers()["cache-control"]).toBe("no-store");
  const exported = (await download.json()) as { memories: Array<{ text: string; hidden: boolean; provenance: unknown }>; approvals: Array<{ revoked_at: string | null }> };
  expect(exported.memories.find((m) => m.text.includes("Porto"))).toMatchObject({ hidden: false });
  expect(exported.memories.find((m) => /vegetarian/i.test(m.text))).toMatchObject({ hidden: true });
  expect(exported.approvals[0]!.revoked_at).not.toBeNull();
  // Without the session: nothing.
  const anonymous = await request.get(`${baseURL}/account/export.json`, { maxRedirects: 0 });
  expect(anonymous.status()).toBe(303);

  // Delete: the wrong word is refused, the right one deletes and signs out.
  await page.getByRole("link", { name: "Delete your account" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Delete your account");
  await noSeriousViolations(page);
  await shoot(page, "45-delete");
  await page.getByLabel(/Type delete to confirm/).fill("nope");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.locator("#confirmation-error")).toHaveText("Type delete to delete your account.");
  await expect(page.getByLabel(/Type delete to confirm/)).toHaveAttribute("aria-invalid", "true");
  await noSeriousViolations(page);
  await shoot(page, "46-delete-error");
  await page.getByLabel(/Type delete to confirm/).fill("delete");
  await page.getByLabel(/Type delete to confirm/).press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account is deleted");
  await noSeriousViolations(page);
  await shoot(page, "47-deleted");
  await page.goto("/account");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  // The developer's id names no one any more.
  expect((await profileCall(request, externalId)).status()).toBe(404);
});

test("signed out, each account page offers signing in and nothing else", async ({ page }) => {
  for (const path of ["/account", "/account/memories", "/account/delete"]) {
    await page.goto(path);
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    await noSeriousViolations(page);
  }
  await shoot(page, "48-delete-signed-out");
});
