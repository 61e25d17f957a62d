// What a person brings into the hosted flow from an assistant: the answer to a prompt pasted into
// a box, or a ChatGPT or Claude export file. Each becomes a preview of memories the person confirms
// before anything is saved.
import { ASSISTANT_NAMES, EXPORT_ASSISTANTS, type Assistant } from "../catalogue";
import { builtinDistiller, distillerFromConfig } from "../profile/distill";
import { mergeFacts } from "../profile/distill/merge";
import type { DistilledFact } from "../profile/distill/types";
import { detectExport, ExportFormatError, parseChatGptExport, parseClaudeExport, parseMemoryDump } from "../profile/parsers";

/** The prompt a person pastes into an assistant to get its memories back as a list. */
export function memoryPrompt(assistant: Assistant): string {
  const name = ASSISTANT_NAMES[assistant];
  return [
    `List everything you remember about me, as ${name} has learned it across our conversations:`,
    "who I am, where I live, my work, the people in my life, my preferences, plans and projects.",
    "Write one fact per line, each starting with the date you learned it in the form [YYYY-MM-DD] if you know it,",
    "then the fact in the first person (for example: [2024-03-05] - I live in Lisbon).",
    "Do not add anything else.",
  ].join(" ");
}

export interface PreviewMemory {
  text: string;
  /** ISO 8601 date when the assistant recorded it, if known. */
  at: string | null;
}

export interface BroughtIn {
  provider: Assistant;
  via: "paste" | "file";
  memories: PreviewMemory[];
  /** False while the person is looking at the preview; true once they chose to keep it. */
  confirmed: boolean;
}

/** Limits of what one import on the hosted screen takes. */
export const PASTE_MAX_CHARS = 20_000;
export const FILE_MAX_BYTES = 20 * 1024 * 1024;
export const PREVIEW_MAX_MEMORIES = 200;
const MEMORY_MAX_CHARS = 1_000;

export class BringInError extends Error {}

function finish(memories: PreviewMemory[]): PreviewMemory[] {
  const out = memories
    .map((m) => ({ text: m.text.replace(/\s+/g, " ").trim().slice(0, MEMORY_MAX_CHARS), at: m.at }))
    .filter((m) => m.text.length >= 3)
    .slice(0, PREVIEW_MAX_MEMORIES);
  if (!out.length) throw new BringInError("We could not find any memories in that. Paste the assistant's whole answer.");
  return out;
}

/** The assistant's pasted answer: one memory per line (dates kept when the assistant gave them). */
export function previewPaste(text: string): PreviewMemory[] {
  if (!text.trim()) throw new BringInError("Paste the assistant's answer first.");
  if (text.length > PASTE_MAX_CHARS) throw new BringInError(`That is longer than ${PASTE_MAX_CHARS.toLocaleString("en-US")} characters. Paste the list of memories only.`);
  return finish(parseMemoryDump(text).map((m) => ({ text: m.text, at: m.at ? m.at.toISOString() : null })));
}

/**
 * An export file (conversations.json from ChatGPT or Claude): what the person said, distilled into
 * memories, each dated by its conversation. Someone not signed in yet (anyone with a flow's link)
 * gets the built-in distiller: the configured language model, which costs per character, is for
 * people who have proven their number.
 */
export async function previewExport(assistant: Assistant, bytes: Uint8Array, who: { signedIn: boolean }): Promise<PreviewMemory[]> {
  if (!EXPORT_ASSISTANTS.includes(assistant)) throw new BringInError(`${ASSISTANT_NAMES[assistant]} export files cannot be read yet. Paste the answer instead.`);
  if (bytes.byteLength > FILE_MAX_BYTES) throw new BringInError("That file is larger than 20 MB. Upload conversations.json from the export.");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new BringInError("That file is not conversations.json. Unzip the export and upload conversations.json.");
  }
  const kind = detectExport(json);
  if (kind !== assistant) {
    throw new BringInError(kind ? `That is a ${ASSISTANT_NAMES[kind]} export, not ${ASSISTANT_NAMES[assistant]}.` : "That file is not a conversations.json export.");
  }
  let parsed;
  try {
    parsed = kind === "chatgpt" ? parseChatGptExport(json) : parseClaudeExport(json);
  } catch (err) {
    if (err instanceof ExportFormatError) throw new BringInError(`That export could not be read: ${err.message}`);
    throw err;
  }
  const distiller = who.signedIn ? distillerFromConfig() : builtinDistiller;
  const memories: PreviewMemory[] = [];
  for (const instruction of parsed.instructions) memories.push({ text: instruction.text, at: instruction.at?.toISOString() ?? null });
  // Oldest conversation first (an export lists them in its own order), each folded into what the earlier
  // ones taught: a later city replaces the earlier, a restatement keeps one entry, an ending drops the fact.
  const started = (c: (typeof parsed.conversations)[number]) => (c.messages.find((m) => m.at)?.at ?? c.createdAt)?.getTime() ?? 0;
  const conversations = [...parsed.conversations].sort((a, b) => started(a) - started(b));
  let held: DistilledFact[] = [];
  for (const conversation of conversations) {
    const said = conversation.messages.filter((m) => m.role === "user" && m.content.trim());
    if (!said.length) continue;
    const at = said[0]!.at ?? conversation.createdAt ?? null;
    const { facts, retractions } = await distiller.distill({ messages: said.map((m) => ({ role: "user" as const, content: m.content })) });
    held = mergeFacts(
      held,
      facts.map((f) => ({ ...f, at })),
      retractions,
    );
    if (memories.length + held.length >= PREVIEW_MAX_MEMORIES) break;
  }
  memories.push(...held.map((f) => ({ text: f.text, at: f.at?.toISOString() ?? null })));
  return finish(memories);
}
