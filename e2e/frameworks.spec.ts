// The agent-framework examples (examples/vercel-ai-sdk, examples/openai-agents, examples/langchain), run
// as a developer runs them against the production server: each mints an MCP session with the sandbox's
// secret key, connects with its framework's own MCP client to the server named in mcp_servers, lists
// the tools, reads the profile and commits the turn. What each prints is checked against what the
// service answers over REST and plain JSON-RPC, and the committed memory is found in the profile after.
// The docs page /docs/mcp-sessions is followed the same way: its commands run in a shell as written, and
// its mcp_servers mappings for Anthropic's and OpenAI's APIs reach the server with the header they send.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { noSeriousViolations } from "./support/pages";

const run = promisify(execFile);
const TSX = "node_modules/tsx/dist/cli.mjs";

/** service_connect and the six profile tools, in the order every caller of the developer MCP server lists them. */
const DEVELOPER_TOOLS = [
  "service_connect",
  "service_profile_read",
  "service_profile_search",
  "service_profile_remember",
  "service_profile_forget",
  "service_profile_commit",
  "service_profile_import",
];

/** Each example, and the memory its turn commits. */
const EXAMPLES = [
  { dir: "vercel-ai-sdk", framework: "the Vercel AI SDK (@ai-sdk/mcp)", memory: "Wants to run a trail race this autumn" },
  { dir: "openai-agents", framework: "the OpenAI Agents SDK (MCPServerStreamableHttp)", memory: "Prefers quiet hotels when travelling" },
  { dir: "langchain", framework: "LangChain.js (MultiServerMCPClient)", memory: "Cooks dinner at home most evenings" },
] as const;

interface Sandbox {
  secret_key: string;
  agent: { handle: string };
  user: { external_id: string };
}

interface McpServerEntry {
  type: string;
  url: string;
  name: string;
  authorization_token: string;
}

async function provision(request: APIRequestContext): Promise<Sandbox> {
  const provisioned = await request.post("/v1/sandbox/provision");
  expect(provisioned.status()).toBe(201);
  return (await provisioned.json()) as Sandbox;
}

