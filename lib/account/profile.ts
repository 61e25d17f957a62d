// What the account page shows of the person's profile: exactly what an agent reads from
// GET /v1/profile (the same function, lib/profile/read.ts), read by the person themselves.
import { readProfile } from "../profile/read";

export type AccountProfile = Awaited<ReturnType<typeof readProfile>>;

/** The composed profile (identity, preferences, summary and the lists) as agents see it; no agent's read obligation opens. */
export async function accountProfile(userId: string): Promise<AccountProfile> {
  return readProfile({ userId, agentId: null });
}
