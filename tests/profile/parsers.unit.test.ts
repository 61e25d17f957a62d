// Export parsers: ChatGPT and Claude conversations.json, pasted memory dumps, caps and format errors.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ExportFormatError,
  MAX_CONVERSATIONS_PER_PROFILE,
  MAX_MESSAGE_CHARS,
  MAX_MESSAGES_PER_CONVERSATION,
  detectExport,
  parseChatGptExport,
  parseClaudeExport,
  parseMemoryDump,
} from "@/lib/profile/parsers";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/exports/${name}`, import.meta.url), "utf8");
const chatgptFixture = () => JSON.parse(fixture("chatgpt-conversations.json")) as unknown;
const claudeFixture = () => JSON.parse(fixture("claude-conversations.json")) as unknown;

const at = (iso: string) => new Date(iso);
const ms = (epochMs: number) => new Date(epochMs);
const msg = (role: string, content: string, when: Date | null) => ({ role, content, at: when });

/** Captures what a parser throws, so tests can assert its class and exact message. */
function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error("expected the parser to throw");
}

function expectFormatError(run: () => unknown, message: string) {
  const error = thrown(run);
  expect(error).toBeInstanceOf(ExportFormatError);
  expect(error.name).toBe("ExportFormatError");
  expect(error.message).toBe(message);
}

type Turn = { role: "user" | "assistant" | "system" | "tool"; text: string };

/** A linear ChatGPT conversation, node n{i} holding turn i, created one second apart. */
function chatgptConversation(turns: Turn[], id = "conv-1") {
  const mapping: Record<string, unknown> = {
    root: { id: "root", message: null, parent: null, children: turns.length ? ["n0"] : [] },
  };
  turns.forEach((turn, i) => {
    mapping[`n${i}`] = {
      id: `n${i}`,
      message: {
        author: { role: turn.role },
        content: { content_type: "text", parts: [turn.text] },
        create_time: 1700000000 + i,
        metadata: {},
      },
      parent: i === 0 ? "root" : `n${i - 1}`,
      children: i === turns.length - 1 ? [] : [`n${i + 1}`],
    };
  });
  return { id, title: "T", create_time: 1700000000, current_node: turns.length ? `n${turns.length - 1}` : "root", mapping };
}

function claudeConversation(texts: string[], uuid = "c-1") {
  return {
    uuid,
    name: "N",
    created_at: "2024-01-01T00:00:00Z",
    chat_messages: texts.map((text, i) => ({
      uuid: `m${i}`,
      sender: i % 2 === 0 ? "human" : "assistant",
      text,
      created_at: "2024-01-01T00:00:00Z",
    })),
  };
}

const alternating = (n: number): Turn[] => Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", text: `turn ${i}` }));

describe("parseChatGptExport", () => {
  it("keeps only the branch ending at current_node, root first, with exact timestamps", () => {
    const parsed = parseChatGptExport(chatgptFixture());
    expect(parsed.provider).toBe("chatgpt");
    expect(parsed.conversations).toHaveLength(3);
    const [lisbon] = parsed.conversations;
    expect(lisbon).toEqual({
      id: "66364be5-0f5c-8003-a1c2-3d4e5f6a7b8c",
      title: "Packing for Lisbon",
      createdAt: ms(1714821093412),
      messages: [
        msg("user", "I'm going to Lisbon for a week in May. What should I pack?", ms(1714821093598)),
        msg("assistant", "Layers: May averages 14–22 °C. Pack a light jacket, comfortable shoes for the hills, and sunscreen.", ms(1714821101005)),
        msg("user", "Is it rainy in May? Also, I'm vegetarian: where should I eat?", ms(1714821302750)),
        msg("assistant", "May is mostly dry (about 5 rainy days). For vegetarian food, try Ao 26 in Chiado or PSI in Jardim do Arco do Cego.", ms(1714821544909)),
      ],
    });
  });

  it("skips the hidden system message, empty messages, tool code and image parts", () => {
    const parsed = parseChatGptExport(chatgptFixture());
    const all = parsed.conversations.flatMap((c) => c.messages.map((m) => m.content));
    expect(all.some((text) => text.includes("You are ChatGPT"))).toBe(false);
    expect(parsed.conversations[1]?.messages).toEqual([
      msg("user", "What model is this bike? I bought it second-hand.", ms(1715002211377)),
      msg("assistant", "It looks like a Brompton C Line Explore, 6-speed, in racing green.", ms(1715002260300)),
    ]);
  });

  it("falls back to the latest leaf without current_node, and to conversation_id without id", () => {
    const third = parseChatGptExport(chatgptFixture()).conversations[2];
    expect(third).toEqual({
      id: "664e1a80-2b3c-8003-c3d4-5e6f7a8b9c0d",
      title: null,
      createdAt: ms(1716400000500),
      messages: [
        msg("user", "Translate 'good morning' into Portuguese.", ms(1716400010000)),
        msg("assistant", '"Bom dia" — used until about noon in Portugal.', ms(1716400090250)),
      ],
    });
  });

  it("extracts custom instructions without ChatGPT's preamble, once each, dated when first seen", () => {
    expect(parseChatGptExport(chatgptFixture()).instructions).toEqual([
      {
        text: "Preferred name: Ana\nRole or occupation: Product designer in Porto\nOther information: Vegetarian, cycles to work",
        at: ms(1714821093412),
      },
      { text: "Be concise. Use metric units.", at: ms(1714821093412) },
    ]);
  });

  it("keeps instructions typed without the preamble whole, code fences included", () => {
    const conv = chatgptConversation([{ role: "user", text: "hi" }]);
    Object.assign(conv.mapping, {
      ctx: {
        message: {
          author: { role: "user" },
          content: { content_type: "user_editable_context", user_profile: "", user_instructions: "Answer in ```code``` blocks" },
          create_time: 1700000100.25,
          metadata: { is_visually_hidden_from_conversation: true },
        },
        parent: "n0",
        children: [],
      },
    });
    conv.current_node = "ctx";
    const parsed = parseChatGptExport([conv]);
    expect(parsed.instructions).toEqual([{ text: "Answer in ```code``` blocks", at: ms(1700000100250) }]);
    expect(parsed.conversations[0]?.messages).toEqual([msg("user", "hi", ms(1700000000000))]);
  });

  it("refuses a cycle in parent links instead of looping", () => {
    const conv = chatgptConversation(alternating(3));
    (conv.mapping.n0 as { parent: string }).parent = "n2";
    expectFormatError(() => parseChatGptExport([conv]), "conversations[0].mapping.n2 is part of a cycle of parent links");
    const selfLoop = chatgptConversation(alternating(2));
    (selfLoop.mapping.n1 as { parent: string }).parent = "n1";
    expectFormatError(() => parseChatGptExport([selfLoop]), "conversations[0].mapping.n1 is part of a cycle of parent links");
  });

  it("refuses a current_node that names no node", () => {
    const conv = { ...chatgptConversation(alternating(2)), current_node: "gone" };
    expectFormatError(() => parseChatGptExport([conv]), "conversations[0].current_node names a node that is not in mapping");
  });

  it("names the problem and where it is for malformed input", () => {
    const good = chatgptConversation(alternating(2));
    expectFormatError(() => parseChatGptExport({ conversations: [] }), "conversations is not an array (expected the contents of ChatGPT's conversations.json)");
    expectFormatError(() => parseChatGptExport([good, "x"]), "conversations[1] is not an object");
    expectFormatError(() => parseChatGptExport([good, good, good, { ...good, mapping: [] }]), "conversations[3].mapping is not an object");
    const { mapping: _dropped, ...noMapping } = good;
    expectFormatError(() => parseChatGptExport([noMapping]), "conversations[0].mapping is missing");
    const { id: _id, ...noId } = good;
    expectFormatError(() => parseChatGptExport([noId]), "conversations[0] has neither id nor conversation_id");
    expectFormatError(
      () => parseChatGptExport([{ ...good, mapping: { "node-1": { message: { author: { role: "bot" }, content: { content_type: "text" } } } } }]),
      'conversations[0].mapping["node-1"].message.author.role is not one of "user", "assistant", "system", "tool"',
    );
    expectFormatError(() => parseChatGptExport([{ ...good, create_time: "2024-01-01" }]), "conversations[0].create_time is not a number");
  });

  it("accepts each cap at its bound and refuses one past it, naming the cap", () => {
    const small = chatgptConversation([{ role: "user", text: "x" }]);
    expect(parseChatGptExport(Array.from({ length: MAX_CONVERSATIONS_PER_PROFILE }, () => small)).conversations).toHaveLength(250);
    expectFormatError(
      () => parseChatGptExport(Array.from({ length: MAX_CONVERSATIONS_PER_PROFILE + 1 }, () => small)),
      "export has 251 conversations, over the cap of 250 conversations per profile",
    );

    expect(parseChatGptExport([chatgptConversation(alternating(MAX_MESSAGES_PER_CONVERSATION))]).conversations[0]?.messages).toHaveLength(1000);
    expectFormatError(
      () => parseChatGptExport([small, chatgptConversation(alternating(MAX_MESSAGES_PER_CONVERSATION + 1))]),
      "conversations[1] has 1,001 messages, over the cap of 1,000 messages per conversation",
    );

    const atCap = "a".repeat(MAX_MESSAGE_CHARS);
    expect(parseChatGptExport([chatgptConversation([{ role: "user", text: atCap }])]).conversations[0]?.messages[0]?.content).toBe(atCap);
    // Characters are code points: 20,000 emoji are 40,000 UTF-16 units and still within the cap.
    const emoji = "🚲".repeat(MAX_MESSAGE_CHARS);
    expect(parseChatGptExport([chatgptConversation([{ role: "user", text: emoji }])]).conversations[0]?.messages[0]?.content).toBe(emoji);
    expectFormatError(
      () =>
        parseChatGptExport([
          chatgptConversation([
            { role: "user", text: "ok" },
            { role: "assistant", text: `${atCap}b` },
          ]),
        ]),
      "conversations[0].mapping.n1.message has 20,001 characters, over the cap of 20,000 characters per message",
    );
  });
});

describe("parseClaudeExport", () => {
  it("maps senders, prefers text, falls back to text content items, and keeps timestamps", () => {
    const parsed = parseClaudeExport(claudeFixture());
    expect(parsed).toEqual({
      provider: "claude",
      instructions: [],
      conversations: [
        {
          id: "0d3b2f5e-7c1a-4e8b-9f20-1a2b3c4d5e6f",
          title: "Marathon training plan",
          createdAt: at("2024-06-02T07:15:42.118Z"),
          messages: [
            msg("user", "I'm running the Lisbon marathon in October. I can train four mornings a week.", at("2024-06-02T07:15:42.530Z")),
            msg("assistant", "Here is an 18-week plan with four runs a week.\nWeek 1: 5 km easy, 6 km tempo, 5 km easy, 12 km long.", at("2024-06-02T07:15:44.021Z")),
            msg("assistant", "Thanks. Your recent 8.2 km run fits week 2 well.", at("2024-06-02T07:31:10.552Z")),
          ],
        },
        {
          id: "7e6d5c4b-3a29-4180-8f7e-6d5c4b3a2910",
          title: null,
          createdAt: at("2024-07-19T20:04:03.000Z"),
          messages: [
            msg("user", "My daughter Inês is allergic to peanuts. Suggest a birthday cake.", at("2024-07-19T20:04:03.412Z")),
            msg("assistant", "A lemon olive-oil cake is naturally peanut-free; check that the baking powder is made in a nut-free facility.", at("2024-07-19T20:05:12.000Z")),
          ],
        },
      ],
    });
  });

  it("names the problem and where it is for malformed input", () => {
    const good = claudeConversation(["hi", "hello"]);
    expectFormatError(() => parseClaudeExport("[]"), "conversations is not an array (expected the contents of Claude's conversations.json)");
    expectFormatError(
      () => parseClaudeExport([good, { ...good, chat_messages: [{ sender: "system", text: "x" }] }]),
      'conversations[1].chat_messages[0].sender is not one of "human", "assistant"',
    );
    expectFormatError(() => parseClaudeExport([{ ...good, chat_messages: undefined }]), "conversations[0].chat_messages is missing");
    expectFormatError(() => parseClaudeExport([{ ...good, created_at: "yesterday" }]), 'conversations[0].created_at is not a date: "yesterday"');
  });

  it("accepts each cap at its bound and refuses one past it", () => {
    const small = claudeConversation(["x"]);
    expect(parseClaudeExport(Array.from({ length: 250 }, () => small)).conversations).toHaveLength(250);
    expectFormatError(() => parseClaudeExport(Array.from({ length: 251 }, () => small)), "export has 251 conversations, over the cap of 250 conversations per profile");
    const texts = (n: number) => Array.from({ length: n }, (_, i) => `m${i}`);
    expect(parseClaudeExport([claudeConversation(texts(1000))]).conversations[0]?.messages).toHaveLength(1000);
    expectFormatError(() => parseClaudeExport([claudeConversation(texts(1001))]), "conversations[0] has 1,001 messages, over the cap of 1,000 messages per conversation");
    expect(parseClaudeExport([claudeConversation(["a".repeat(20_000)])]).conversations[0]?.messages[0]?.content).toHaveLength(20_000);
    expectFormatError(
      () => parseClaudeExport([claudeConversation(["ok", "a".repeat(20_001)])]),
      "conversations[0].chat_messages[1] has 20,001 characters, over the cap of 20,000 characters per message",
    );
  });
});

describe("detectExport", () => {
  it("tells the two exports apart and declines anything else", () => {
    expect(detectExport(chatgptFixture())).toBe("chatgpt");
    expect(detectExport(claudeFixture())).toBe("claude");
    expect(detectExport([])).toBeNull();
    expect(detectExport(null)).toBeNull();
    expect(detectExport({ mapping: {} })).toBeNull();
    expect(detectExport([1, 2])).toBeNull();
    expect(detectExport([{ title: "no tree" }])).toBeNull();
  });
});

describe("parseMemoryDump", () => {
  it("reads every line form, skips headers, and dedupes keeping the earliest date", () => {
    expect(parseMemoryDump(fixture("memory-dump.txt"))).toEqual([
      { text: "I live in Lisbon", at: at("2023-11-20T00:00:00Z") },
      { text: "Works as a product designer at a fintech startup", at: at("2024-03-05T14:20:00Z") },
      { text: "Prefers replies in British English", at: at("2024-04-11T08:30:00Z") },
      { text: "Has a cat named Pastel", at: null },
      { text: "Vegetarian since 2019", at: at("2024-05-01T00:00:00Z") },
      { text: "Cycles to work most days", at: null },
      { text: "Learning Portuguese (A2 level)", at: null },
      { text: "Owns a Brompton folding bike", at: null },
      { text: "Allergic to penicillin", at: null },
      { text: "[Work] Manages a team of four", at: null },
      { text: "Training for the Lisbon marathon in October", at: at("2024-01-08T00:00:00Z") },
      { text: "Dislikes cilantro", at: null },
    ]);
  });

  it("gives null for impossible dates and never throws", () => {
    const lines = ["[2024-13-01] - a", "[2024-02-29 25:00] - b", "[03/05/2024] - c", "[2023-02-29] - d", "[2024-02-29T23:59:59.250-02:30] - e"];
    expect(parseMemoryDump(lines.join("\r\n"))).toEqual([
      { text: "a", at: null },
      { text: "b", at: null },
      { text: "c", at: null },
      { text: "d", at: null },
      { text: "e", at: at("2024-03-01T02:29:59.250Z") },
    ]);
  });

  it("strips quotes and whitespace, and returns nothing for blank input", () => {
    expect(parseMemoryDump("  - 'Takes the 7:40 train'  \n1. \"Speaks French\"\n")).toEqual([
      { text: "Takes the 7:40 train", at: null },
      { text: "Speaks French", at: null },
    ]);
    expect(parseMemoryDump("\n   \n\t\n")).toEqual([]);
  });
});
