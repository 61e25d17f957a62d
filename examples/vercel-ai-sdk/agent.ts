// One conversation's profile tools through the Vercel AI SDK's MCP client: the developer's server mints
// an MCP session with its secret key, and the AI SDK connects to the server the service named in
// mcp_servers. The tools it lists are the ones generateText or streamText would be given; here they are
// executed directly (no model): the profile read at the start of the turn, the commit at its end.
import { createMCPClient } from "@ai-sdk/mcp";

// eslint-disable-next-line no-restricted-properties -- an example app is configured by its own environment
const { SERVICE_URL = "http://localhost:3000", SECRET_KEY, AGENT, USER_ID } = process.env;
if (!SECRET_KEY || !AGENT || !USER_ID) throw new Error("Set SECRET_KEY (sk_…), AGENT (the agent's handle) and USER_ID (your id for the person).");

interface McpSession {
  linked: boolean;
  session: { token: string; expires_at: string };
  mcp_servers: { type: "url"; url: string; name: string; authorization_token: string }[];
}
interface ToolAnswer {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
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

// 2. The AI SDK's client on the server the service named, with its token as the only credential.
const client = await createMCPClient({
  clientName: "vercel-ai-sdk-example",
  transport: { type: "http", url: server.url, headers: { Authorization: `Bearer ${server.authorization_token}` } },
});
try {
  const tools = await client.tools();
  console.log(`connected: ${server.name} at ${server.url}`);
  console.log(`tools: ${Object.keys(tools).join(", ")}`);

  /** Runs one tool as the AI SDK runs it for a model's tool call, and answers its JSON. */
  async function run(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const tool = tools[name];
    if (!tool?.execute) throw new Error(`${server.name} lists no tool ${name}.`);
    const answer = (await tool.execute(args, { toolCallId: `call-${name}`, messages: [] })) as ToolAnswer;
    const text = (answer.content ?? []).map((c) => c.text ?? "").join("\n");
    if (answer.isError) throw new Error(`${name} failed: ${text}`);
    return answer.structuredContent ?? (JSON.parse(text) as Record<string, unknown>);
  }

  // 3. The turn: read the profile, answer (a model would, with the profile in its context), commit.
  const profile = (await run("service_profile_read", { sections: ["identity", "preferences", "summary"] })) as {
    identity?: { name?: string };
    preferences?: string[];
  };
  console.log(`read: ok (${profile.identity?.name ?? "no name"}; ${(profile.preferences ?? []).length} preferences)`);
  const committed = (await run("service_profile_commit", {
    messages: [{ role: "user", content: "Can you find me a trail race this autumn?" }],
    response: "Here are three autumn trail races near Lisbon.",
    memories: [{ text: "Wants to run a trail race this autumn" }],
    sync: true,
  })) as { commit_id: string; status: string; memories_written?: number; rejected_memories?: unknown[] };
  const { commit_id, status, memories_written = 0, rejected_memories = [] } = committed;
  console.log(`commit: ok (${commit_id}, ${status}; memories written: ${memories_written}, already known: ${rejected_memories.length})`);
} finally {
  await client.close();
}
