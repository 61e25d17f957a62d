// The connect card (an MCP App) on the developer MCP server, through the official MCP SDK client:
// service_connect names ui://service/connect/v8.html in its _meta and answers the unchanged connect
// result; every card version ever published is listed and read, with the MCP App MIME type and the
// origins its page needs; the host script is served as JavaScript, cached by version; and what the
// card shows is read from the result and the call's arguments.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/mcp/route";
import { GET as hostScriptRoute, HEAD as hostScriptHead } from "@/app/mcp-apps/service-mcp-host.js/route";
import { resetEnvForTests } from "@/lib/env";
import { HOST_SCRIPT_CACHE, hostScript } from "@/lib/mcp/cards/host-script";
import { absoluteExpiry, cardText, pollDelayMs, readConnectLinkInput, readConnectLinkResult, relativeExpiry, type ConnectLinkResult } from "@/lib/mcp/cards/host/model";
import { CARD_MIME_TYPE } from "@/lib/mcp/cards/mcp";
import { CARDS, CONNECT_CARD } from "@/lib/mcp/cards/registry";
import { createTenant, type Tenant } from "../helpers/fixtures";

const MCP_ENDPOINT = "http://localhost:3000/mcp";
const BASE = "http://localhost:3000";
/** Every card version ever published: the registry must serve each of them for good. */
const PUBLISHED = JSON.parse(readFileSync("lib/mcp/cards/published.json", "utf8")) as string[];

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});
afterEach(() => {
  delete process.env.MCP_URL;
  resetEnvForTests();
});

async function connect(headers: Record<string, string> = { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "card-person" }) {
  const fetchRoute = async (url: string | URL, init?: RequestInit) => POST(new Request(url, init));
  const client = new Client({ name: "mcp-card-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP_ENDPOINT), { requestInit: { headers }, fetch: fetchRoute }));
  return client;
}

function htmlOf(read: Awaited<ReturnType<Client["readResource"]>>): string {
  const content = read.contents[0] as { text?: string };
  expect(typeof content.text).toBe("string");
  return content.text!;
}

describe("the card registry", () => {
  it("serves every published version, each under its own id, the current connect card among them", () => {
    const uris = CARDS.map((c) => c.uri);
    expect(new Set(uris).size).toBe(uris.length);
    expect(uris).toEqual(expect.arrayContaining(PUBLISHED));
    expect(PUBLISHED).toContain(CONNECT_CARD.uri);
    expect(CONNECT_CARD.uri).toBe("ui://service/connect/v8.html");
    for (const card of CARDS) expect(card.uri).toMatch(/^ui:\/\/service\/[a-z-]+\/v\d+\.html$/);
  });

  it("renders each version's page naming its own version and the host script", () => {
    for (const card of CARDS) {
      const [, kind, version] = card.uri.match(/^ui:\/\/service\/([a-z-]+)\/v(\d+)\.html$/)!;
      const html = card.html({ hostScriptUrl: `${BASE}/mcp-apps/service-mcp-host.js?v=x`, connectLinkPrefix: `${BASE}/personal-mcp/connect/` });
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain(`data-card="${kind}" data-card-version="${version}"`);
      expect(html).toContain(`<script src="${BASE}/mcp-apps/service-mcp-host.js?v=x"></script>`);
    }
  });
});

describe("the connect card on the developer MCP server", () => {
  it("service_connect names the current card in its _meta (both keys hosts read); no other tool names one", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const connectTool = tools.find((x) => x.name === "service_connect")!;
    expect(connectTool._meta).toEqual({ ui: { resourceUri: "ui://service/connect/v8.html" }, "ui/resourceUri": "ui://service/connect/v8.html" });
    for (const tool of tools.filter((x) => x.name !== "service_connect")) expect(tool._meta?.ui).toBeUndefined();
    await client.close();
  });

  it("lists every registry version as an MCP App resource, with the origins its page needs", async () => {
    const client = await connect();
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(CARDS.map((c) => c.uri));
    for (const resource of resources) {
      expect(resource.mimeType).toBe("text/html;profile=mcp-app");
      expect(resource.mimeType).toBe(CARD_MIME_TYPE);
      expect(resource._meta).toEqual({ ui: { csp: { resourceDomains: [BASE], connectDomains: [BASE] }, prefersBorder: false } });
    }
    await client.close();
  });

  it("reads every registry version: the page, the MIME type, its CSP, and the host script at its current version", async () => {
    const client = await connect();
    const { version } = await hostScript();
    for (const card of CARDS) {
      const read = await client.readResource({ uri: card.uri });
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0]).toMatchObject({ uri: card.uri, mimeType: "text/html;profile=mcp-app" });
      expect(read.contents[0]!._meta).toEqual({ ui: { csp: { resourceDomains: [BASE], connectDomains: [BASE] }, prefersBorder: false } });
      const html = htmlOf(read);
      expect(html).toContain(`<script src="${BASE}/mcp-apps/service-mcp-host.js?v=${version}"></script>`);
      expect(html).toContain(`data-connect-links="${BASE}/personal-mcp/connect/"`);
    }
    await expect(client.readResource({ uri: "ui://service/connect/v0.html" })).rejects.toThrow(/not found/);
    await client.close();
  });

  it("declares MCP_URL's own origin for the status requests when MCP_URL has a host of its own", async () => {
    process.env.MCP_URL = "https://mcp.example.test";
    resetEnvForTests();
    const client = await connect();
    const read = await client.readResource({ uri: CONNECT_CARD.uri });
    expect(read.contents[0]!._meta).toMatchObject({ ui: { csp: { resourceDomains: [BASE], connectDomains: ["https://mcp.example.test"] } } });
    expect(htmlOf(read)).toContain('data-connect-links="https://mcp.example.test/connect/"');
    await client.close();
  });

  it("answers service_connect with the unchanged connect result, which the card reads", async () => {
    const client = await connect();
    const result = (await client.callTool({ name: "service_connect", arguments: { app: "gmail", purpose: "To find your trip bookings." } })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    expect(Object.keys(result.structuredContent!).sort()).toEqual(["connect_url", "expires_at", "instructions", "status"]);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    const read = readConnectLinkResult(result, `${BASE}/personal-mcp/connect/`);
    expect(read).toEqual({ ok: true, result: result.structuredContent });
    // A host passing only the text still gives the card the result.
    expect(readConnectLinkResult({ content: result.content }, `${BASE}/personal-mcp/connect/`)).toEqual(read);
    await client.close();
  });

  it("serves the cards only to a caller the MCP server admits", async () => {
    const res = await POST(
      new Request(MCP_ENDPOINT, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-agent": t.agent.handle },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: CONNECT_CARD.uri } }),
      }),
    );
    expect(res.status).toBe(401);
  });
});

