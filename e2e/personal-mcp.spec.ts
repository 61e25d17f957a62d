// The personal MCP endpoint's sign-in end to end: the official MCP SDK client, in this process, is an
// MCP client a person installs (its OAuth callback a local listener on 127.0.0.1, as a desktop client
// has); Chromium is the person's browser. Before sign-in only service_connect is listed and calling it
// answers 401; the SDK discovers the metadata from WWW-Authenticate, identifies itself (by dynamic
// registration, or by a Client ID Metadata Document served here), and the person goes through the
// hosted pages to the client's callback. After the code exchange exactly the six profile tools are
// listed, and they work. The import screen as an MCP client sees it is screenshotted at 390 px and on
// a desktop (e2e/screenshots/personal-mcp-*).
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test, type Page } from "@playwright/test";
import { shoot } from "./support/pages";

const PROFILE_TOOLS = ["service_profile_read", "service_profile_search", "service_profile_remember", "service_profile_forget", "service_profile_commit", "service_profile_import"];
const PROFILE_SCOPES = "profile.read profile.search profile.remember profile.commit";
const MEMORY_LIST = ["- I live in Lisbon", "- I prefer aisle seats"].join("\n");
const MOBILE = { width: 390, height: 844 };
/** The import screen as an MCP client shows it, at 390 px and on a desktop; left at 390 px. */
const AT_390 = { phone: { label: "390", ...MOBILE } };

// The second journey signs in the person the first one made: one worker, in order.
test.describe.configure({ mode: "serial" });
test.use({ viewport: MOBILE });

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
  return body.match(/^(\d{6})/)![1]!;
}

/** The phone number, then the code from the development outbox (six digits typed send it). */
async function phoneAndCode(page: Page, phone: { e164: string; national: string }) {
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("Mobile number").fill(phone.national);
  await page.getByRole("button", { name: "Text me a code" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enter the code");
  await page.getByLabel("Six-digit code").fill(await codeFromOutbox(page, phone.e164.slice(-4)));
}

/** A request the MCP client made, and the service's answer. */
interface Sent {
  method: string;
  url: URL;
  status: number;
  wwwAuthenticate: string | null;
}
const described = (sent: Sent[]) => sent.map((s) => `${s.method} ${s.url.pathname}`);

/** The MCP client's fetch: every request it makes (MCP, discovery, registration, token) is kept. */
function recordingFetch(sent: Sent[]) {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, init);
    sent.push({ method: (init?.method ?? "GET").toUpperCase(), url: new URL(String(input)), status: res.status, wwwAuthenticate: res.headers.get("www-authenticate") });
    return res;
  };
}

/** The client's local callback listener on 127.0.0.1: it answers the browser and hands over the URL it came to. */
class LoopbackListener {
  private readonly server: Server;
  private readonly waiting: Array<(url: URL) => void> = [];
  callback = "";

  constructor(readonly clientName: string) {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", this.callback);
      if (url.pathname !== "/callback") return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html lang="en"><title>${this.clientName}</title><h1>${this.clientName} is signed in</h1><p>You can close this window.</p></html>`);
      this.waiting.shift()?.(url);
    });
  }

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.callback = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/callback`;
    return this;
  }

  /** The next request the browser brings to the callback. */
  next(): Promise<URL> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** An installed MCP client's OAuth state, kept in memory; the authorization URL it would open is captured. */
class InstalledClient implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  sentState = "";
  authorizationUrl?: URL;

  constructor(private readonly opts: { name: string; callback: string; clientId?: string }) {
    this.info = opts.clientId ? { client_id: opts.clientId } : undefined;
  }
  get redirectUrl() {
    return this.opts.callback;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.opts.name,
      redirect_uris: [this.opts.callback],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    };
  }
  state() {
    this.sentState = randomBytes(16).toString("base64url");
    return this.sentState;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The MCP client before anyone signs in: it lists, calls service_connect, and is sent to sign in. */
async function installAnonymously(endpoint: URL, provider: InstalledClient, sent: Sent[]) {
  const client = new Client({ name: "installed-assistant", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider, fetch: recordingFetch(sent) }));
  const listed = (await client.listTools()).tools.map((t) => t.name);
  await expect(client.callTool({ name: "service_connect", arguments: {} })).rejects.toThrow(/Unauthorized/i);
  await client.close();
  expect(provider.authorizationUrl, "the SDK captured where to send the person").toBeDefined();
  return { listed, authorizationUrl: provider.authorizationUrl! };
}

