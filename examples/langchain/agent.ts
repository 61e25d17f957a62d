// One conversation's profile tools through LangChain.js: the developer's server mints an MCP session
// with its secret key, and @langchain/mcp-adapters' MultiServerMCPClient turns the server the service
// named in mcp_servers into LangChain tools. A model bound to them (or createAgent({ tools })) calls the
// same tools; here they are invoked directly (no model): the profile read at the start of the turn, the
// commit at its end.
import { MultiServerMCPClient } from "@langchain/mcp-adapters";

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
const server = mcp_servers[0]!;
console.log(`mcp session: ok (linked: ${linked}, until ${session.expires_at})`);

// 2. One server for the client, named as the service names it, its token the only credential.
const client = new MultiServerMCPClient({
  mcpServers: {
    [server.name]: { transport: "http", url: server.url, headers: { Authorization: `Bearer ${server.authorization_token}` } },
  },
  throwOnLoadError: true,
});
try {
  const tools = await client.getTools();
  console.log(`connected: ${server.name} at ${server.url}`);
  console.log(`tools: ${tools.map((t) => t.name).join(", ")}`);

  /** Invokes one tool as a LangChain agent's tool node would, and answers its JSON (a failing tool throws). */
  async function invoke(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw new Error(`${server.name} lists no tool ${name}.`);
    const content = (await tool.invoke(args)) as unknown;
    // One text block comes back as the text, or as the block carrying the server's structuredContent.
    if (typeof content === "string") return JSON.parse(content) as Record<string, unknown>;
    const block = content as { text?: string; structuredContent?: Record<string, unknown> };
    return block.structuredContent ?? (JSON.parse(block.text ?? "null") as Record<string, unknown>);
  }

  // 3. The turn: read the profile, answer (a model would, with the profile in its context), commit.
  const profile = (await invoke("service_profile_read", { sections: ["identity", "preferences", "summary"] })) as {
    identity?: { name?: string };
    preferences?: string[];
  };
  console.log(`read: ok (${profile.identity?.name ?? "no name"}; ${(profile.preferences ?? []).length} preferences)`);
  const committed = (await invoke("service_profile_commit", {
    messages: [{ role: "user", content: "Suggest a vegetarian dinner I can cook tonight." }],
    response: "Try a mushroom and miso risotto, without cilantro.",
    memories: [{ text: "Cooks dinner at home most evenings" }],
    sync: true,
  })) as { commit_id: string; status: string; memories_written?: number; rejected_memories?: unknown[] };
  const { commit_id, status, memories_written = 0, rejected_memories = [] } = committed;
  console.log(`commit: ok (${commit_id}, ${status}; memories written: ${memories_written}, already known: ${rejected_memories.length})`);
} finally {
  await client.close();
}
