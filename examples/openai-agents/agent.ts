// One conversation's profile tools through the OpenAI Agents SDK: the developer's server mints an MCP
// session with its secret key, and the SDK's MCPServerStreamableHttp connects to the server the service
// named in mcp_servers. An Agent given this server (mcpServers: [server]) lists and calls the same tools;
// here they are called directly (no model): the profile read at the start of the turn, the commit at its end.
import { MCPServerStreamableHttp } from "@openai/agents";

// eslint-disable-next-line no-restricted-properties -- an example app is configured by its own environment
const { SERVICE_URL = "http://localhost:3000", SECRET_KEY, AGENT, USER_ID } = process.env;
if (!SECRET_KEY || !AGENT || !USER_ID) throw new Error("Set SECRET_KEY (sk_…), AGENT (the agent's handle) and USER_ID (your id for the person).");

interface McpSession {
  linked: boolean;
  session: { token: string; expires_at: string };
  mcp_servers: { type: "url"; url: string; name: string; authorization_token: string }[];
}

// 1. One MCP session for this conversation (15 minutes), minted on the server with the secret key.
const minted = await fetch(`${SERVICE_URL}/v1/profile/mcp-session`, {
  method: "POST",
  headers: { "X-API-Key": SECRET_KEY, "X-Agent": AGENT, "X-User-Id": USER_ID, "Content-Type": "application/json" },
  body: "{}",
});
if (!minted.ok) throw new Error(`POST /v1/profile/mcp-session answered ${minted.status}: ${await minted.text()}`);
const { linked, session, mcp_servers } = (await minted.json()) as McpSession;
const entry = mcp_servers[0]!;
console.log(`mcp session: ok (linked: ${linked}, until ${session.expires_at})`);

// 2. The Agents SDK's Streamable HTTP server on the address the service named, its token the only credential.
const server = new MCPServerStreamableHttp({
  name: entry.name,
  url: entry.url,
  requestInit: { headers: { Authorization: `Bearer ${entry.authorization_token}` } },
  // A tool's failure is thrown here rather than turned into text for a model.
  errorFunction: null,
});
await server.connect();
try {
  const tools = await server.listTools();
  console.log(`connected: ${server.name} at ${entry.url}`);
  console.log(`tools: ${tools.map((t) => t.name).join(", ")}`);

  /** Calls one tool as an agent run would, and answers its JSON (callTool's content carries isError and structuredContent). */
  async function call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const content = await server.callTool(name, args);
    const text = content.map((c) => (c.type === "text" ? String(c.text) : "")).join("\n");
    if (content.isError) throw new Error(`${name} failed: ${text}`);
    return content.structuredContent ?? (JSON.parse(text) as Record<string, unknown>);
  }

  // 3. The turn: read the profile, answer (a model would, with the profile in its context), commit.
  const profile = (await call("service_profile_read", { sections: ["identity", "preferences", "summary"] })) as {
    identity?: { name?: string };
    preferences?: string[];
  };
  console.log(`read: ok (${profile.identity?.name ?? "no name"}; ${(profile.preferences ?? []).length} preferences)`);
  const committed = (await call("service_profile_commit", {
    messages: [{ role: "user", content: "Book me a quiet hotel in Kyoto for April." }],
    response: "Here are three quiet ryokan in Kyoto with rooms in April.",
    memories: [{ text: "Prefers quiet hotels when travelling" }],
    sync: true,
  })) as { commit_id: string; status: string; memories_written?: number; rejected_memories?: unknown[] };
  const { commit_id, status, memories_written = 0, rejected_memories = [] } = committed;
  console.log(`commit: ok (${commit_id}, ${status}; memories written: ${memories_written}, already known: ${rejected_memories.length})`);
} finally {
  await server.close();
}
