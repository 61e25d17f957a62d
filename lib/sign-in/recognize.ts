// Recognizing a message's sender (POST /v1/auth/sign-in/recognize-phone): phone-like sender ids and
// OAuth-verified mailbox addresses resolved to one person of the key's plane, and an agent token only
// when that person has already approved the agent. Recognition is never authorization.
import { z } from "zod";
import { addressProvenSql } from "../person-auth/email-proof";
import { issueAgentToken } from "../bearer-tokens/agent-token";
import { db } from "../platform/db";
import type { Plane } from "../platform/db/generated/enums";
import { ApiError, MESSAGES } from "../http/errors";
import { lazyLimiter } from "../platform/ratelimit";
import { isApproved } from "../users/approvals";
import { phoneDigest } from "../users/phone";
import { phoneFrom } from "./message-lines";

export const MAX_CANDIDATES = 10;
export const MAX_CANDIDATE_LENGTH = 320;
/** Recognitions per API key per minute: enough for a busy message line, too few to sweep a number range. */
export const RECOGNITIONS_PER_MINUTE = 60;

export const recognizeLimiter = lazyLimiter(() => ({ name: "recognize-phone", points: RECOGNITIONS_PER_MINUTE, durationSeconds: 60 }));
/** Recognitions per developer account per minute, all keys together: more keys buy no more lookups. */
export const RECOGNITIONS_PER_DEVELOPER_PER_MINUTE = 300;
const developerLimiter = lazyLimiter(() => ({ name: "recognize-phone-developer", points: RECOGNITIONS_PER_DEVELOPER_PER_MINUTE, durationSeconds: 60 }));

/** The developer account's own budget, beside each key's: a 429 like the key's. */
export async function consumeDeveloperRecognition(developerId: string): Promise<void> {
  const result = await developerLimiter.consume(`dev:${developerId}`);
  if (!result.allowed) throw new ApiError("rate_limited", MESSAGES.rateLimited, { retry_after: result.retryAfter }, { "Retry-After": String(result.retryAfter) });
}

export const recognizeBody = z.object({
  candidates: z.array(z.string().max(MAX_CANDIDATE_LENGTH)).min(1).max(MAX_CANDIDATES),
});

const emailSchema = z.email();

/** The phone numbers (E.164) and addresses (lower-cased) among the candidates. */
export function readCandidates(candidates: string[]): { phones: string[]; emails: string[]; phoneCandidateCount: number } {
  const phones = new Set<string>();
  const emails = new Set<string>();
  let phoneCandidateCount = 0;
  for (const raw of candidates) {
    const candidate = raw.trim();
    const handle = candidate.replace(/^(imessage|mailto):(\/\/)?/i, "");
    if (handle.includes("@")) {
      if (emailSchema.safeParse(handle).success) emails.add(handle.toLowerCase());
      continue;
    }
    const e164 = phoneFrom(candidate);
    if (e164) {
      phoneCandidateCount++;
      phones.add(e164);
    }
  }
  return { phones: [...phones], emails: [...emails], phoneCandidateCount };
}

type Scope = { developerId: string; plane: Plane };

/** Users of the key's plane holding one of the numbers, by keyed hash (test plane: the developer's own). */
async function usersByPhone(scope: Scope, phones: string[]): Promise<string[]> {
  if (!phones.length) return [];
  const rows = await (
    await db()
  ).user.findMany({
    where: {
      plane: scope.plane,
      phoneScope: scope.plane === "test" ? scope.developerId : "",
      phoneHash: { in: phones.map((p) => phoneDigest(p).phoneHash) },
      ...(scope.plane === "test" ? { developerId: scope.developerId } : {}),
    },
    select: { id: true },
    take: 2,
  });
  return rows.map((r) => r.id);
}

/**
 * Users of the key's plane whose address is one of these, held by an OAuth credential of theirs (the
 * one rule, lib/person-auth/email-proof.ts, for its "recognition" use): a Google or GitHub sign-in that
 * vouched for it, or a connected Gmail whose address Google verified. Never a typed address, one proven
 * only by an e-mailed code, a development-outbox code, or one another app supplied.
 */
async function usersByEmail(scope: Scope, emails: string[]): Promise<string[]> {
  if (!emails.length) return [];
  const placeholders = emails.map((_, i) => `$${i + 3}`).join(", ");
  const rows = await (
    await db()
  ).$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT u.id::text AS id FROM users u
      WHERE u.plane = $1::"Plane" AND (u.plane = 'live' OR u.developer_id = $2::uuid)
        AND lower(u.email) IN (${placeholders}) AND ${addressProvenSql("recognition")}
      LIMIT 2`,
    scope.plane,
    scope.developerId,
    ...emails,
  );
  return rows.map((r) => r.id);
}

export interface Recognition {
  matched: boolean;
  recognized: boolean;
  approved: boolean;
  linked: boolean;
  token: string | null;
  agentToken: string | null;
  userId: string | null;
  agent: string;
  displayName: string;
  phoneCandidateCount: number;
}

/**
 * Who the candidates name. matched/recognized: exactly one person of the key's plane (two different
 * people is no match). approved/linked, token, agentToken and userId: only when that person has an
 * unrevoked approval of the acting agent; recognition alone reveals no user id and grants nothing.
 */
export async function recognizeSender(input: Scope & { agent: { id: string; handle: string; displayName: string }; candidates: string[] }): Promise<Recognition> {
  const { phones, emails, phoneCandidateCount } = readCandidates(input.candidates);
  const scope = { developerId: input.developerId, plane: input.plane };
  const ids = new Set([...(await usersByPhone(scope, phones)), ...(await usersByEmail(scope, emails))]);
  const userId = ids.size === 1 ? ([...ids][0] ?? null) : null;
  const approved = !!userId && (await isApproved({ userId, agentId: input.agent.id }));
  const token =
    userId && approved ? (await issueAgentToken({ userId, developerId: input.developerId, agentId: input.agent.id, agent: input.agent.handle, plane: input.plane })).token : null;
  return {
    matched: !!userId,
    recognized: !!userId,
    approved,
    linked: approved,
    token,
    agentToken: token,
    userId: approved ? userId : null,
    agent: input.agent.handle,
    displayName: input.agent.displayName,
    phoneCandidateCount,
  };
}
