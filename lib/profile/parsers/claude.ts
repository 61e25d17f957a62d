// Reads Claude's conversations.json into conversations of user and assistant messages.
import { z } from "zod";
import { assertConversationCount, assertMessageChars, assertMessageCount } from "./limits";
import { ExportFormatError, type ParsedConversation, type ParsedExport, type ParsedMessage } from "./types";

const SENDER_ROLES = { human: "user", assistant: "assistant" } as const;

const messageSchema = z.object({
  uuid: z.string().nullish(),
  sender: z.enum(["human", "assistant"]),
  text: z.string().nullish(),
  created_at: z.string().nullish(),
  // Besides text, content holds tool calls, tool results and thinking; those carry no `text` and are left out.
  content: z.array(z.object({ type: z.string(), text: z.string().nullish() })).nullish(),
});

const conversationSchema = z.object({
  uuid: z.string(),
  name: z.string().nullish(),
  created_at: z.string().nullish(),
  chat_messages: z.array(messageSchema),
});

type Message = z.infer<typeof messageSchema>;

/** A timestamp that is present but unreadable is a malformed export, not an unknown date. */
function isoDate(value: string | null | undefined, where: string): Date | null {
  if (value == null || value === "") return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new ExportFormatError(`${where} is not a date: ${JSON.stringify(value)}`);
  return date;
}

function textOf(message: Message): string {
  const text = message.text?.trim();
  if (text) return text;
  return (message.content ?? [])
    .filter((item) => item.type === "text" && item.text)
    .map((item) => item.text)
    .join("\n")
    .trim();
}

function parseConversation(conv: z.infer<typeof conversationSchema>, where: string): ParsedConversation {
  const messages: ParsedMessage[] = [];
  conv.chat_messages.forEach((message, index) => {
    const path = `${where}.chat_messages[${index}]`;
    const content = textOf(message);
    // Messages that were only attachments or tool traffic have no words to import.
    if (!content) return;
    assertMessageChars(content, path);
    messages.push({ role: SENDER_ROLES[message.sender], content, at: isoDate(message.created_at, `${path}.created_at`) });
  });
  assertMessageCount(messages.length, where);
  return {
    id: conv.uuid,
    title: conv.name || null,
    createdAt: isoDate(conv.created_at, `${where}.created_at`),
    messages,
  };
}

/**
 * Parses Claude's conversations.json. As with ChatGPT, one malformed conversation rejects the whole
 * export with its index rather than being dropped, so a partial import never passes for a complete one.
 */
export function parseClaudeExport(input: unknown): ParsedExport {
  if (!Array.isArray(input)) {
    throw new ExportFormatError("conversations is not an array (expected the contents of Claude's conversations.json)");
  }
  assertConversationCount(input.length);

  const conversations = input.map((raw: unknown, index) => {
    const where = `conversations[${index}]`;
    const parsed = conversationSchema.safeParse(raw);
    if (!parsed.success) throw ExportFormatError.fromZod(parsed.error, raw, where);
    return parseConversation(parsed.data, where);
  });

  // Claude's export carries no custom instructions: its profile preferences are not part of the file.
  return { provider: "claude", conversations, instructions: [] };
}
