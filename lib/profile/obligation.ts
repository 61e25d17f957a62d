// The read obligation: a profile read opens one for the agent and user; the commit of the turn
// clears it. An agent that keeps reading without ever committing is refused (commit_required)
// once its obligation is older than COMMIT_GATE_SECONDS: the scope-age gate. Both ends of that age
// are the service's clock (opened_at is written from it, not the database's now()), so a test that
// moves the clock crosses the gate.
import { now as clockNow } from "../platform/clock";
import { database } from "../platform/db";
import { ApiError } from "../http/errors";
import type { Tx } from "./memories";

/** How long an agent may keep reading a profile without committing a turn. */
export const COMMIT_GATE_SECONDS = 30 * 60;

export const COMMIT_REQUIRED_MESSAGE =
  "This agent has read the profile for more than 30 minutes without committing a turn. Send POST /v1/profile/commit with the conversation, then read again.";

/**
 * Checks the gate and opens an obligation when none is open. `known` is the obligation as a read
 * already loaded it (the profile read selects it in its one statement); a read that finds its
 * obligation open writes nothing.
 */
export async function noteRead(input: { userId: string; agentId: string }, known?: { openedAt: Date | string | null }): Promise<void> {
  const sql = (await database()).sql;
  const raw = known
    ? known.openedAt
    : ((await sql.query<{ opened_at: Date | null }>(`SELECT opened_at FROM read_obligations WHERE user_id = $1 AND agent_id = $2`, [input.userId, input.agentId]))[0]?.opened_at ??
      null);
  if (!raw) {
    await sql.query(
      `INSERT INTO read_obligations (user_id, agent_id, opened_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, agent_id) DO UPDATE SET opened_at = COALESCE(read_obligations.opened_at, $3)`,
      [input.userId, input.agentId, clockNow()],
    );
    return;
  }
  const openedAt = new Date(raw);
  if (clockNow().getTime() - openedAt.getTime() > COMMIT_GATE_SECONDS * 1000) {
    throw new ApiError("commit_required", COMMIT_REQUIRED_MESSAGE, { suggested_action: "commit", obligation_opened_at: openedAt.toISOString() });
  }
}

export async function clearObligation(tx: Tx, input: { userId: string; agentId: string }): Promise<void> {
  const at = clockNow();
  await tx.$executeRaw`INSERT INTO read_obligations (user_id, agent_id, opened_at, last_commit_at)
    VALUES (${input.userId}::uuid, ${input.agentId}::uuid, NULL, ${at})
    ON CONFLICT (user_id, agent_id) DO UPDATE SET opened_at = NULL, last_commit_at = ${at}`;
}
