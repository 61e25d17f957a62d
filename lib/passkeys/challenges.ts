// WebAuthn challenges, each used once: made here with the options a browser is handed, kept only as a
// keyed hash, and used up (deleted) by the first response that names it. A sign-in's challenge belongs
// to one flow (which only its own browser reaches) and expires with it; a registration's belongs to the
// signed-in person and lasts a few minutes.
import { now as clockNow } from "../platform/clock";
import { randomBytes } from "node:crypto";
import { keyedHash } from "../platform/crypto";
import { db } from "../platform/db";

const CHALLENGE_PURPOSE = "passkey-challenge";
/** How long a registration's challenge may wait for the authenticator. */
export const REGISTER_CHALLENGE_SECONDS = 5 * 60;

export type ChallengeOwner = { purpose: "sign_in"; flowId: string; expiresAt: Date } | { purpose: "register"; userId: string };

function challengeHash(challenge: string): string {
  return keyedHash(CHALLENGE_PURPOSE, challenge);
}

/** A new challenge of 32 random bytes (base64url text, as clientDataJSON carries it) for its owner, stored as its hash. */
export async function newChallenge(owner: ChallengeOwner): Promise<string> {
  const challenge = randomBytes(32).toString("base64url");
  const expiresAt = owner.purpose === "sign_in" ? owner.expiresAt : new Date(clockNow().getTime() + REGISTER_CHALLENGE_SECONDS * 1000);
  await (
    await db()
  ).passkeyChallenge.create({
    data: {
      challengeHash: challengeHash(challenge),
      purpose: owner.purpose,
      flowId: owner.purpose === "sign_in" ? owner.flowId : null,
      userId: owner.purpose === "register" ? owner.userId : null,
      expiresAt,
    },
  });
  return challenge;
}

/**
 * Uses up the challenge a response carries: true only for a challenge made for this owner, not yet
 * used and not expired, and only once (one conditional delete; of two responses, one wins).
 */
export async function useChallenge(owner: ChallengeOwner, challenge: string): Promise<boolean> {
  const res = await (
    await db()
  ).passkeyChallenge.deleteMany({
    where: {
      challengeHash: challengeHash(challenge),
      purpose: owner.purpose,
      ...(owner.purpose === "sign_in" ? { flowId: owner.flowId } : { userId: owner.userId }),
      expiresAt: { gt: clockNow() },
    },
  });
  return res.count === 1;
}
