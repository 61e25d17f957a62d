// Passkeys in Chromium: its virtual authenticator (the DevTools WebAuthn domain, through a CDP
// session), the development outbox (codes, and how many text messages a number was sent), and the way
// from a signed-in flow's screens to its receipt.
import { expect, type Page } from "@playwright/test";

export const REFUSED = "That passkey could not sign you in. Try again, or use your number.";

/** A credential as the DevTools WebAuthn domain gives and takes it (private key included). */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
  backupEligibility?: boolean;
  backupState?: boolean;
}

/** A platform authenticator that verifies the person (as a phone's fingerprint reader does). */
export async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials as VirtualCredential[],
    add: (credential: VirtualCredential) => cdp.send("WebAuthn.addCredential", { authenticatorId, credential }),
    remove: (credentialId: string) => cdp.send("WebAuthn.removeCredential", { authenticatorId, credentialId }),
  };
}

/**
 * A browser without the number field's passkey autofill (conditional UI): Chromium's virtual
 * authenticator answers an autofill request at once, as if the person had picked the passkey, which
 * would leave "Use a passkey" nothing to do.
 */
export async function withoutAutofill(page: Page) {
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
}

export function freshPhone(): { e164: string; national: string } {
  const line = String(2000 + Math.floor(Math.random() * 7000));
  return { e164: `+1415555${line}`, national: `415 555 ${line}` };
}

/** The development outbox's messages to the number ending in last4. */
async function withOutbox<T>(page: Page, last4: string, read: (messages: ReturnType<Page["getByTestId"]>) => Promise<T>): Promise<T> {
  const outbox = await page.context().newPage();
  await outbox.goto("/dev/outbox");
  const messages = outbox.getByTestId("outbox-message").filter({ has: outbox.getByTestId("outbox-last4").getByText(last4, { exact: true }) });
  const result = await read(messages);
  await outbox.close();
  return result;
}

/** How many text messages the number ending in last4 has been sent. */
export function outboxCount(page: Page, last4: string): Promise<number> {
  return withOutbox(page, last4, (messages) => messages.count());
}

/** The newest sign-in code sent to the number ending in last4. */
export async function codeFromOutbox(page: Page, last4: string): Promise<string> {
  const body = await withOutbox(page, last4, (messages) => messages.first().getByTestId("outbox-body").innerText());
  return body.match(/^(\d{6}) is your Profile Service sign-in code/)![1]!;
}

/** The phone screen filled in, and the code from the outbox. */
export async function phoneAndCode(page: Page, phone: { e164: string; national: string }) {
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("Mobile number").fill(phone.national);
  await page.getByRole("button", { name: "Text me a code" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enter the code");
  await page.getByLabel("Six-digit code").fill(await codeFromOutbox(page, phone.e164.slice(-4)));
}

/** From wherever signing in left the person, to the receipt for `appName`: past the import screen and the mailbox offer. */
export async function toReceipt(page: Page, appName: string) {
  const heading = page.getByRole("heading", { level: 1 });
  const receipt = `You're signed in to ${appName}`;
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (let i = 0; i < 4; i++) {
    await expect(heading).toHaveText(new RegExp(`^(${escaped(receipt)}|Your profile is ready|Add your mailbox|Bring your profile to .*)$`));
    const text = await heading.innerText();
    if (text === receipt || text === "Your profile is ready") return text;
    if (text === "Add your mailbox") await page.getByRole("button", { name: "Not now" }).click();
    else await page.getByRole("button", { name: `Continue to ${appName}` }).click();
    await expect(heading).not.toHaveText(text);
  }
  throw new Error("the receipt was not reached");
}
