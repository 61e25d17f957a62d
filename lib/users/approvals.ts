// Agent approvals: a user approves an agent once; revoking ends the agent's access to the profile.
import { TtlCache } from "../platform/cache";
import { now as clockNow } from "../platform/clock";
import type { AgentApproval, Prisma } from "../platform/db/generated/client";
import type { Plane } from "../platform/db/generated/enums";
import { database, db } from "../platform/db";
import { emitAgentEvent } from "../webhooks/emit";

type Tx = Prisma.TransactionClient;

/**
 * Approves (or re-approves) the agent for the user. Idempotent: approval.granted is emitted, in the same
 * transaction, only when the approval is new or had been revoked.
 */
export async function approveAgent(input: { userId: string; agentId: string }, tx?: Tx): Promise<AgentApproval> {
  if (!tx) return (await db()).$transaction((t) => approveAgent(input, t));
  const at = clockNow();
  const key = { userId: input.userId, agentId: input.agentId };
  const created = await tx.agentApproval.createMany({ data: [{ ...key, approvedAt: at }], skipDuplicates: true });
  const renewed = created.count ? 0 : (await tx.agentApproval.updateMany({ where: { ...key, revokedAt: { not: null } }, data: { revokedAt: null, approvedAt: at } })).count;
  if (created.count || renewed) await emitAgentEvent(tx, { type: "approval.granted" }, key);
  else await tx.agentApproval.updateMany({ where: key, data: { approvedAt: at } });
  accessCache.clear();
  return tx.agentApproval.findUniqueOrThrow({ where: { userId_agentId: key } });
}

/** Revokes the user's approval of the agent (approval.revoked in the same transaction); how many it revoked (0 or 1). */
export async function revokeApproval(input: { userId: string; agentId: string }) {
  const count = await (
    await db()
  ).$transaction(async (tx) => {
    const res = await tx.agentApproval.updateMany({
      where: { userId: input.userId, agentId: input.agentId, revokedAt: null },
      data: { revokedAt: clockNow() },
    });
    if (res.count) await emitAgentEvent(tx, { type: "approval.revoked" }, input);
    return res.count;
  });
  accessCache.clear();
  return count;
}

// The two lookups below run on every authenticated request: each is one SQL statement (Prisma
// sends one per relation level) behind the shared ≤ 1 s cache, like API keys and agents.
const accessCache = new TtlCache<{ userId: string; approved: boolean } | null>("user-access");

/** Forgets cached user lookups after a change to approvals or to developers' user ids. */
export function clearUserAccessCache(): void {
  accessCache.clear();
}

/** Whether the user has a current (unrevoked) approval of the agent. */
export async function isApproved(input: { userId: string; agentId: string }): Promise<boolean> {
  const hit = await accessCache.through(`u\u0000${input.userId}\u0000${input.agentId}`, async () => {
    const rows = await (
      await database()
    ).sql.query<{ ok: boolean }>(`SELECT true AS ok FROM agent_approvals WHERE user_id = $1 AND agent_id = $2 AND revoked_at IS NULL`, [input.userId, input.agentId], {
      name: "approval",
    });
    return { userId: input.userId, approved: rows.length > 0 };
  });
  return !!hit?.approved;
}

/**
 * The user behind a developer's own user id (X-User-Id) in one key plane, and whether they have
 * approved the agent; null when the developer has no such user in that plane.
 */
export async function findExternalUser(input: { developerId: string; plane: Plane; externalId: string; agentId: string }) {
  const cacheKey = `e\u0000${input.developerId}\u0000${input.plane}\u0000${input.agentId}\u0000${input.externalId}`;
  return accessCache.through(cacheKey, async () => {
    const rows = await (
      await database()
    ).sql.query<{ user_id: string; approved: boolean }>(
      `SELECT e.user_id, (a.user_id IS NOT NULL AND a.revoked_at IS NULL) AS approved
         FROM external_user_ids e
         LEFT JOIN agent_approvals a ON a.user_id = e.user_id AND a.agent_id = $4
        WHERE e.developer_id = $1 AND e.plane = $2 AND e.external_id = $3`,
      [input.developerId, input.plane, input.externalId, input.agentId],
      { name: "external_user" },
    );
    const row = rows[0];
    return row ? { userId: row.user_id, approved: row.approved } : null;
  });
}
