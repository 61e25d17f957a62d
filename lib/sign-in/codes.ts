// Hosted sign-in codes and agent tokens: a finished sign-in link returns a short opaque code (5
// minutes, single use, scoped to the developer and agent), the developer's server exchanges it once for
// a 24-hour agent token, and validates a stored token whenever it likes.
import { randomBase62, keyedHash } from "../platform/crypto";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import type { Plane } from "../platform/db/generated/enums";
import { now as clockNow } from "../platform/clock";
import { ApiError } from "../http/errors";
import { AGENT_TOKEN_USE, issueAgentToken, verifyAgentToken } from "../bearer-tokens/agent-token";
import { isApproved } from "../users/approvals";

export const SIGN_IN_CODE_TTL_SECONDS = 5 * 60;
const CODE_HASH_PURPOSE = "sign-in-code";
/** Sign-in codes are 43 base62 characters (256 bits); anything else is no code. */
const CODE_PATTERN = /^[A-Za-z0-9]{43}$/;

export const CODE_MESSAGES = {
  invalid: "This sign-in code is not valid for this agent.",
  expired: "This sign-in code has expired: codes last 5 minutes. Send the person through the sign-in link again.",
  alreadyUsed: "This sign-in code was already exchanged. If the page was reloaded, the person is already signed in.",
  notApproved: "This user has not approved the agent.",
} as const;

/** Who a code or token is for: one user, one agent of one developer, one key plane. */
export interface SignInScope {
  developerId: string;
  agentId: string;
  plane: Plane;
}

/** A new code for the user (inside `tx` when given): the value to return; only its keyed hash is stored. */
export async function issueSignInCode(input: SignInScope & { userId: string }, tx?: Prisma.TransactionClient): Promise<{ code: string; expiresAt: Date }> {
  const code = randomBase62(43);
  const createdAt = clockNow();
  const expiresAt = new Date(createdAt.getTime() + SIGN_IN_CODE_TTL_SECONDS * 1000);
  await (tx ?? (await db())).signInCode.create({
    data: { codeHash: keyedHash(CODE_HASH_PURPOSE, code), developerId: input.developerId, agentId: input.agentId, plane: input.plane, userId: input.userId, createdAt, expiresAt },
  });
  return { code, expiresAt };
}

/** What an exchange and a validation answer about a user and an agent. */
export interface AgentTokenAnswer {
  token: string;
  userId: string;
  tokenUse: typeof AGENT_TOKEN_USE;
  approved: boolean;
  agent: string;
}

/**
 * Exchanges a code for an agent token, once. The code must have been issued for this developer, agent
 * and plane (another's code is simply not valid here, and stays usable by its own developer); of
 * parallel exchanges exactly one wins.
 */
export async function exchangeSignInCode(input: SignInScope & { agent: string; code: string }): Promise<AgentTokenAnswer> {
  if (!CODE_PATTERN.test(input.code)) throw new ApiError("invalid_code", CODE_MESSAGES.invalid);
  const prisma = await db();
  const codeHash = keyedHash(CODE_HASH_PURPOSE, input.code);
  const row = await prisma.signInCode.findUnique({ where: { codeHash } });
  if (!row || row.developerId !== input.developerId || row.agentId !== input.agentId || row.plane !== input.plane) {
    throw new ApiError("invalid_code", CODE_MESSAGES.invalid);
  }
  const at = clockNow();
  // One conditional update: the first exchange within the lifetime consumes the code.
  const taken = await prisma.signInCode.updateMany({ where: { id: row.id, consumedAt: null, expiresAt: { gt: at } }, data: { consumedAt: at } });
  if (taken.count === 0) {
    const now = await prisma.signInCode.findUniqueOrThrow({ where: { id: row.id }, select: { consumedAt: true } });
    throw now.consumedAt ? new ApiError("code_already_used", CODE_MESSAGES.alreadyUsed) : new ApiError("code_expired", CODE_MESSAGES.expired);
  }
  const approved = await isApproved({ userId: row.userId, agentId: row.agentId });
  const { token } = await issueAgentToken({ userId: row.userId, developerId: row.developerId, agentId: row.agentId, agent: input.agent, plane: row.plane });
  return { token, userId: row.userId, tokenUse: AGENT_TOKEN_USE, approved, agent: input.agent };
}

/** A stored agent token, checked: valid only unexpired, for this developer, agent and plane, and while the user approves the agent. */
export async function validateAgentToken(input: SignInScope & { agent: string; token: string }) {
  const claims = input.token.length <= 4096 ? await verifyAgentToken(input.token) : null;
  const ours = !!claims && claims.developerId === input.developerId && claims.agentId === input.agentId && claims.plane === input.plane;
  if (!claims || !ours) return { valid: false, userId: null, tokenUse: null, approved: false, agent: input.agent };
  const approved = await isApproved({ userId: claims.userId, agentId: claims.agentId });
  return { valid: approved, userId: claims.userId, tokenUse: AGENT_TOKEN_USE, approved, agent: input.agent };
}

/**
 * A code for the holder of an agent token (POST /v1/auth/sign-in/code): the service's own hosted page
 * makes one after the person approved the agent. The token must still be approved.
 */
export async function codeForAgentToken(token: string): Promise<{ code: string; expiresIn: number } | "invalid" | "not_approved"> {
  const claims = token.length <= 4096 ? await verifyAgentToken(token) : null;
  if (!claims) return "invalid";
  if (!(await isApproved({ userId: claims.userId, agentId: claims.agentId }))) return "not_approved";
  const { code } = await issueSignInCode({ developerId: claims.developerId, agentId: claims.agentId, plane: claims.plane, userId: claims.userId });
  return { code, expiresIn: SIGN_IN_CODE_TTL_SECONDS };
}
