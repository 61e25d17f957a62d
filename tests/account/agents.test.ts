// Revoking an approved agent from the account page: every credential of that agent for this person
// stops working at once (agent token, MCP session, OpenID Connect access and refresh tokens, connect
// link), other agents and other people keep theirs, and another person's revoke changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import * as developerMcp from "@/app/mcp/route";
import * as profileRoute from "@/app/v1/profile/route";
import { approvedAgents, revokeAgent } from "@/lib/account/agents";
import { resolveApiKey } from "@/lib/api-keys/api-keys";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { mintConnectLink } from "@/lib/connect-links/links";
import { openConnectLink } from "@/lib/flow/ways-in/connect";
import { mintMcpSession } from "@/lib/profile/mcp-session";
import { isApproved } from "@/lib/users/approvals";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { exchange, registerClient, tokenCall } from "../helpers/oauth";

let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant(undefined, "other-agent");
});

const readProfile = (x: Tenant, bearer: string) => call(profileRoute.GET, { headers: { "x-api-key": x.keys.sk, "x-agent": x.agent.handle, authorization: `Bearer ${bearer}` } });

async function mcpRead(x: Tenant, session: string) {
  const res = await developerMcp.POST(
    new Request("http://localhost:3000/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-api-key": x.keys.sk,
        "x-agent": x.agent.handle,
        authorization: `Bearer ${session}`,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "service_profile_read", arguments: {} } }),
    }),
  );
  return JSON.stringify(await res.json());
}

describe("approved agents", () => {
  it("lists the agents the person approved, and not another person's", async () => {
    const list = await approvedAgents(t.users.live.id);
    expect(list.map((a) => a.agentId)).toEqual([t.agent.id]);
    expect(list[0]).toMatchObject({ displayName: "Assistant" });
  });
});

describe("revoking an agent", () => {
  it("stops its agent token, MCP session, OpenID Connect tokens and connect links at once", async () => {
    const u = t.users.live.id;
    const agentToken = (await issueAgentToken({ userId: u, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" })).token;
    const key = (await resolveApiKey(t.keys.sk))!;
    const session = (await mintMcpSession({ key, agent: { id: t.agent.id, handle: t.agent.handle, displayName: "Assistant" }, externalId: "user-live" })).session.token;
    const { client_id } = await registerClient(t);
    const oidc = await exchange(client_id, u);
    const link = await mintConnectLink({ developerId: t.developer.id, plane: "live", agent: { id: t.agent.id }, userId: u, externalId: null });
    const linkId = new URL(link.connect_url).pathname.split("/").pop()!;

    // Each works before.
    expect((await readProfile(t, agentToken)).status).toBe(200);
    expect((await readProfile(t, oidc.access_token)).status).toBe(200);
    const before = await mcpRead(t, session);
    expect(before).toContain("Live Person");
    expect(await openConnectLink({ linkId, sessionUserId: null, ip: "127.0.0.1" })).toHaveProperty("flow");

    // Another person cannot revoke this person's approval.
    await expect(revokeAgent({ userId: other.users.live.id, agentId: t.agent.id })).rejects.toMatchObject({ code: "not_found" });
    expect(await isApproved({ userId: u, agentId: t.agent.id })).toBe(true);

    await revokeAgent({ userId: u, agentId: t.agent.id });
    expect(await approvedAgents(u)).toEqual([]);

    const byToken = await readProfile(t, agentToken);
    expect(byToken.status).toBe(403);
    expect(byToken.body.error.code).toBe("agent_not_approved");
    const byAccess = await readProfile(t, oidc.access_token);
    expect(byAccess.status).toBe(401);
    const refreshed = await tokenCall({ grant_type: "refresh_token", refresh_token: oidc.refresh_token, client_id });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe("invalid_grant");
    const after = await mcpRead(t, session);
    expect(after).not.toContain("Live Person");
    expect(await openConnectLink({ linkId, sessionUserId: null, ip: "127.0.0.1" })).toEqual({ refused: "expired" });

    // Revoking again: nothing left to revoke.
    await expect(revokeAgent({ userId: u, agentId: t.agent.id })).rejects.toMatchObject({ code: "not_found" });
  });

  it("leaves the other person's approval of their agent untouched, and refuses a malformed id", async () => {
    expect(await isApproved({ userId: other.users.live.id, agentId: other.agent.id })).toBe(true);
    await expect(revokeAgent({ userId: other.users.live.id, agentId: "not-a-uuid" })).rejects.toMatchObject({ code: "not_found" });
    const token = (await issueAgentToken({ userId: other.users.live.id, developerId: other.developer.id, agentId: other.agent.id, agent: other.agent.handle, plane: "live" }))
      .token;
    expect((await readProfile(other, token)).status).toBe(200);
  });
});
