// Agent approvals: a user approves an agent once; revoking ends the agent's access to the profile.
import type { Prisma } from "../db/generated/client";
import { db } from "../db";

type Tx = Prisma.TransactionClient;

/** Approves (or re-approves) the agent for the user. Idempotent. */
export async function approveAgent(input: { userId: string; agentId: string }, tx?: Tx) {
  const client = tx ?? (await db());
  return client.agentApproval.upsert({
    where: { userId_agentId: { userId: input.userId, agentId: input.agentId } },
    create: { userId: input.userId, agentId: input.agentId },
    update: { revokedAt: null, approvedAt: new Date() },
  });
}

export async function revokeApproval(input: { userId: string; agentId: string }) {
  const res = await (await db()).agentApproval.updateMany({
    where: { userId: input.userId, agentId: input.agentId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return res.count;
}

export async function hasApproved(input: { userId: string; agentId: string }): Promise<boolean> {
  const row = await (await db()).agentApproval.findUnique({
    where: { userId_agentId: { userId: input.userId, agentId: input.agentId } },
    select: { revokedAt: true },
  });
  return !!row && !row.revokedAt;
}
