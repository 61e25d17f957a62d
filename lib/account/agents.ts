// The agents the person approved (with the developer behind each and the apps the person gave it), taking
// one app back from one agent, and revoking an agent at once from the account page: the approval, the
// agent's OpenID Connect and MCP grants for this person, unused authorization codes, capability
// grants and open connect links all end in one transaction.
import { z } from "zod";
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import { inTransaction } from "../profile/memories";
import { revokeChain } from "../oidc/tokens";
import { clearUserAccessCache } from "../users/approvals";
import { AccountError } from "./errors";
import { emitAgentEvent } from "../webhooks/emit";
import { APPS } from "../catalogue";
import { appGrantsByAgent, type AgentAppGrant } from "../app-grants/grants";

/** Why the grants of a revoked approval were ended (oauth_grants.revoked_reason). */
export const APPROVAL_REVOKED_REASON = "approval_revoked";

export interface ApprovedAgent {
  agentId: string;
  displayName: string;
  /** The developer account behind the agent: agents' names are free and not unique. */
  developerName: string;
  /** The apps the person gave this agent, each with what it may do there (gmail:read, gmail:send). */
  apps: AgentAppGrant[];
  logoUrl: string | null;
  brandColor: string | null;
  approvedAt: Date;
}

/** The agents with a current approval of the person's, oldest approval first. */
export async function approvedAgents(userId: string): Promise<ApprovedAgent[]> {
  const rows = await (
    await db()
  ).agentApproval.findMany({
    where: { userId, revokedAt: null },
    orderBy: { approvedAt: "asc" },
    select: { approvedAt: true, agent: { select: { id: true, displayName: true, logoUrl: true, brandColor: true, developer: { select: { name: true } } } } },
  });
  const grants = await appGrantsByAgent(userId);
  return rows.map((r) => ({
    agentId: r.agent.id,
    displayName: r.agent.displayName,
    developerName: r.agent.developer.name,
    apps: grants.get(r.agent.id) ?? [],
    logoUrl: r.agent.logoUrl,
    brandColor: r.agent.brandColor,
    approvedAt: r.approvedAt,
  }));
}

const revokeAppSchema = z.strictObject({ agentId: z.string().uuid(), app: z.enum(APPS) });

/** The account page's refusal of an app take-back that names no grant of the person's. */
export const NO_SUCH_APP_GRANT = "That agent has no access to that app.";

/**
 * Takes one app back from one agent: every capability the person granted that agent on the app
 * (reading it, and its actions) ends at once; the connection, the approval and other agents' grants
 * stay. Not a grant of the person's: AccountError not_found.
 */
export async function revokeAgentApp(input: { userId: string; agentId: unknown; app: unknown }): Promise<void> {
  const parsed = revokeAppSchema.safeParse({ agentId: input.agentId, app: input.app });
  if (!parsed.success) throw new AccountError("not_found", NO_SUCH_APP_GRANT);
  const { agentId, app } = parsed.data;
  await inTransaction(async (tx) => {
    const removed = await tx.capabilityGrant.deleteMany({ where: { userId: input.userId, agentId, capability: { startsWith: `${app}:` } } });
    if (!removed.count) throw new AccountError("not_found", NO_SUCH_APP_GRANT);
    await emitAgentEvent(tx, { type: "app.disconnected", app }, { userId: input.userId, agentId });
  });
}

const agentIdSchema = z.string().uuid();

/**
 * Revokes the person's approval of the agent and everything that acts on it: agent tokens, MCP
 * sessions and sign-in codes are refused from here on (each checks the approval, cached ≤ 1 s, and
 * the cache of this process is cleared now); OpenID Connect and MCP access and refresh tokens of
 * the agent's clients for this person are revoked, with unused authorization codes; capability
 * grants are dropped; open connect links expire. Not the person's approval: AccountError not_found.
 */
export async function revokeAgent(input: { userId: string; agentId: unknown }): Promise<void> {
  const parsed = agentIdSchema.safeParse(input.agentId);
  if (!parsed.success) throw new AccountError("not_found", "No such agent among those you approved.");
  const agentId = parsed.data;
  const at = clockNow();
  await inTransaction(async (tx) => {
    const revoked = await tx.agentApproval.updateMany({ where: { userId: input.userId, agentId, revokedAt: null }, data: { revokedAt: at } });
    if (!revoked.count) throw new AccountError("not_found", "No such agent among those you approved.");
    await emitAgentEvent(tx, { type: "approval.revoked" }, { userId: input.userId, agentId });
    // A relying party's grant names the agent it acts for; an MCP client's client is the agent's own.
    const grants = await tx.oAuthGrant.findMany({
      where: { userId: input.userId, revokedAt: null, OR: [{ agentId }, { client: { agentId } }] },
      select: { id: true },
    });
    for (const g of grants) await revokeChain(tx, g.id, APPROVAL_REVOKED_REASON, at);
    await tx.oAuthCode.updateMany({ where: { userId: input.userId, agentId, consumedAt: null }, data: { consumedAt: at } });
    await tx.signInCode.updateMany({ where: { userId: input.userId, agentId, consumedAt: null }, data: { consumedAt: at } });
    await tx.capabilityGrant.deleteMany({ where: { userId: input.userId, agentId } });
    await tx.connectLink.updateMany({ where: { userId: input.userId, agentId, expiresAt: { gt: at } }, data: { expiresAt: at } });
  });
  clearUserAccessCache();
}
