// POST /v1/profile/forget: one selector (id, match, import_id or scope). id deletes at once; the
// others preview and delete only when called again with confirm: true. An agent deletes only its
// own memories; reason user_request also hides matching content from every other source, as a
// suppression the person sees and can undo on their account page (lib/profile/suppressions.ts).
import { ownsMemory, visibleMemories } from "./sources";
import type { AccessSurface } from "../access-log/access-log";
import type { Prisma } from "../platform/db/generated/client";
import { ApiError } from "../http/errors";
import { inTransaction, MEMORY_SELECT, memoryView, type MemoryRecord, type Tx } from "./memories";
import { recompose } from "./recompose";
import { hideMemories } from "./suppressions";

export const FORGET_SCOPES = ["imports", "saved", "all"] as const;
export const FORGET_REASONS = ["correction", "user_request"] as const;
/** How many matched memories a preview lists. */
export const FORGET_PREVIEW_LIMIT = 20;

export type ForgetSelector = { id: string } | { match: string } | { import_id: string } | { scope: (typeof FORGET_SCOPES)[number] };

export interface ForgetInput {
  userId: string;
  agentId: string;
  selector: ForgetSelector;
  confirm: boolean;
  /** YYYY-MM-DD (UTC): only memories dated that day (the original date of an import, else when learned). */
  date?: string;
  reason?: (typeof FORGET_REASONS)[number];
  /** Where the agent asked (its suppression's access-log entry names it). */
  surface: Extract<AccessSurface, "rest" | "mcp">;
}

function dayBounds(date: string): { gte: Date; lt: Date } {
  const gte = new Date(`${date}T00:00:00.000Z`);
  return { gte, lt: new Date(gte.getTime() + 86_400_000) };
}

async function matchedMemories(tx: Tx, input: ForgetInput): Promise<MemoryRecord[]> {
  const s = input.selector;
  const where: Prisma.MemoryWhereInput = { ...visibleMemories(input.userId) };
  if (input.date) {
    const day = dayBounds(input.date);
    where.OR = [{ saidAt: day }, { saidAt: null, learnedAt: day }];
  }
  if ("id" in s) where.id = s.id;
  else if ("import_id" in s) where.importId = s.import_id;
  else if ("scope" in s) {
    where.agentId = input.agentId;
    if (s.scope === "imports") where.importId = { not: null };
    if (s.scope === "saved") where.importId = null;
  } else {
    const ids = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM memories
       WHERE user_id = ${input.userId}::uuid AND suppressed_at IS NULL
         AND search_vector @@ plainto_tsquery('english', ${s.match})`;
    if (!ids.length) return [];
    where.id = { in: ids.map((r) => r.id) };
  }
  return tx.memory.findMany({ where, select: MEMORY_SELECT, orderBy: [{ learnedAt: "desc" }, { id: "asc" }] });
}

/**
 * The person's own forget with reason user_request (the account page): the given visible memories
 * and every memory saying the same thing, whoever wrote them, are hidden from every read and not
 * learned again; the profile is recomposed. Returns how many were hidden (0: none of the ids is theirs).
 */
export async function suppressAtUsersRequest(tx: Tx, input: { userId: string; ids: string[] }): Promise<number> {
  if (!input.ids.length) return 0;
  const matched = await tx.memory.findMany({ where: { ...visibleMemories(input.userId), id: { in: input.ids } }, select: { id: true, key: true } });
  if (!matched.length) return 0;
  // The hidden rows stay, so a writer that says the same again is deduplicated against them and the
  // fact is not learned again.
  const hidden = await hideMemories(tx, { userId: input.userId, requester: "person", spare: null, ids: matched.map((m) => m.id), keys: [...new Set(matched.map((m) => m.key))] });
  if (hidden) await recompose(tx, input.userId);
  return hidden;
}

export async function forget(input: ForgetInput) {
  if ("match" in input.selector && !/[\p{L}\p{N}]{2,}/u.test(input.selector.match)) {
    throw new ApiError("invalid_request", "match needs at least one word.", { fields: [{ field: "match", message: "no words" }] });
  }
  return inTransaction(async (tx) => {
    const matched = await matchedMemories(tx, input);
    const own = matched.filter((m) => ownsMemory(m, input.agentId));
    const others = matched.filter((m) => !ownsMemory(m, input.agentId));
    const userRequest = input.reason === "user_request";
    const immediate = "id" in input.selector;

    if ("id" in input.selector) {
      if (!matched.length) throw new ApiError("not_found", `No memory ${input.selector.id} in this profile.`, { field: "id" });
      if (!own.length && !userRequest) {
        throw new ApiError("memory_not_owned", "Only the agent that wrote a memory can delete it. Send reason user_request to hide it from every agent at the user's request.", {
          id: input.selector.id,
        });
      }
    }
    if (!immediate && !input.confirm) {
      return {
        deleted: false,
        deleted_count: 0,
        matched: matched.length,
        confirm_required: true,
        deletable_count: own.length,
        ...(userRequest ? { suppressible_count: others.length } : {}),
        preview: matched.slice(0, FORGET_PREVIEW_LIMIT).map((m) => ({ ...memoryView(m, false), own: ownsMemory(m, input.agentId) })),
      };
    }

    const deleted = own.length ? (await tx.memory.deleteMany({ where: { userId: input.userId, id: { in: own.map((m) => m.id) } } })).count : 0;
    const suppressed = userRequest
      ? await hideMemories(tx, {
          userId: input.userId,
          requester: { agent: { id: input.agentId, surface: input.surface } },
          // The acting agent's own are spared: it deletes them instead.
          spare: input.agentId,
          ids: others.map((m) => m.id),
          keys: [...new Set(matched.map((m) => m.key))],
        })
      : 0;
    if (deleted || suppressed) await recompose(tx, input.userId);
    return { deleted: deleted + suppressed > 0, deleted_count: deleted, matched: matched.length, ...(userRequest ? { suppressed_count: suppressed } : {}) };
  });
}
