// The connect card (ui://service/connect/v8.html) in Chromium, mounted the way a chat host mounts an MCP
// App: the host (e2e/support/card-host-page.ts, ext-apps' AppBridge) finds the card in service_connect's
// _meta, reads it from the developer MCP server with the official MCP SDK client, runs it in a sandboxed
// iframe under the CSP the resource declares, and hands it a connect result the service minted. The card
// shows the link, app, purpose and expiry, and turns to approved once the person finishes the link in
// another tab. Screenshots at 360 px and on a desktop: e2e/screenshots/card-*.png.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test, type Page } from "@playwright/test";
import { shoot as shootPage, type ShootOptions } from "./support/pages";
import { startChatHost } from "./support/card-host";
import type { MountOptions } from "./support/card-host-page";

/** The card's host page at 360 px and on a desktop (`card-<name>-*.png`); the page is left at 360 px. */
const CARD: ShootOptions = {
  desktop: { label: "desktop", width: 1280, height: 820 },
  // The card reports its new height to the host (ui/notifications/size-changed); let the frame follow.
  settle: 300,
};
const shoot = (page: Page, name: string) => shootPage(page, `card-${name}`, CARD);

const seed = JSON.parse(readFileSync(`${process.env.E2E_DATA_DIR}-seed.json`, "utf8")) as { secret_key: string; agent: string; agent_name: string };
const ARGS = { capability: "gmail:send", purpose: "Trailhead sends your booking confirmations from your Gmail." };

test.use({ viewport: { width: 360, height: 780 } });

async function mcpClient(baseURL: string) {
  const client = new Client({ name: "e2e-chat-host", version: "1.0.0" });
  const headers = { "X-API-Key": seed.secret_key, "X-Agent": seed.agent, "X-User-Id": `card-${Math.random().toString(36).slice(2)}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), { requestInit: { headers } }));
  return client;
}

/** What a host does before it can show the card: the tool's ui.resourceUri, then that resource. */
async function cardFromServer(client: Client) {
  const { tools } = await client.listTools();
  const uri = (tools.find((t) => t.name === "service_connect")!._meta as { ui: { resourceUri: string } }).ui.resourceUri;
  expect(uri).toBe("ui://service/connect/v8.html");
  const read = await client.readResource({ uri });
  const content = read.contents[0] as unknown as { mimeType: string; text: string; _meta: { ui: { csp: MountOptions["csp"] } } };
  expect(content.mimeType).toBe("text/html;profile=mcp-app");
  return { html: content.text, csp: content._meta.ui.csp };
}

let chatHost: Awaited<ReturnType<typeof startChatHost>>;
test.beforeAll(async () => {
  chatHost = await startChatHost();
});
test.afterAll(async () => chatHost.close());

async function openHost(page: Page, theme: "light" | "dark", errors: string[]) {
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(chatHost.url(theme));
}

function freshPhone(): { e164: string; national: string } {
  const line = String(2000 + Math.floor(Math.random() * 7000));
  return { e164: `+1415555${line}`, national: `415 555 ${line}` };
}

/** The person's side of the link, in the tab the host opened: number, code from the outbox, Allow. */
async function finishLink(tab: Page) {
  const phone = freshPhone();
  await expect(tab.getByLabel("Mobile number")).toBeVisible();
  await tab.getByLabel("Country").selectOption("US");
  await tab.getByLabel("Mobile number").fill(phone.national);
  await tab.getByRole("button", { name: "Text me a code" }).click();
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText("Enter the code");
  const outbox = await tab.context().newPage();
  await outbox.goto(new URL("/dev/outbox", tab.url()).href);
  const message = outbox
    .getByTestId("outbox-message")
    .filter({ has: outbox.getByTestId("outbox-last4").getByText(phone.e164.slice(-4), { exact: true }) })
    .first();
  const code = (await message.getByTestId("outbox-body").innerText()).match(/^(\d{6})/)![1]!;
  await outbox.close();
  await tab.getByLabel("Six-digit code").focus();
  await tab.evaluate((c) => {
    const el = document.getElementById("code") as HTMLInputElement;
    el.value = c;
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, code);
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText(`Allow ${seed.agent_name} to send e-mail from your Gmail?`);
  await tab.getByRole("button", { name: "Allow", exact: true }).click();
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${seed.agent_name}`);
}

