// The export parsers' public face, and recognition of which assistant a parsed conversations.json came from.
export { parseChatGptExport } from "./chatgpt";
export { parseClaudeExport } from "./claude";
export { parseMemoryDump } from "./memory-dump";
export { MAX_CONVERSATIONS_PER_PROFILE, MAX_MESSAGES_PER_CONVERSATION, MAX_MESSAGE_CHARS } from "./limits";
export { ExportFormatError, type ParsedConversation, type ParsedExport, type ParsedMemory, type ParsedMessage, type ParsedRole } from "./types";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Both exports are files named conversations.json holding an array, so the first conversation's keys
 * tell them apart: ChatGPT's tree lives in `mapping`, Claude's list in `chat_messages`. An empty array
 * or anything else gives null: there is nothing to say which parser, and so which provider, applies.
 */
export function detectExport(input: unknown): "chatgpt" | "claude" | null {
  if (!Array.isArray(input)) return null;
  const first: unknown = input[0];
  if (!isRecord(first)) return null;
  if (isRecord(first.mapping)) return "chatgpt";
  if (Array.isArray(first.chat_messages)) return "claude";
  return null;
}
