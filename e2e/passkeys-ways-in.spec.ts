// A passkey on every way in that reaches the phone screen, in Chromium with its virtual authenticator:
// a person signs up once with a text-message code and makes a passkey from the receipt's offer; then
// each way in — the agent's hosted sign-in link, an MCP client's sign-in, a partner's phone-first link,
// the service's own sign-up, an agent's connect link — reaches the phone screen, "Use a passkey" signs
// the person in with no new text message, and the flow ends where the code would have taken it. The
// one passkey moves from test to test (WebAuthn.getCredentials, then addCredential in the next
// browser), its counter with it. Then the same key made for another relying party id is not used, and
// its counter set back is refused; with no platform authenticator the receipt makes no offer.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { freshPhone, outboxCount, phoneAndCode, REFUSED, toReceipt, virtualAuthenticator, withoutAutofill, type VirtualCredential } from "./support/passkeys";

interface Agent {
  secret_key: string;
  agent: string;
  agent_name: string;
}
const seed = JSON.parse(readFileSync(`${process.env.E2E_DATA_DIR}-seed.json`, "utf8")) as Agent & { phone_first_partner: Agent };

// One person and one passkey, carried from each test to the next.
test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 390, height: 844 } });

const phone = freshPhone();
const last4 = phone.e164.slice(-4);
let passkey: VirtualCredential;

test.beforeAll(async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const authenticator = await virtualAuthenticator(page);
  await withoutAutofill(page);
  await page.goto("/sign-up");
  // A platform authenticator that verifies the person: the device the offer is made on.
  expect(await page.evaluate(() => PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable())).toBe(true);
  await page.getByRole("link", { name: /ChatGPT/ }).click();
  await page.getByLabel("Paste ChatGPT’s answer").fill("- I live in Lisbon");
  await page.getByRole("button", { name: "Preview memories" }).click();
  await page.getByRole("button", { name: "Keep 1 memory" }).click();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await phoneAndCode(page, phone);
  await toReceipt(page, "Profile Service");
  await page.getByRole("region", { name: "Sign in faster next time with a passkey" }).getByRole("button", { name: "Create a passkey" }).click();
  await expect(page.getByRole("status")).toContainText("Passkey saved");
  passkey = (await authenticator.credentials())[0]!;
  expect(passkey.rpId).toBe("localhost");
  await context.close();
});

/** This browser's authenticator holds the person's passkey; the number field offers no autofill. */
async function withPasskey(page: Page) {
  const authenticator = await virtualAuthenticator(page);
  await authenticator.add(passkey);
  await withoutAutofill(page);
  return {
    texts: await outboxCount(page, last4),
    /** The passkey as it is now (its counter raised by the sign-in), for the next test. */
    keep: async () => {
      passkey = (await authenticator.credentials())[0]!;
    },
  };
}

/** "Use a passkey" on the phone screen whose heading is `heading`. */
async function usePasskey(page: Page, heading = "Sign in with your phone") {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
  await page.getByRole("button", { name: "Use a passkey" }).click();
}

async function agentApi(baseURL: string, path: string, agent: Agent = seed) {
  const res = await fetch(`${baseURL}${path}`, { headers: { "x-api-key": agent.secret_key, "x-agent": agent.agent } });
  return (await res.json()) as Record<string, any>;
}