test("the card shows a minted link, its app, purpose and expiry, and turns to approved when the person finishes it", async ({ page, baseURL }) => {
  const client = await mcpClient(baseURL!);
  const { html, csp } = await cardFromServer(client);
  expect(csp).toEqual({ resourceDomains: [baseURL], connectDomains: [baseURL] });
  const result = (await client.callTool({ name: "service_connect", arguments: ARGS })) as CallToolResult;
  const minted = result.structuredContent as { status: string; connect_url: string; expires_at: string };
  expect(minted.status).toBe("authorization_required");

  const errors: string[] = [];
  await openHost(page, "light", errors);
  await page.evaluate((options) => window.mountCard(options), {
    html,
    csp,
    toolInput: ARGS,
    toolResult: result as unknown as Record<string, unknown>,
    capabilities: { openLinks: {}, updateModelContext: { text: {} } },
    hostContext: { theme: "light", locale: "en-US", timeZone: "UTC", displayMode: "inline", platform: "mobile" },
  } satisfies MountOptions);
  const card = page.frameLocator('iframe[title="Connect card"]');

  await expect(card.getByRole("heading", { level: 1 })).toHaveText("Sign in to connect Gmail");
  await expect(card.getByText(`Open the link to sign in with Profile Service and approve this assistant, then allow it to send with Gmail.`)).toBeVisible();
  const link = card.getByRole("link", { name: "Open link (opens in a new tab)" });
  await expect(link).toHaveAttribute("href", minted.connect_url);
  await expect(card.getByText(minted.connect_url.replace(/^https?:\/\//, ""))).toBeVisible();
  const details = card.locator("dl");
  await expect(details.locator("div", { has: card.getByText("App", { exact: true }) }).locator("dd")).toHaveText("Gmail");
  await expect(details.locator("div", { has: card.getByText("Permission", { exact: true }) }).locator("dd")).toHaveText("send with Gmail");
  await expect(details.locator("div", { has: card.getByText("Purpose", { exact: true }) }).locator("dd")).toHaveText(ARGS.purpose);
  await expect(details.locator("div", { has: card.getByText("Expires", { exact: true }) }).locator("dd")).toContainText(/in (59|60) minutes/);
  const time = card.locator("time");
  await expect(time).toHaveAttribute("datetime", minted.expires_at);
  await expect(time).toHaveText(/^(\w{3}, \w{3} \d{1,2}, )?\d{1,2}:\d{2}\s(AM|PM) UTC$/);
  await expect(card.getByRole("status")).toHaveText("Waiting for you to finish in the link…");
  await expect(card.locator("main")).toHaveAttribute("aria-busy", "false");
  await shoot(page, "pending");

  // Keyboard: the link is reachable and opens through the host (ui/open-link), in a new tab.
  await link.focus();
  await expect(link).toBeFocused();
  const opened = page.waitForEvent("popup");
  await page.keyboard.press("Enter");
  const tab = await opened;
  expect(await page.evaluate(() => window.hostLog.openedLinks)).toEqual([minted.connect_url]);
  await finishLink(tab);
  await tab.close();

  // The card asks the link's status (GET <connect_url>/status) until it reads approved.
  await expect(card.getByRole("status")).toHaveText("Approved. The assistant can carry on.", { timeout: 20_000 });
  await expect(card.getByRole("heading", { level: 1 })).toHaveText("You're all set");
  await expect(card.getByText("You signed in and allowed this assistant to send with Gmail. You can return to the conversation.")).toBeVisible();
  await expect(link).toBeHidden();
  await expect.poll(() => page.evaluate(() => window.hostLog.modelContext.length)).toBe(1);
  expect(JSON.stringify(await page.evaluate(() => window.hostLog.modelContext[0]))).toContain(minted.connect_url);
  await shoot(page, "approved");

  expect(errors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
  await client.close();
});

test("in the host's dark theme, a link the service does not know offers a new one, minted through the host", async ({ page, baseURL }) => {
  const client = await mcpClient(baseURL!);
  const { html, csp } = await cardFromServer(client);
  const unknown = {
    structuredContent: {
      status: "connect_app",
      connect_url: `${baseURL}/personal-mcp/connect/mcc_${"Z".repeat(24)}`,
      expires_at: new Date(Date.now() + 30 * 60_000).toISOString(),
      instructions: "Show the user this link.",
    },
    content: [],
  };
  const args = { app: "notion", purpose: "Trailhead keeps your packing lists in Notion." };
  await page.exposeFunction("callServerTool", async (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params));

  const errors: string[] = [];
  await openHost(page, "dark", errors);
  await page.evaluate((options) => window.mountCard(options), {
    html,
    csp,
    toolInput: args,
    toolResult: unknown,
    capabilities: { openLinks: {}, serverTools: {} },
    hostContext: { theme: "dark", locale: "en-GB", timeZone: "Europe/London", styles: { variables: { "--color-background-primary": "#1d1d22" } as never } },
  } satisfies MountOptions);
  const card = page.frameLocator('iframe[title="Connect card"]');
  await expect(card.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(card.locator("main")).toHaveCSS("background-color", "rgb(29, 29, 34)");

  await expect(card.getByRole("status")).toHaveText("The link is no longer valid.");
  await expect(card.getByRole("heading", { level: 1 })).toHaveText("This link is no longer valid");
  await expect(card.getByText("Get a new one to continue.")).toBeVisible();
  await expect(card.getByText("Expires", { exact: true })).toBeHidden();
  const renew = card.getByRole("button", { name: "Get a new link" });
  await shoot(page, "unknown-dark");

  await renew.focus();
  await page.keyboard.press("Enter");
  await expect(card.getByRole("heading", { level: 1 })).toHaveText("Sign in to connect Notion");
  const href = await card.getByRole("link", { name: "Open link (opens in a new tab)" }).getAttribute("href");
  expect(href).toMatch(new RegExp(`^${baseURL}/personal-mcp/connect/mcc_[A-Za-z0-9]{24}$`));
  expect(href).not.toBe(unknown.structuredContent.connect_url);
  await expect(card.getByRole("status")).toHaveText("Waiting for you to finish in the link…");
  await expect(card.locator("dl")).toContainText("Trailhead keeps your packing lists in Notion.");
  await shoot(page, "pending-dark");

  // The host's theme changes while the card is shown (ui/notifications/host-context-changed).
  await page.evaluate(() => window.setHostContext({ theme: "light" }));
  await expect(card.locator("html")).toHaveAttribute("data-theme", "light");

  expect(errors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
  await client.close();
});