/** The person returns to the client: the receipt's button brings the browser to the loopback callback. */
async function returnToClient(page: Page, listener: LoopbackListener, provider: InstalledClient, appName: string): Promise<string> {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're signed in to ${appName}`);
  const arrived = listener.next();
  await page.getByRole("button", { name: `Return to ${appName}` }).click();
  const callback = await arrived;
  await expect(page).toHaveURL(new RegExp(`^${listener.callback.replace(/\./g, "\\.")}\\?`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${listener.clientName} is signed in`);
  expect(callback.searchParams.get("error")).toBeNull();
  expect(callback.searchParams.get("state")).toBe(provider.sentState);
  return callback.searchParams.get("code")!;
}

/** The client exchanges the code, then connects again signed in. */
async function finishSignIn(endpoint: URL, provider: InstalledClient, sent: Sent[], code: string) {
  await new StreamableHTTPClientTransport(endpoint, { authProvider: provider, fetch: recordingFetch(sent) }).finishAuth(code);
  expect(provider.saved?.access_token).toMatch(/^mcp_at_/);
  expect(provider.saved?.refresh_token).toMatch(/^mcp_rt_/);
  const client = new Client({ name: "installed-assistant", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider, fetch: recordingFetch(sent) }));
  return client;
}

function structured(result: Awaited<ReturnType<Client["callTool"]>>) {
  const r = result as CallToolResult;
  expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
  return r.structuredContent as Record<string, unknown>;
}

/** The person the first journey makes; the second signs them in again. */
const person = freshPhone();

test("dynamic registration: the SDK registers, the person imports and signs in in Chromium, and the client gets the six profile tools", async ({ page, baseURL }) => {
  const endpoint = new URL(`${baseURL}/personal-mcp`);
  const listener = await new LoopbackListener("Desk Assistant").start();
  try {
    const provider = new InstalledClient({ name: "Desk Assistant", callback: listener.callback });
    const sent: Sent[] = [];
    const { listed, authorizationUrl } = await installAnonymously(endpoint, provider, sent);
    expect(listed).toEqual(["service_connect"]);

    // Discovery began at the 401's WWW-Authenticate, and the client registered.
    const challenge = sent.findIndex((s) => s.status === 401);
    expect(described(sent.slice(challenge))).toEqual([
      "POST /personal-mcp",
      "GET /.well-known/oauth-protected-resource/personal-mcp",
      "GET /.well-known/oauth-authorization-server",
      "POST /oauth/register",
    ]);
    expect(sent[challenge]!.wwwAuthenticate).toBe(`Bearer resource_metadata="${baseURL}/.well-known/oauth-protected-resource/personal-mcp", scope="${PROFILE_SCOPES}"`);
    expect(provider.info?.client_id).toMatch(/^mcpc_/);
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${baseURL}/oauth/authorize`);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      client_id: provider.info!.client_id,
      redirect_uri: listener.callback,
      resource: endpoint.href,
      scope: PROFILE_SCOPES,
      code_challenge_method: "S256",
      state: provider.sentState,
    });

    // The person, in the browser: the import screen names the client, then phone and code.
    await page.goto(authorizationUrl.href);
    await expect(page).toHaveURL(/\/flow\/[A-Za-z0-9]{32}$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bring your profile to Desk Assistant (app on this device)");
    await expect(page.getByRole("button", { name: "Continue", exact: true })).toBeDisabled();
    await shoot(page, "personal-mcp-import-registered", AT_390);
    await page.getByRole("link", { name: /ChatGPT/ }).click();
    await page.getByLabel("Paste ChatGPT’s answer").fill(MEMORY_LIST);
    await page.getByRole("button", { name: "Preview memories" }).click();
    await page.getByRole("button", { name: "Keep 2 memories" }).click();
    await expect(page.getByRole("button", { name: "Continue", exact: true })).toBeEnabled();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await phoneAndCode(page, person);
    await expect(page.getByText("2 memories")).toBeVisible();
    const code = await returnToClient(page, listener, provider, "Desk Assistant (app on this device)");

    const client = await finishSignIn(endpoint, provider, sent, code);
    try {
      expect(described(sent)).toContain("POST /oauth/token");
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(PROFILE_TOOLS);
      expect(structured(await client.callTool({ name: "service_profile_read", arguments: {} }))).toMatchObject({ linked: true });
      expect(structured(await client.callTool({ name: "service_profile_remember", arguments: { text: "I prefer window seats on trains", box: "preferences" } }))).toMatchObject({
        saved: true,
      });
      // service_connect is gone once signed in.
      await expect(client.callTool({ name: "service_connect", arguments: {} })).rejects.toThrow(/not found/);
    } finally {
      await client.close();
    }
  } finally {
    await listener.close();
  }
});

