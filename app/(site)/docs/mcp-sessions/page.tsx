// MCP sessions (/docs/mcp-sessions): one short-lived session per conversation, minted on the developer's
// server, and its mcp_servers value handed as given to Anthropic's Messages API and OpenAI's Responses
// API; the agent-framework examples connect to the same server. The addresses and the server's name are
// this service's own.
import type { Metadata } from "next";
import Link from "next/link";
import { SiteFooter } from "@/components/site-footer";
import { SiteHeader } from "@/components/site-header";
import { DocsHero } from "@/components/site/docs-hero";
import { Code, CodeBlock, DocsBody, LINK, P, Section, Table } from "@/components/site/docs-parts";
import { MCP_SESSION_TTL_SECONDS } from "@/lib/bearer-tokens/mcp-session";
import { env } from "@/lib/env";
import { developerMcpUrl, MCP_SERVER_NAME } from "@/lib/profile/mcp-session";
import { COMMIT_GATE_SECONDS } from "@/lib/profile/obligation";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "MCP sessions",
  description: "Mint an MCP session per conversation and hand its mcp_servers value to Anthropic's Messages API, OpenAI's Responses API or an agent framework.",
};

const SECTIONS = [
  { id: "mint", title: "Mint a session" },
  { id: "anthropic", title: "Anthropic Messages API" },
  { id: "openai", title: "OpenAI Responses API" },
  { id: "frameworks", title: "Agent frameworks" },
  { id: "rules", title: "What the server checks" },
] as const;

/** The agent-framework examples in the repository, each run with one command from its root. */
const FRAMEWORKS = [
  { dir: "vercel-ai-sdk", name: "Vercel AI SDK", client: "createMCPClient from @ai-sdk/mcp" },
  { dir: "openai-agents", name: "OpenAI Agents SDK", client: "MCPServerStreamableHttp from @openai/agents" },
  { dir: "langchain", name: "LangChain.js", client: "MultiServerMCPClient from @langchain/mcp-adapters" },
] as const;

