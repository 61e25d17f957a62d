// Suppressions: each request to hide memories at the person's wish (an agent's forget with reason
// user_request, or the person's own "forget, don't learn again"), who asked, and which memories it
// hid. A memory is hidden (memories.suppressed_at set) exactly while at least one suppression holds
// it, so restoring one suppression brings back only what no other suppression still holds.
import type { AccessSurface } from "../access-log/access-log";
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import { newId, PREFIX } from "../platform/ids";
import type { Tx } from "./memories";
import { recompose } from "./recompose";

/** The access log's action for a suppression an agent asked for, and for the person restoring it. */
export const SUPPRESS_ACTION = "hide_memories";
export const RESTORE_ACTION = "restore_memories";
/** The access log's surface for what the person did on their account page. */
export const ACCOUNT_SURFACE = "account";

/** Who asked: an agent (by its forget), the person on their account page, or no one recorded (hidden before suppressions were kept). */
export type SuppressionRequester = "agent" | "person" | "earlier";

/** Who asks for a suppression being made: an agent, through an API surface, or the person. */
export type Requester = { agent: { id: string; surface: Extract<AccessSurface, "rest" | "mcp"> } } | "person";

/**
 * Hides the given memories and every memory of the person's saying the same thing (same key), except
 * the `spare` agent's own (it deletes those instead), as one suppression naming who asked. Rows
 * already hidden by another suppression are held by this one too, so restoring either alone leaves
 * them hidden. An agent's suppression is written to the access log in the same transaction.
 * Returns how many memories were newly hidden; nothing is recorded when nothing matched.
 */
export async function hideMemories(tx: Tx, input: { userId: string; requester: Requester; ids: string[]; keys: string[]; spare: string | null }): Promise<number> {
  if (!input.ids.length && !input.keys.length) return 0;
  // Locked, so a restore running at the same time either finishes first (and this hides again) or
  // waits and then sees this suppression's hold.
  const rows = await tx.$queryRaw<{ id: string; newly: boolean }[]>`
    SELECT id, suppressed_at IS NULL AS newly FROM memories
     WHERE user_id = ${input.userId}::uuid
       AND (id = ANY(${input.ids}::text[]) OR (key = ANY(${input.keys}::text[]) AND (${input.spare}::uuid IS NULL OR agent_id IS DISTINCT FROM ${input.spare}::uuid)))
     ORDER BY id
     FOR UPDATE`;
  if (!rows.length) return 0;
  const at = clockNow();
  const asker = input.requester === "person" ? null : input.requester.agent;
  const agent = asker ? await tx.agent.findUniqueOrThrow({ where: { id: asker.id }, select: { id: true, displayName: true } }) : null;
  const suppression = await tx.memorySuppression.create({
    data: {
      id: newId(PREFIX.suppression),
      userId: input.userId,
      requestedBy: agent ? "agent" : "person",
      agentId: agent?.id ?? null,
      agentName: agent?.displayName ?? null,
      createdAt: at,
    },
    select: { id: true },
  });
  await tx.memorySuppressionItem.createMany({ data: rows.map((r) => ({ suppressionId: suppression.id, memoryId: r.id })) });
  const newly = rows.filter((r) => r.newly).map((r) => r.id);
  if (newly.length) await tx.memory.updateMany({ where: { id: { in: newly } }, data: { suppressedAt: at } });
  if (asker && agent) {
    const { plane } = await tx.user.findUniqueOrThrow({ where: { id: input.userId }, select: { plane: true } });
    await tx.accessLogEntry.create({
      data: { userId: input.userId, agentId: agent.id, agentName: agent.displayName, plane, surface: asker.surface, action: SUPPRESS_ACTION, outcome: "ok", at },
    });
  }
  return newly.length;
}

/**
 * The person shows again a memory they hid by hand (by writing it again): no suppression holds it
 * any longer.
 */
export async function releaseMemory(tx: Tx, memoryId: string): Promise<void> {
  await tx.memorySuppressionItem.deleteMany({ where: { memoryId } });
}