test("a Client ID Metadata Document: the service fetches the client's document, no registration, and the person signs in again", async ({ page, baseURL }) => {
  const endpoint = new URL(`${baseURL}/personal-mcp`);
  const listener = await new LoopbackListener("Web Assistant").start();
  const fetched: IncomingMessage["headers"][] = [];
  let documentUrl = "";
  const documents = createServer((req, res) => {
    if (new URL(req.url ?? "/", documentUrl).pathname !== "/web-assistant/client.json") return void res.writeHead(404).end();
    fetched.push(req.headers);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        client_id: documentUrl,
        client_name: "Web Assistant",
        client_uri: "https://web-assistant.example",
        redirect_uris: [listener.callback],
        token_endpoint_auth_method: "none",
      }),
    );
  });
  // All interfaces: "localhost" may resolve to IPv4 or IPv6 on the server's side.
  await new Promise<void>((resolve) => documents.listen(0, resolve));
  const port = (documents.address() as AddressInfo).port;
  documentUrl = `http://localhost:${port}/web-assistant/client.json`;
  const appName = `Web Assistant (localhost:${port})`;
  try {
    const provider = new InstalledClient({ name: "Web Assistant", callback: listener.callback, clientId: documentUrl });
    const sent: Sent[] = [];
    const { listed, authorizationUrl } = await installAnonymously(endpoint, provider, sent);
    expect(listed).toEqual(["service_connect"]);
    expect(authorizationUrl.searchParams.get("client_id")).toBe(documentUrl);
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(listener.callback);
    expect(fetched).toHaveLength(0);

    // The authorize request makes the service read the document; the import screen names the client with its host.
    await page.goto(authorizationUrl.href);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Bring your profile to ${appName}`);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]!["user-agent"]).toBe("profile-signin-service/client-metadata");
    await shoot(page, "personal-mcp-import-document", AT_390);

    // The person from the first journey signs in: phone and code first, then the import screen, signed in.
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in with your phone");
    await phoneAndCode(page, person);
    await expect(page.getByText("You’re signed in.")).toBeVisible();
    await page.getByRole("button", { name: `Continue to ${appName}` }).click();
    const code = await returnToClient(page, listener, provider, appName);

    const client = await finishSignIn(endpoint, provider, sent, code);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(PROFILE_TOOLS);
      const profile = structured(await client.callTool({ name: "service_profile_read", arguments: {} }));
      expect(profile).toMatchObject({ linked: true });
      expect(JSON.stringify(profile)).toContain("Lisbon");
      expect(structured(await client.callTool({ name: "service_profile_remember", arguments: { text: "I work from Porto on Fridays", box: "work" } }))).toMatchObject({
        saved: true,
      });
    } finally {
      await client.close();
    }
    // The client never registered: its id is the document's address, read once.
    expect(described(sent)).not.toContain("POST /oauth/register");
    expect(described(sent)).toContain("POST /oauth/token");
    expect(fetched).toHaveLength(1);
  } finally {
    await listener.close();
    await new Promise<void>((resolve) => documents.close(() => resolve()));
  }
});