/** A plain JSON-RPC tools/list at `url` with these headers alone: the tools' names. */
async function toolsListed(request: APIRequestContext, url: string, headers: Record<string, string>): Promise<string[]> {
  const listed = await request.post(url, {
    headers: { ...headers, accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
  });
  expect(listed.status()).toBe(200);
  return ((await listed.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
}

/** The tools a plain JSON-RPC tools/list shows to a session of the same person, sent with its token alone. */
async function listedTools(request: APIRequestContext, headers: Record<string, string>): Promise<string[]> {
  const minted = await request.post("/v1/profile/mcp-session", { headers, data: {} });
  expect(minted.status()).toBe(200);
  const [server] = ((await minted.json()) as { mcp_servers: McpServerEntry[] }).mcp_servers;
  return toolsListed(request, server!.url, { authorization: `Bearer ${server!.authorization_token}` });
}

/** The text of one of a docs page's code blocks. */
async function block(page: Page, id: string): Promise<string> {
  return page.getByTestId(id).innerText();
}

for (const example of EXAMPLES) {
  test(`examples/${example.dir}: ${example.framework} lists the session's tools, reads the profile and commits the turn`, async ({ request, baseURL }) => {
    const sandbox = await provision(request);
    const headers = { "x-api-key": sandbox.secret_key, "x-agent": sandbox.agent.handle, "x-user-id": sandbox.user.external_id };
    const rest = await request.get("/v1/profile?sections=identity,preferences,summary", { headers });
    expect(rest.status()).toBe(200);
    const profile = (await rest.json()) as { identity: { name: string }; preferences: string[] };

    const { stdout, stderr } = await run(process.execPath, [TSX, `examples/${example.dir}/agent.ts`], {
      env: { ...process.env, SERVICE_URL: baseURL!, SECRET_KEY: sandbox.secret_key, AGENT: sandbox.agent.handle, USER_ID: sandbox.user.external_id },
    });
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^mcp session: ok \(linked: true, until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\)$/);
    expect(lines[1]).toBe(`connected: profile-service at ${baseURL}/mcp`);

    // The framework lists what the server lists for a linked session: the seven tools, then the connector tools.
    const tools = lines[2]!.replace(/^tools: /, "").split(", ");
    expect(tools.slice(0, DEVELOPER_TOOLS.length)).toEqual(DEVELOPER_TOOLS);
    expect(tools).toContain("service_gmail_search");
    expect(tools).toEqual(await listedTools(request, headers));

    // The read tool answered the profile the REST API answers for the same person.
    expect(profile.preferences.length).toBeGreaterThan(0);
    expect(lines[3]).toBe(`read: ok (${profile.identity.name}; ${profile.preferences.length} preferences)`);

    // The commit ran inline and wrote the turn's memory, which the profile now holds under the agent.
    expect(lines[4]).toMatch(/^commit: ok \([0-9a-f-]{36}, completed; memories written: 1, already known: 0\)$/);
    const found = await request.get(`/v1/profile/search?query=${encodeURIComponent(example.memory)}`, { headers });
    expect(found.status()).toBe(200);
    const { results } = (await found.json()) as { results: { text: string; written_by: string }[] };
    expect(results).toContainEqual(expect.objectContaining({ text: example.memory, written_by: `agents/${sandbox.agent.handle}` }));

    expect(stderr).toBe("");
  });
}

test("/docs/mcp-sessions: the mint command runs as shown and answers the page's mcp_servers, which Anthropic's and OpenAI's mappings and each framework's command use", async ({
  page,
  request,
  baseURL,
}) => {
  await page.goto("/docs");
  const docs = page.getByRole("navigation", { name: "Docs pages" });
  await docs.getByRole("link", { name: "MCP sessions" }).click();
  await expect(page).toHaveURL(/\/docs\/mcp-sessions$/);
  await expect(page).toHaveTitle("MCP sessions · Profile Service");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("MCP sessions");
  await expect(docs.getByRole("link", { name: "MCP sessions" })).toHaveAttribute("aria-current", "page");
  await noSeriousViolations(page);

  // The page's mint command, run in a shell with the values it names, answers what the page shows.
  const sandbox = await provision(request);
  const shell = { ...process.env, SK: sandbox.secret_key, AGENT: sandbox.agent.handle, USER_ID: sandbox.user.external_id };
  const minted = JSON.parse((await run("sh", ["-c", await block(page, "mint")], { env: shell })).stdout) as Record<string, unknown> & {
    linked: boolean;
    session: Record<string, unknown>;
    mcp_servers: McpServerEntry[];
  };
  const shown = JSON.parse(await block(page, "mint-answer")) as typeof minted;
  expect(Object.keys(minted).sort()).toEqual(Object.keys(shown).sort());
  expect(Object.keys(minted.session).sort()).toEqual(Object.keys(shown.session).sort());
  expect(minted).toMatchObject({ linked: true, mcp_url: shown.mcp_url });
  expect(minted.mcp_servers).toHaveLength(1);
  const [server] = minted.mcp_servers;
  expect(server).toEqual({ ...shown.mcp_servers[0], authorization_token: minted.session.token });
  expect(server!.url).toBe(`${baseURL}/mcp`);

  // Anthropic's Messages API takes mcp_servers unchanged, a toolset per server, and sends the token as a Bearer token.
  const anthropic = await block(page, "anthropic");
  expect(anthropic).toContain('"anthropic-beta": "mcp-client-2025-11-20"');
  expect(anthropic).toMatch(/^\s+mcp_servers,$/m);
  expect(anthropic).toContain('tools: mcp_servers.map((server) => ({ type: "mcp_toolset", mcp_server_name: server.name }))');
  // OpenAI's Responses API: one remote MCP tool per entry, the token in the Authorization header.
  const openai = await block(page, "openai");
  for (const line of ['type: "mcp",', "server_label: server.name,", "server_url: server.url,", "headers: { Authorization: `Bearer ${server.authorization_token}` },"]) {
    expect(openai).toContain(line);
  }
  // What either API then sends reaches the session's person's tools, with no other header.
  const listed = await toolsListed(request, server!.url, { Authorization: `Bearer ${server!.authorization_token}` });
  expect(listed.slice(0, DEVELOPER_TOOLS.length)).toEqual(DEVELOPER_TOOLS);

  // Each framework's command, as the page gives it, from the repository root.
  for (const example of EXAMPLES) {
    const command = await block(page, `run-${example.dir}`);
    expect(command).toBe(`SERVICE_URL=${baseURL} SECRET_KEY=$SK AGENT=$AGENT USER_ID=$USER_ID \\
  npx tsx examples/${example.dir}/agent.ts`);
    const { stdout } = await run("sh", ["-c", command], { env: shell });
    expect(stdout).toContain(`connected: profile-service at ${baseURL}/mcp`);
    expect(stdout).toMatch(/^read: ok \([^;]+; \d+ preferences\)$/m);
    expect(stdout).toMatch(/^commit: ok \([0-9a-f-]{36}, completed; memories written: 1, already known: 0\)$/m);
  }
});
