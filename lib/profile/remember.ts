// POST /v1/profile/remember: one durable fact, written by the acting agent.
import { ApiError } from "../http/errors";
import { factToMemory } from "./facts";
import { inTransaction, MEMORY_SELECT, memoryView, writeMemories } from "./memories";
import { deleteOwnMemories } from "./recompose";
import { agentSource, ownsMemory, visibleMemories } from "./sources";

export interface RememberInput {
  userId: string;
  agent: { id: string; handle: string };
  text: string;
  box?: string;
  kind?: string;
  replyTo?: string;
  resolves?: string;
}

export async function remember(input: RememberInput) {
  const source = agentSource(input.agent.handle);
  const fact = factToMemory(input.text, { box: input.box, kind: input.kind });
  return inTransaction(async (tx) => {
    // Already in the profile, from any source: answer with what is there rather than a duplicate.
    const held = await tx.memory.findFirst({
      where: { ...visibleMemories(input.userId), key: fact.key },
      orderBy: { learnedAt: "asc" },
      select: MEMORY_SELECT,
    });
    if (held) return { saved: false, memory: memoryView(held), source };

    if (input.resolves) {
      const resolved = await tx.memory.findFirst({ where: { ...visibleMemories(input.userId), id: input.resolves }, select: { id: true, agentId: true } });
      if (!resolved) throw new ApiError("not_found", `No memory ${input.resolves} in this profile.`, { field: "resolves" });
      // The newer fact replaces the one it resolves when this agent wrote it; another writer's stays.
      if (ownsMemory(resolved, input.agent.id)) await deleteOwnMemories(tx, { userId: input.userId, ids: [resolved.id] });
    }
    const provenance = { via: "remember", ...(input.replyTo ? { reply_to: input.replyTo } : {}), ...(input.resolves ? { resolves: input.resolves } : {}) };
    const [written] = await writeMemories(tx, { userId: input.userId, source, writtenBy: source, agentId: input.agent.id }, [{ ...fact, provenance }]);
    return { saved: written!.created, memory: memoryView(written!.memory), source };
  });
}
