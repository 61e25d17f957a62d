// The developer MCP server's listing rule: the connector tools are listed only to a request carrying a
// linked-user token (a linked MCP session, an agent token, an OpenID Connect access token), never to
// X-User-Id, an unlinked session or a request naming nobody. Checked over every credential a caller
// can present, with a connector-shaped tool in the list the rule is given.
import { beforeAll, describe, expect, it } from "vitest";
import { resolveApiKey } from "@/lib/api-keys/api-keys";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { authenticateMcpCaller } from "@/lib/mcp/caller";
import { carriesLinkedUserToken, toolsFor } from "@/lib/mcp/server";
import { connectorTools, DEVELOPER_TOOLS, type Tool } from "@/lib/mcp/tools";
import { mintMcpSession } from "@/lib/profile/mcp-session";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { exchange, registerClient } from "../helpers/oauth";

let t: Tenant;
const bearers: Record<string, string> = {};
beforeAll(async () => {
  t = await createTenant();
  const key = (await resolveApiKey(t.keys.sk))!;
  const agent = { id: t.agent.id, handle: t.agent.handle, displayName: "Assistant" };
  bearers.linkedSession = (await mintMcpSession({ key, agent, externalId: "user-live" })).session.token;
  bearers.unlinkedSession = (await mintMcpSession({ key, agent, externalId: "user-unapproved" })).session.token;
  bearers.agentToken = (await issueAgentToken({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" })).token;
  bearers.accessToken = (await exchange((await registerClient(t)).client_id, t.users.live.id)).access_token;
});

function request(extra: Record<string, string>) {
  return new Request("http://localhost:3000/mcp", { method: "POST", headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, ...extra } });
}

const connectorShaped: Tool = { ...DEVELOPER_TOOLS[1]!, name: "service_gmail_search" };

describe("toolsFor", () => {
  const cases: Array<[string, () => Record<string, string>, boolean]> = [
    ["a linked MCP session", () => ({ authorization: `Bearer ${bearers.linkedSession}` }), true],
    ["an agent token", () => ({ authorization: `Bearer ${bearers.agentToken}` }), true],
    ["an OpenID Connect access token", () => ({ authorization: `Bearer ${bearers.accessToken}` }), true],
    ["an unlinked MCP session", () => ({ authorization: `Bearer ${bearers.unlinkedSession}` }), false],
    ["X-User-Id", () => ({ "x-user-id": "user-live" }), false],
    ["nobody named", () => ({}), false],
  ];

  it.each(cases)("%s: linked-user token %s", async (_name, headers, linked) => {
    const caller = await authenticateMcpCaller(request(headers()));
    expect(carriesLinkedUserToken(caller)).toBe(linked);
    const listed = toolsFor(caller, [connectorShaped]).map((x) => x.name);
    expect(listed.slice(0, 7)).toEqual(DEVELOPER_TOOLS.map((x) => x.name));
    expect(listed.includes("service_gmail_search")).toBe(linked);
    // With the connector tools served today, every caller lists the seven.
    expect(toolsFor(caller)).toEqual([...DEVELOPER_TOOLS, ...(linked ? connectorTools() : [])]);
  });
});
