// Signing in to the developer dashboard as a developer does: the address, the code from the e-mail
// (read from the development outbox, /dev/email-outbox), and for a new address the account's name.
import { expect, type Page } from "@playwright/test";

/** The newest sign-in e-mail to this address: its code and its one-click link. */
export async function codeFromEmailOutbox(page: Page, email: string): Promise<{ code: string; link: string }> {
  const outbox = await page.context().newPage();
  await outbox.goto("/dev/email-outbox");
  const text = await outbox.getByTestId("email-message").filter({ hasText: email }).first().innerText();
  await outbox.close();
  return { code: text.match(/Enter (\d{6}) to sign in/)![1]!, link: text.match(/https?:\/\/\S+\/dashboard\/sign-in\/link\S+/)![0] };
}

/** Signs up a new address and names its account; ends on the overview. */
export async function signUpDeveloper(page: Page, email: string, accountName: string) {
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Work email").press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enter your code");
  const { code } = await codeFromEmailOutbox(page, email);
  await page.getByLabel("Six-digit code").fill(code);
  await page.getByLabel("Six-digit code").press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Name your developer account");
  await page.getByRole("textbox").first().fill(accountName);
  await page.getByRole("textbox").first().press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);
}