test("the agent's hosted sign-in link: Sign in, a passkey, the import screen signed in, the receipt; no text message", async ({ page, baseURL }) => {
  const { texts, keep } = await withPasskey(page);
  const agents = await agentApi(baseURL!, "/v1/agents");
  const signInUrl = (agents.agents as Array<{ handle: string; sign_in_url: string }>).find((a) => a.handle === seed.agent)!.sign_in_url;
  await page.goto(signInUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await usePasskey(page);
  // Signed in first, the person comes back to the import screen, then the receipt.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  await expect(page.getByRole("button", { name: `Continue to ${seed.agent_name}` })).toBeVisible();
  expect(await toReceipt(page, seed.agent_name)).toBe(`You're signed in to ${seed.agent_name}`);
  expect(await outboxCount(page, last4)).toBe(texts);
  await keep();
});

test("an MCP client's sign-in: Sign in, a passkey, the receipt, and the client's callback gets a code it exchanges; no text message", async ({ page, baseURL }) => {
  const { texts, keep } = await withPasskey(page);
  // The client's loopback listener, as a desktop MCP client has.
  const arrived: URL[] = [];
  const listener = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") return void res.writeHead(404).end();
    arrived.push(url);
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end('<!doctype html><html lang="en"><title>Desk</title><h1>Desk Assistant is signed in</h1></html>');
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const callback = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
  try {
    const registered = await fetch(`${baseURL}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Desk Assistant",
        redirect_uris: [callback],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      }),
    });
    expect(registered.status).toBe(201);
    const { client_id } = (await registered.json()) as { client_id: string };
    const verifier = randomBytes(32).toString("base64url");
    const state = randomBytes(8).toString("hex");
    const resource = `${baseURL}/personal-mcp`;
    const authorize = new URL(`${baseURL}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: "code",
      client_id,
      redirect_uri: callback,
      scope: "profile.read profile.search profile.remember profile.commit",
      resource,
      state,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }))
      authorize.searchParams.set(k, v);
    await page.goto(authorize.href);
    const appName = "Desk Assistant (app on this device)";
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${appName}`);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await usePasskey(page);
    expect(await toReceipt(page, appName)).toBe(`You're signed in to ${appName}`);
    await page.getByRole("button", { name: `Return to ${appName}` }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Desk Assistant is signed in");
    const back = arrived.at(-1)!;
    expect(back.searchParams.get("state")).toBe(state);
    const token = await fetch(`${baseURL}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: callback, client_id, code_verifier: verifier, resource }),
    });
    expect(token.status).toBe(200);
    expect(((await token.json()) as { access_token: string }).access_token).toMatch(/^mcp_at_/);
    expect(await outboxCount(page, last4)).toBe(texts);
    await keep();
  } finally {
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  }
});

test("a partner's phone-first link: a passkey on its first screen, then the import screen signed in, the receipt, the session completed; no text message", async ({
  page,
  baseURL,
}) => {
  const { texts, keep } = await withPasskey(page);
  const partner = seed.phone_first_partner;
  const made = await fetch(`${baseURL}/v1/flows/sessions`, {
    method: "POST",
    headers: { "x-api-key": partner.secret_key, "x-agent": partner.agent, "content-type": "application/json" },
    body: JSON.stringify({ flow: "linked_account", partner_ref: `partner-${randomBytes(6).toString("hex")}` }),
  });
  expect(made.status).toBe(201);
  const session = (await made.json()) as { id: string; url: string };
  await page.goto(session.url);
  await usePasskey(page, "Save it to your profile");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${partner.agent_name}`);
  expect(await toReceipt(page, partner.agent_name)).toBe(`You're signed in to ${partner.agent_name}`);
  expect(await agentApi(baseURL!, `/v1/flows/sessions/${session.id}`, partner)).toMatchObject({ status: "completed", partner_ref_linked: true });
  expect(await outboxCount(page, last4)).toBe(texts);
  await keep();
});

test("the service's own sign-up: Sign in, a passkey, then on to the receipt; no text message", async ({ page }) => {
  const { texts, keep } = await withPasskey(page);
  await page.goto("/sign-up");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bring your profile to Profile Service");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await usePasskey(page);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Sign in with your phone");
  await toReceipt(page, "Profile Service");
  expect(await outboxCount(page, last4)).toBe(texts);
  await keep();
});