describe("GET /mcp-apps/service-mcp-host.js", () => {
  it("serves the bundled App client as JavaScript to any origin, cached for good under its version", async () => {
    const { version, code } = await hostScript();
    expect(code).toContain("ui/initialize");
    const versioned = await hostScriptRoute(new Request(`${BASE}/mcp-apps/service-mcp-host.js?v=${version}`));
    expect(versioned.status).toBe(200);
    expect(versioned.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(versioned.headers.get("cache-control")).toBe(HOST_SCRIPT_CACHE.versioned);
    expect(versioned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(versioned.headers.get("etag")).toBe(`"${version}"`);
    expect(versioned.headers.get("x-content-type-options")).toBe("nosniff");
    expect(versioned.headers.get("access-control-allow-origin")).toBe("*");
    expect(versioned.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(await versioned.text()).toBe(code);
  });

  it("keeps the bare address and an old version for minutes only, and revalidates by ETag", async () => {
    const { version } = await hostScript();
    for (const url of [`${BASE}/mcp-apps/service-mcp-host.js`, `${BASE}/mcp-apps/service-mcp-host.js?v=older`]) {
      const res = await hostScriptRoute(new Request(url));
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=300, stale-while-revalidate=3600");
    }
    const same = await hostScriptRoute(new Request(`${BASE}/mcp-apps/service-mcp-host.js`, { headers: { "if-none-match": `W/"${version}"` } }));
    expect(same.status).toBe(304);
    expect(await same.text()).toBe("");
    const head = await hostScriptHead(new Request(`${BASE}/mcp-apps/service-mcp-host.js`, { method: "HEAD" }));
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  });
});

describe("what the card shows", () => {
  const prefix = `${BASE}/personal-mcp/connect/`;
  const result: ConnectLinkResult = { status: "connect_app", connect_url: `${prefix}mcc_${"A".repeat(24)}`, expires_at: "2030-01-01T12:00:00.000Z", instructions: "…" };

  it("takes only links under the service's connect address, and a tool error's message", () => {
    expect(readConnectLinkResult({ structuredContent: { ...result, connect_url: "https://evil.example/connect/mcc_x" } }, prefix)).toMatchObject({ ok: false });
    expect(readConnectLinkResult({ structuredContent: { ...result, connect_url: `${prefix}mcc_A/../../x` } }, prefix)).toMatchObject({ ok: false });
    expect(readConnectLinkResult({ structuredContent: { ...result, status: "other" } }, prefix)).toMatchObject({ ok: false });
    expect(
      readConnectLinkResult({ isError: true, content: [{ type: "text", text: JSON.stringify({ error: { code: "rate_limited", message: "Too many requests." } }) }] }, prefix),
    ).toEqual({
      ok: false,
      message: "Too many requests.",
    });
  });

  it("names the app, the permission and the purpose the call asked for, by where the link stands", () => {
    const input = readConnectLinkInput({ app: "gmail", purpose: " Find your bookings. ", user_id: "u1", extra: 3 });
    expect(input).toEqual({ app: "gmail", capability: undefined, purpose: "Find your bookings.", client_name: undefined });
    expect(cardText(result, input, "pending")).toMatchObject({ title: "Connect Gmail", app: "Gmail", purpose: "Find your bookings." });
    expect(cardText(result, input, "approved")).toMatchObject({ title: "You're all set", lead: "Gmail is connected. You can return to the conversation." });
    expect(cardText(result, input, "expired")).toMatchObject({ title: "This link has expired", lead: "Links work for an hour. Ask the assistant for a new one to continue." });
    expect(cardText(result, input, "unknown", { canRenew: true })).toMatchObject({ title: "This link is no longer valid", lead: "Get a new one to continue." });
    const allow = cardText({ ...result, status: "authorization_required" }, { capability: "gmail:send_email" }, "pending");
    expect(allow).toMatchObject({ title: "Sign in to connect Gmail", app: "Gmail", permission: "send email with Gmail" });
    expect(allow.lead).toBe("Open the link to sign in with Profile Service and approve this assistant, then allow it to send email with Gmail.");
    expect(cardText({ ...result, status: "authorization_required" }, { capability: "gmail:send_email" }, "approved").lead).toBe(
      "You signed in and allowed this assistant to send email with Gmail. You can return to the conversation.",
    );
    expect(cardText({ ...result, status: "authorization_required" }, { client_name: "Trailhead" }, "approved").lead).toBe(
      "You signed in and approved Trailhead. You can return to the conversation.",
    );
    expect(cardText({ ...result, status: "import_ready" }, {}, "pending")).toMatchObject({ title: "Add to your profile", app: undefined });
  });

  it("says the expiry relatively and as a time in the person's zone, and asks less often as time passes", () => {
    const now = new Date("2030-01-01T11:00:30.000Z");
    expect(relativeExpiry(new Date(result.expires_at), now, "en")).toBe("in 59 minutes");
    expect(relativeExpiry(new Date("2030-01-01T11:00:10.000Z"), now, "en")).toBe("20 seconds ago");
    expect(absoluteExpiry(new Date(result.expires_at), now, { locale: "en-US", timeZone: "UTC" })).toBe("12:00 PM UTC");
    // Past midnight where the person is: the day too.
    expect(absoluteExpiry(new Date(result.expires_at), now, { locale: "en-US", timeZone: "Etc/GMT+12" })).toBe("Tue, Jan 1, 12:00 AM GMT-12");
    expect(absoluteExpiry(new Date(result.expires_at), now, { locale: "en-US", timeZone: "Not/AZone" })).toMatch(/\d/);
    expect([pollDelayMs(0, 0), pollDelayMs(5 * 60_000, 0), pollDelayMs(20 * 60_000, 0), pollDelayMs(0, 3), pollDelayMs(20 * 60_000, 9)]).toEqual([
      2_000, 5_000, 15_000, 16_000, 30_000,
    ]);
  });
});
