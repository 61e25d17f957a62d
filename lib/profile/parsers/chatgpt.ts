// Reads ChatGPT's conversations.json into conversations on the branch the user ended on, plus custom instructions.
import { z } from "zod";
import { assertConversationCount, assertMessageChars, assertMessageCount } from "./limits";
import { ExportFormatError, formatPath, type ParsedConversation, type ParsedExport, type ParsedMessage } from "./types";

const messageSchema = z.object({
  author: z.object({ role: z.enum(["user", "assistant", "system", "tool"]) }),
  content: z.object({
    content_type: z.string(),
    parts: z.array(z.unknown()).nullish(),
    user_profile: z.string().nullish(),
    user_instructions: z.string().nullish(),
  }),
  create_time: z.number().nullish(),
  metadata: z.object({ is_visually_hidden_from_conversation: z.boolean().nullish() }).nullish(),
});

const nodeSchema = z.object({
  message: messageSchema.nullish(),
  parent: z.string().nullish(),
  children: z.array(z.string()).nullish(),
});

const conversationSchema = z.object({
  id: z.string().nullish(),
  conversation_id: z.string().nullish(),
  title: z.string().nullish(),
  create_time: z.number().nullish(),
  current_node: z.string().nullish(),
  mapping: z.record(z.string(), nodeSchema),
});

type Conversation = z.infer<typeof conversationSchema>;
type Node = z.infer<typeof nodeSchema>;
type Instruction = ParsedExport["instructions"][number];

const USER_EDITABLE_CONTEXT = "user_editable_context";

// Rounded, not truncated: create_time is a float, and seconds × 1000 can land a hair under the true millisecond.
const fromUnixSeconds = (seconds: number | null | undefined): Date | null => (seconds == null ? null : new Date(Math.round(seconds * 1000)));

/**
 * ChatGPT wraps each custom-instruction field in a fixed preamble ("The user provided …") followed by the
 * user's own words in a ``` block. Only the user's words belong in a profile; text without that preamble
 * is kept whole so a fence the user typed is never mistaken for the wrapper.
 */
export function unwrapInstruction(raw: string): string {
  const text = raw.trim();
  if (!text.startsWith("The user provided")) return text;
  const open = text.indexOf("```");
  const close = text.lastIndexOf("```");
  if (open === -1 || close <= open) return text;
  return text.slice(open + 3, close).trim();
}

/** Used only when current_node is absent: the most recent leaf is the branch the user last saw. */
function latestLeaf(mapping: Conversation["mapping"]): string | null {
  let best: string | null = null;
  let bestTime = -Infinity;
  for (const [id, node] of Object.entries(mapping)) {
    if (node.children && node.children.length > 0) continue;
    const time = node.message?.create_time ?? -Infinity;
    if (best === null || time > bestTime) {
      best = id;
      bestTime = time;
    }
  }
  return best;
}

/** Node ids from the root to `leaf`. A parent missing from the mapping ends the walk: nothing lies beyond it. */
function branchTo(mapping: Conversation["mapping"], leaf: string, where: string): [string, Node][] {
  const path: [string, Node][] = [];
  const seen = new Set<string>();
  let id: string | null | undefined = leaf;
  while (id != null) {
    const node: Node | undefined = Object.hasOwn(mapping, id) ? mapping[id] : undefined;
    if (!node) break;
    if (seen.has(id)) throw new ExportFormatError(`${formatPath(`${where}.mapping`, [id])} is part of a cycle of parent links`);
    seen.add(id);
    path.push([id, node]);
    id = node.parent;
  }
  return path.reverse();
}

function textOf(parts: readonly unknown[] | null | undefined): string {
  // Images, audio and other attachments arrive as objects among the parts; only the words are imported.
  return (parts ?? [])
    .filter((p): p is string => typeof p === "string")
    .join("\n")
    .trim();
}

function parseConversation(conv: Conversation, where: string, instructions: Instruction[]): ParsedConversation {
  const id = conv.id ?? conv.conversation_id;
  if (!id) throw new ExportFormatError(`${where} has neither id nor conversation_id`);
  const createdAt = fromUnixSeconds(conv.create_time);

  let leaf: string | null;
  if (conv.current_node != null) {
    if (!Object.hasOwn(conv.mapping, conv.current_node)) {
      throw new ExportFormatError(`${where}.current_node names a node that is not in mapping`);
    }
    leaf = conv.current_node;
  } else {
    leaf = latestLeaf(conv.mapping);
  }

  const messages: ParsedMessage[] = [];
  for (const [nodeId, node] of leaf === null ? [] : branchTo(conv.mapping, leaf, where)) {
    const message = node.message;
    if (!message) continue;
    const at = fromUnixSeconds(message.create_time);
    // The instructions node is itself hidden, so it is read before hidden messages are skipped.
    if (message.content.content_type === USER_EDITABLE_CONTEXT) {
      for (const field of [message.content.user_profile, message.content.user_instructions]) {
        const text = field ? unwrapInstruction(field) : "";
        if (text) instructions.push({ text, at: at ?? createdAt });
      }
      continue;
    }
    if (message.metadata?.is_visually_hidden_from_conversation === true) continue;
    const content = textOf(message.content.parts);
    if (!content) continue;
    assertMessageChars(content, `${formatPath(`${where}.mapping`, [nodeId])}.message`);
    messages.push({ role: message.author.role, content, at });
  }
  assertMessageCount(messages.length, where);

  return { id, title: conv.title || null, createdAt, messages };
}

/** The same custom instructions ride along in every conversation; one entry each, dated when first seen. */
function dedupeInstructions(all: Instruction[]): Instruction[] {
  const byText = new Map<string, Instruction>();
  for (const item of all) {
    const seen = byText.get(item.text);
    if (!seen) byText.set(item.text, { ...item });
    else if (item.at && (!seen.at || item.at < seen.at)) seen.at = item.at;
  }
  return [...byText.values()];
}

/**
 * Parses ChatGPT's conversations.json.
 *
 * Strict by design: one malformed conversation rejects the whole export with its index, instead of being
 * dropped. A silently partial import would leave a profile that looks complete but is not, and the user
 * who uploaded the file is the one person who can fix or re-export it.
 */
export function parseChatGptExport(input: unknown): ParsedExport {
  if (!Array.isArray(input)) {
    throw new ExportFormatError("conversations is not an array (expected the contents of ChatGPT's conversations.json)");
  }
  assertConversationCount(input.length);

  const instructions: Instruction[] = [];
  const conversations = input.map((raw: unknown, index) => {
    const where = `conversations[${index}]`;
    const parsed = conversationSchema.safeParse(raw);
    if (!parsed.success) throw ExportFormatError.fromZod(parsed.error, raw, where);
    return parseConversation(parsed.data, where, instructions);
  });

  return { provider: "chatgpt", conversations, instructions: dedupeInstructions(instructions) };
}