/**
 * Undoes one of the person's suppressions: it is removed, and each memory it held that no other
 * suppression holds is shown again; the profile is recomposed and, for an agent's suppression, the
 * access log records the restore. Returns how many memories came back, or null when the person has
 * no such suppression (another person's id is the same as none).
 */
export async function restoreSuppression(tx: Tx, input: { userId: string; suppressionId: string }): Promise<number | null> {
  const [found] = await tx.$queryRaw<{ id: string; agent_id: string | null; agent_name: string | null; requested_by: string }[]>`
    SELECT id, agent_id, agent_name, requested_by FROM memory_suppressions
     WHERE id = ${input.suppressionId} AND user_id = ${input.userId}::uuid FOR UPDATE`;
  if (!found) return null;
  const held = (await tx.memorySuppressionItem.findMany({ where: { suppressionId: found.id }, select: { memoryId: true } })).map((i) => i.memoryId);
  // Locked before the hold is counted: a suppression being written meanwhile is seen once it commits.
  if (held.length) await tx.$queryRaw`SELECT id FROM memories WHERE id = ANY(${held}::text[]) ORDER BY id FOR UPDATE`;
  await tx.memorySuppression.delete({ where: { id: found.id } });
  const stillHeld = new Set(
    (await tx.memorySuppressionItem.findMany({ where: { memoryId: { in: held } }, select: { memoryId: true }, distinct: ["memoryId"] })).map((i) => i.memoryId),
  );
  const shown = held.filter((id) => !stillHeld.has(id));
  const restored = shown.length ? (await tx.memory.updateMany({ where: { id: { in: shown }, userId: input.userId }, data: { suppressedAt: null } })).count : 0;
  if (restored) await recompose(tx, input.userId);
  if (found.requested_by === "agent") {
    const { plane } = await tx.user.findUniqueOrThrow({ where: { id: input.userId }, select: { plane: true } });
    await tx.accessLogEntry.create({
      data: {
        userId: input.userId,
        agentId: found.agent_id,
        agentName: found.agent_name ?? "",
        plane,
        surface: ACCOUNT_SURFACE,
        action: RESTORE_ACTION,
        outcome: "ok",
        at: clockNow(),
      },
    });
  }
  return restored;
}

/** How many hidden memories one suppression lists on the account page at most. */
export const SUPPRESSION_MEMORIES_SHOWN = 20;

export interface SuppressionView {
  id: string;
  requestedBy: SuppressionRequester;
  /** The agent that asked and its developer account's name (null when the person did or no one was recorded). */
  agent: { name: string; developer: string } | null;
  createdAt: string;
  /** How many memories it holds hidden. */
  count: number;
  /** The first of them, newest first: the person's own memories, as they were written. */
  memories: { id: string; text: string; source: string }[];
}

/** The person's suppressions that still hold something, newest first (up to `take`). */
export async function suppressionsOf(userId: string, take = 50): Promise<SuppressionView[]> {
  const rows = await (
    await db()
  ).memorySuppression.findMany({
    where: { userId, memories: { some: {} } },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take,
    select: {
      id: true,
      requestedBy: true,
      agentName: true,
      createdAt: true,
      agent: { select: { displayName: true, developer: { select: { name: true } } } },
      _count: { select: { memories: true } },
      memories: {
        take: SUPPRESSION_MEMORIES_SHOWN,
        orderBy: { memory: { learnedAt: "desc" } },
        select: { memory: { select: { id: true, text: true, source: true } } },
      },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    requestedBy: r.requestedBy as SuppressionRequester,
    agent: r.requestedBy === "agent" ? { name: r.agent?.displayName ?? r.agentName ?? "", developer: r.agent?.developer.name ?? "(removed)" } : null,
    createdAt: r.createdAt.toISOString(),
    count: r._count.memories,
    memories: r.memories.map((i) => i.memory),
  }));
}