export default function McpSessionsPage() {
  const base = env().BASE_URL.replace(/\/+$/, "");
  const mcpUrl = developerMcpUrl();
  const minutes = MCP_SESSION_TTL_SECONDS / 60;

  const mint = `curl -s -X POST ${base}/v1/profile/mcp-session \\
  -H "X-API-Key: $SK" \\
  -H "X-Agent: $AGENT" \\
  -H "X-User-Id: $USER_ID"`;
  const answer = `{
  "ok": true,
  "linked": true,
  "continued": false,
  "session": { "token": "eyJ…", "expires_at": "…" },
  "mcp_url": "${mcpUrl}",
  "mcp_servers": [
    { "type": "url", "url": "${mcpUrl}", "name": "${MCP_SERVER_NAME}", "authorization_token": "eyJ…" }
  ],
  "livemode": true
}`;
  const anthropic = `// mcp_servers: the value POST /v1/profile/mcp-session answered, unchanged.
const response = await fetch("https://api.anthropic.com/v1/messages", {
  method: "POST",
  headers: {
    "x-api-key": ANTHROPIC_API_KEY,
    "anthropic-version": "2023-06-01",
    "anthropic-beta": "mcp-client-2025-11-20",
    "content-type": "application/json",
  },
  body: JSON.stringify({
    model: MODEL, // a Claude model
    max_tokens: 1024,
    messages: [{ role: "user", content: "Plan my weekend." }],
    mcp_servers,
    tools: mcp_servers.map((server) => ({ type: "mcp_toolset", mcp_server_name: server.name })),
  }),
});`;
  const openai = `// mcp_servers: the value POST /v1/profile/mcp-session answered.
const response = await fetch("https://api.openai.com/v1/responses", {
  method: "POST",
  headers: { authorization: \`Bearer \${OPENAI_API_KEY}\`, "content-type": "application/json" },
  body: JSON.stringify({
    model: MODEL, // an OpenAI model
    input: "Plan my weekend.",
    tools: mcp_servers.map((server) => ({
      type: "mcp",
      server_label: server.name,
      server_url: server.url,
      headers: { Authorization: \`Bearer \${server.authorization_token}\` },
      require_approval: "never",
    })),
  }),
});`;
  const run = (dir: string) => `SERVICE_URL=${base} SECRET_KEY=$SK AGENT=$AGENT USER_ID=$USER_ID \\
  npx tsx examples/${dir}/agent.ts`;

  return (
    <>
      <SiteHeader current="docs" />
      <main id="main" tabIndex={-1} className="focus:outline-none">
        <DocsHero title="MCP sessions" width="max-w-6xl" current="mcp-sessions">
          Give a model the person&rsquo;s profile tools for one conversation: your server mints a {minutes}-minute MCP session with its secret key, and the LLM API or agent
          framework connects to the server the session names. The secret key never leaves your server.
        </DocsHero>

        <DocsBody sections={SECTIONS}>
          <Section id="mint" title="Mint a session">
            <P>
              Once per conversation, on your server, with your secret key, your agent&rsquo;s handle and your own id for the person (linked to them and approved for the agent). The
              body is optional: <Code>{'{ "previous_token": "…" }'}</Code> continues the conversation&rsquo;s last session.
            </P>
            <CodeBlock label="Mint a session" code={mint} testId="mint" />
            <CodeBlock label="Answer" code={answer} testId="mint-answer" />
            <P>
              <Code>mcp_servers</Code> is ready for an LLM API: its <Code>url</Code> is this service&rsquo;s MCP server and its <Code>authorization_token</Code> is the session
              token, which the server takes as <Code>Authorization: Bearer &lt;token&gt;</Code> with no other header. <Code>linked: false</Code> means the person has not approved
              the agent: the session still works, but only <Code>service_connect</Code> runs.
            </P>
          </Section>

          <Section id="anthropic" title="Anthropic Messages API">
            <P>
              Pass <Code>mcp_servers</Code> as it is, with the MCP connector&rsquo;s beta header, and one <Code>mcp_toolset</Code> per server in <Code>tools</Code>. Anthropic sends
              the <Code>authorization_token</Code> as a Bearer token, which is all the server needs.
            </P>
            <CodeBlock label="Messages API" code={anthropic} testId="anthropic" />
          </Section>

          <Section id="openai" title="OpenAI Responses API">
            <P>
              Each entry becomes a remote MCP tool: <Code>name</Code> is its <Code>server_label</Code>, <Code>url</Code> its <Code>server_url</Code>, and the token goes in an{" "}
              <Code>Authorization</Code> header. <Code>allowed_tools</Code> narrows the tools the model sees, for example to <Code>service_profile_read</Code> and{" "}
              <Code>service_profile_commit</Code>.
            </P>
            <CodeBlock label="Responses API" code={openai} testId="openai" />
            <P>
              Both APIs call the server from their own infrastructure, so it must be reachable from the internet over https: the session&rsquo;s <Code>url</Code> is this
              service&rsquo;s <Code>BASE_URL</Code> followed by <Code>/mcp</Code>.
            </P>
          </Section>

          <Section id="frameworks" title="Agent frameworks">
            <P>
              A framework&rsquo;s own MCP client connects to the same <Code>url</Code> with the same header. The repository&rsquo;s examples mint a session, list the tools, read
              the profile and commit the turn, without a model; each runs with one command from the repository root.
            </P>
            <Table
              caption="Agent framework examples"
              head={["Framework", "MCP client", "Example"]}
              rows={FRAMEWORKS.map((f) => [f.name, f.client, <Code key="c">{`examples/${f.dir}`}</Code>])}
            />
            {FRAMEWORKS.map((f) => (
              <CodeBlock key={f.dir} label={f.name} code={run(f.dir)} testId={`run-${f.dir}`} />
            ))}
          </Section>

          <Section id="rules" title="What the server checks">
            <ul className="list-disc space-y-2 pl-6 text-base leading-7 text-slate-700">
              <li>
                A session lasts {minutes} minutes from its mint; minting again with <Code>previous_token</Code> gives a fresh {minutes} minutes and keeps the conversation&rsquo;s
                read and commit together. An expired session answers <Code>401</Code> with <Code>suggested_action: &quot;reauthenticate&quot;</Code>: mint another.
              </li>
              <li>
                The token names one developer account, key plane, agent and person. Every call checks that the minting key is still active and neither revoked nor rotated, and that
                the person still approves the agent.
              </li>
              <li>
                A read opens an obligation to commit the turn with <Code>service_profile_commit</Code>; an agent that reads for {COMMIT_GATE_SECONDS / 60} minutes without
                committing is refused with code <Code>-32009</Code> until it commits.
              </li>
            </ul>
            <P>
              The{" "}
              <Link href="/docs/api" className={LINK}>
                API reference
              </Link>{" "}
              has the mint&rsquo;s full contract, and the{" "}
              <Link href="/docs/client" className={LINK}>
                client library
              </Link>{" "}
              mints sessions with <Code>mcpSession</Code>.
            </P>
          </Section>
        </DocsBody>
      </main>
      <SiteFooter />
    </>
  );
}
