// The developer MCP server with an older official SDK client (1.11, protocol 2025-03-26): it
// initializes at its own protocol version, lists the seven tools (and the connector tools for a linked session) and runs a profile tool with an MCP
// session token, as a client built before the current protocol would.
import { connectorTools, DEVELOPER_TOOLS } from "@/lib/mcp/tools";
import { Client as LegacyClient } from "mcp-sdk-legacy/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "mcp-sdk-legacy/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as developerMcp from "@/app/mcp/route";
import { resolveApiKey } from "@/lib/api-keys/api-keys";
import { mintMcpSession } from "@/lib/profile/mcp-session";
import { createTenant, type Tenant } from "../helpers/fixtures";

const MCP_URL = "http://localhost:3000/mcp";
let t: Tenant;
const realFetch = globalThis.fetch;
const versions: string[] = [];
beforeAll(async () => {
  t = await createTenant();
  // SDK 1.11 has no fetch option: its requests go through the global fetch, routed to the handler here.
  globalThis.fetch = (async (url: string | URL, init?: RequestInit) => {
    const req = new Request(url, init);
    const res = req.method === "POST" ? await developerMcp.POST(req.clone()) : req.method === "DELETE" ? await developerMcp.DELETE() : await developerMcp.GET();
    if (req.method === "POST" && ((await req.json()) as { method?: string }).method === "initialize") {
      versions.push(((await res.clone().json()) as { result: { protocolVersion: string } }).result.protocolVersion);
    }
    return res;
  }) as typeof fetch;
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

describe("an older SDK client on the developer server", () => {
  it("speaks 2025-03-26, lists the seven tools and the connector tools and reads the profile with a session token", async () => {
    const key = (await resolveApiKey(t.keys.sk))!;
    const minted = await mintMcpSession({ key, agent: { id: t.agent.id, handle: t.agent.handle, displayName: "Assistant" }, externalId: "user-live" });
    const client = new LegacyClient({ name: "old-agent", version: "0.1.0" });
    await client.connect(
      new LegacyTransport(new URL(MCP_URL), { requestInit: { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, authorization: `Bearer ${minted.session.token}` } } }),
    );
    expect(client.getServerVersion()?.name).toBe("profile-service");
    const { tools } = await client.listTools();
    // A linked session carries a user: the seven tools and the connector tools.
    const names = tools.map((x: { name: string }) => x.name);
    expect(names).toEqual([...DEVELOPER_TOOLS, ...connectorTools()].map((x) => x.name));
    expect(names.slice(0, 7)).toEqual([
      "service_connect",
      "service_profile_read",
      "service_profile_search",
      "service_profile_remember",
      "service_profile_forget",
      "service_profile_commit",
      "service_profile_import",
    ]);
    expect(names).toEqual(
      expect.arrayContaining([
        "service_gmail_search",
        "service_email_send",
        "service_calendar_get",
        "service_calendar_create_event",
        "service_drive_search",
        "service_notion_search",
      ]),
    );
    const read = (await client.callTool({ name: "service_profile_read", arguments: {} })) as { isError?: boolean; structuredContent?: { linked?: boolean } };
    expect(read.isError ?? false).toBe(false);
    expect(read.structuredContent?.linked).toBe(true);
    // The version the server agreed to at initialize: the client's own.
    expect(versions).toEqual(["2025-03-26"]);
    await client.close();
  });
});
