// Driving connector tools on the developer MCP server with the MCP SDK client, as an agent would.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import { POST as mcpPost } from "@/app/mcp/route";

/** An SDK client connected to {BASE_URL}/mcp with these headers (the route handler serves its requests). */
export async function mcpClient(headers: Record<string, string>, name = "connector-tools-test"): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost:3000/mcp"), {
    requestInit: { headers },
    fetch: async (url: string | URL, init?: RequestInit) => mcpPost(new Request(url, init)),
  });
  await client.connect(transport);
  return client;
}

/** A tool call on MCP: its structured answer (the same as its text), or its error object. */

export async function mcpCall(client: Client, name: string, args: Record<string, unknown>): Promise<{ ok: boolean; body: any }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  if (r.isError) return { ok: false, body: (JSON.parse(text) as { error: unknown }).error };
  expect(JSON.parse(text)).toEqual(r.structuredContent);
  return { ok: true, body: r.structuredContent };
}