test("an agent's connect link: the import screen, then a passkey on the phone screen, the receipt, and the agent reads the profile; no text message", async ({ page, baseURL }) => {
  const { texts, keep } = await withPasskey(page);
  const externalId = `e2e-passkey-${randomBytes(6).toString("hex")}`;
  const headers = { "x-api-key": seed.secret_key, "x-agent": seed.agent, "x-user-id": externalId };
  const made = await fetch(`${baseURL}/v1/profile/connect`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: "{}" });
  expect(made.status).toBe(200);
  await page.goto(((await made.json()) as { connect_url: string }).connect_url);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${seed.agent_name}`);
  await page.getByRole("link", { name: /Claude/ }).click();
  await page.getByLabel("Paste Claude’s answer").fill("- I prefer aisle seats");
  await page.getByRole("button", { name: "Preview memories" }).click();
  await page.getByRole("button", { name: "Keep 1 memory" }).click();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await usePasskey(page, "Save it to your profile");
  expect(await toReceipt(page, seed.agent_name)).toBe(`You're signed in to ${seed.agent_name}`);
  // The link is approved for the passkey's account: the agent reads it by its own id for the person.
  const read = await fetch(`${baseURL}/v1/profile`, { headers });
  expect(read.status, await read.text()).toBe(200);
  expect(await outboxCount(page, last4)).toBe(texts);
  await keep();
});

test("with no platform authenticator, the receipt makes no passkey offer", async ({ page }) => {
  const someone = freshPhone();
  await page.goto("/sign-up");
  await page.getByRole("link", { name: /ChatGPT/ }).click();
  await page.getByLabel("Paste ChatGPT’s answer").fill("- I live in Porto");
  await page.getByRole("button", { name: "Preview memories" }).click();
  await page.getByRole("button", { name: "Keep 1 memory" }).click();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await phoneAndCode(page, someone);
  await toReceipt(page, "Profile Service");
  expect(await page.evaluate(() => PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable())).toBe(false);
  // The same receipt with one (a virtual authenticator) makes the offer: see the registration above.
  await expect(page.getByRole("region", { name: "Sign in faster next time with a passkey" })).toHaveCount(0);
});

/** The service's own sign-up, to its phone screen by "Sign in". */
async function signUpPhoneScreen(page: Page) {
  await page.context().clearCookies();
  await page.goto("/sign-up");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in with your phone");
}

test("a passkey made for another relying party id is not used: no passkey is offered to this site, and no one is signed in", async ({ page }) => {
  const authenticator = await virtualAuthenticator(page);
  await withoutAutofill(page);
  const texts = await outboxCount(page, last4);
  // The same key and person, but made for example.com: the browser will not use it on localhost.
  await authenticator.add({ ...passkey, credentialId: randomBytes(16).toString("base64"), rpId: "example.com" });
  await signUpPhoneScreen(page);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page.locator("#passkey-error")).toHaveText("No passkey was chosen. Try again, or use your number.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in with your phone");
  // Not signed in: the account page sends the person to sign in.
  await page.goto("/account");
  await expect(page.getByText("Sign in with your phone number to see your email address")).toBeVisible();
  expect(await outboxCount(page, last4)).toBe(texts);
});

test("a signature counter that goes backwards is refused on the phone screen, and no one is signed in", async ({ page }) => {
  const authenticator = await virtualAuthenticator(page);
  await authenticator.add(passkey);
  await withoutAutofill(page);
  // A sign-in raises the counter the service holds.
  await signUpPhoneScreen(page);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await toReceipt(page, "Profile Service");
  const [raised] = await authenticator.credentials();
  expect(raised!.signCount).toBeGreaterThan(1);
  // The same key again, its counter set back (as a cloned authenticator's would be).
  await authenticator.remove(raised!.credentialId);
  await authenticator.add({ ...raised!, signCount: 0 });
  await signUpPhoneScreen(page);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page.locator("#passkey-error")).toHaveText(REFUSED);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in with your phone");
  expect((await authenticator.credentials())[0]!.signCount).toBe(1);
  await page.goto("/account");
  await expect(page.getByText("Sign in with your phone number to see your email address")).toBeVisible();
});
