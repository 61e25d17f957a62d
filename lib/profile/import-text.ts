// POST /v1/profile/import: a chunk of text about the user, distilled into memories under one import.
import { newId, PREFIX } from "../platform/ids";
import { distillerFromConfig } from "./distill";
import { factToMemory, fromDistilled } from "./facts";
import { inTransaction, MEMORY_SELECT, memoryView, writeMemories, type MemoryInput } from "./memories";
import { parseMemoryDump } from "./parsers";
import { agentSource, visibleMemories } from "./sources";

/** The most text one import call takes (characters); larger material goes through bulk import. */
export const IMPORT_TEXT_MAX_CHARS = 20_000;

// "[2024-03-05] - I live in Lisbon" lines: an assistant's memory list pasted as is.
const DATED_LINE = /^\s*\[\d{4}-\d{2}-\d{2}[^\]]*\]\s*[-–—:]?\s*\S/;

export interface ImportTextInput {
  userId: string;
  agent: { id: string; handle: string };
  text: string;
  box?: string;
  kind?: string;
}

async function distil(text: string, overrides: { box?: string; kind?: string }): Promise<MemoryInput[]> {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  // A memory list: one fact per line, keeping the date the assistant recorded.
  if (lines.length && lines.filter((l) => DATED_LINE.test(l)).length >= Math.ceil(lines.length / 2)) {
    return parseMemoryDump(text).map((m) => ({ ...factToMemory(m.text, overrides), saidAt: m.at }));
  }
  // Prose: each paragraph read as something the user said.
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const { facts } = await distillerFromConfig().distill({ messages: paragraphs.map((content) => ({ role: "user" as const, content })) });
  return facts.map((f) => fromDistilled(f, overrides));
}

export async function importText(input: ImportTextInput) {
  const source = agentSource(input.agent.handle);
  const box = input.box;
  const facts = await distil(input.text, { box: input.box, kind: input.kind });
  if (!facts.length) return { saved: false, box: box ?? null, distilled: [], memory: null, source, import_id: null };
  return inTransaction(async (tx) => {
    // What the profile already holds from another source is not imported again; the answer shows it.
    const held = await tx.memory.findMany({
      where: { ...visibleMemories(input.userId), key: { in: facts.map((f) => f.key) }, NOT: { source, writerId: input.agent.id } },
      select: MEMORY_SELECT,
    });
    const heldKeys = new Set(held.map((m) => m.key));
    const importId = newId(PREFIX.importJob);
    await tx.import.create({ data: { id: importId, userId: input.userId, provider: "text", source, agentId: input.agent.id } });
    const written = await writeMemories(
      tx,
      { userId: input.userId, source, writtenBy: source, agentId: input.agent.id, importId },
      facts.filter((f) => !heldKeys.has(f.key)).map((f) => ({ ...f, provenance: { via: "import", import_id: importId } })),
    );
    const created = written.filter((w) => w.created);
    if (created.length) await tx.import.update({ where: { id: importId }, data: { memoryCount: created.length } });
    else await tx.import.delete({ where: { id: importId } });
    return {
      saved: created.length > 0,
      box: box ?? null,
      distilled: [...written.map((w) => ({ ...memoryView(w.memory), saved: w.created })), ...held.map((m) => ({ ...memoryView(m), saved: false }))],
      memory: created[0] ? memoryView(created[0].memory) : null,
      source,
      import_id: created.length ? importId : null,
    };
  });
}
