// The LLM distiller against a local server speaking the OpenAI chat-completions wire format: parsing, checks, fallback, settings.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLlmDistiller } from "@/lib/profile/distill/llm";
import { builtinDistiller, distillerFromConfig, distillerFromSettings, type DistillInput, type Distiller } from "@/lib/profile/distill";
import { captureLogLines } from "../helpers/logs";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** What the server does with the next request: answer with chat content, a raw status, or never. */
type Reply = { content: string; finishReason?: string } | { status: number; body: string } | "hang";

const received: Received[] = [];
let reply: Reply = { content: "{}" };
let server: Server;
let baseUrl = "";

function completion(content: string, model: string, finishReason: string) {
  return {
    id: "chatcmpl-test-1",
    object: "chat.completion",
    created: 1_767_225_600,
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finishReason }],
    usage: { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 },
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (reply === "hang") return;
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      if ("status" in reply) {
        res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
        return;
      }
      const json = completion(reply.content, String(body.model), reply.finishReason ?? "stop");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  // The "hang" test leaves a request open on purpose.
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let logLines: string[] = [];
beforeEach(() => {
  received.length = 0;
  logLines = [];
  captureLogLines(logLines);
});

const llm = (extra: { apiKey?: string; timeoutMs?: number } = { apiKey: "sk-local-test" }): Distiller =>
  createLlmDistiller({ baseUrl, model: "test-model", fallback: builtinDistiller, ...extra });

const modelSays = (output: unknown) => {
  reply = { content: JSON.stringify(output) };
};

const at = new Date("2026-11-20T10:00:00.000Z");
const conversation: DistillInput = {
  messages: [
    { role: "system", content: "You are a cooking helper." },
    { role: "user", content: "Hi! I live in Lisbon and I love trail running.", at },
    { role: "assistant", content: "You're vegan, right? Here are some ideas." },
    { role: "user", content: "I'm building a budgeting app in Rust." },
  ],
};

const builtinFor = (input: DistillInput) => builtinDistiller.distill(input);

describe("llm distiller: facts from the model", () => {
  it("parses the model's facts and fills key, box, at and messageIndex locally", async () => {
    modelSays({
      facts: [
        { messageIndex: 1, kind: "location", text: "Lives in Lisbon." },
        { messageIndex: 1, kind: "like", text: "Likes trail running" },
        { messageIndex: 3, kind: "project", text: "Is building a budgeting app in Rust" },
      ],
      summary: "The user lives in Lisbon and likes trail running. The user is building a budgeting app in Rust.",
    });
    const result = await llm().distill(conversation);
    expect(result).toEqual({
      facts: [
        { text: "Lives in Lisbon", kind: "location", box: "identity", key: "location:live:lisbon", at, messageIndex: 1 },
        { text: "Likes trail running", kind: "like", box: "preferences", key: "like:run trail", at, messageIndex: 1 },
        {
          text: "Is building a budgeting app in Rust",
          kind: "project",
          box: "projects/budgeting-app",
          key: "project:app budget rust",
          at: null,
          messageIndex: 3,
        },
      ],
      summary: "The user lives in Lisbon and likes trail running. The user is building a budgeting app in Rust.",
    });
    expect(logLines).toEqual([]);
  });

  it("sends one chat-completions request with the model, the user's text, a JSON schema and the bearer key", async () => {
    modelSays({ facts: [], summary: "" });
    await llm().distill(conversation);
    expect(received).toHaveLength(1);
    const req = received[0]!;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-local-test");
    expect(req.body.model).toBe("test-model");
    expect(req.body.temperature).toBe(0);
    const messages = req.body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messages[0]!.content).toContain('Take facts only from messages whose role is "user"');
    const lines = messages[1]!.content.split("\n");
    expect(lines).toEqual([
      "The conversation, one JSON object per message:",
      '{"index":1,"role":"user","content":"Hi! I live in Lisbon and I love trail running."}',
      '{"index":2,"role":"assistant","content":"You\'re vegan, right? Here are some ideas."}',
      '{"index":3,"role":"user","content":"I\'m building a budgeting app in Rust."}',
    ]);
    // ai 6 + @ai-sdk/openai 3 send structured output as a strict json_schema response format.
    const format = req.body.response_format as { type: string; json_schema: { name: string; strict: boolean; schema: Record<string, unknown> } };
    expect(format.type).toBe("json_schema");
    expect(format.json_schema.name).toBe("user_facts");
    expect(format.json_schema.strict).toBe(true);
    const schema = format.json_schema.schema as {
      required: string[];
      properties: { facts: { items: { required: string[]; properties: { kind: { enum: string[] }; text: unknown } } } };
    };
    // Only keywords OpenAI's strict mode accepts: no minLength/maxLength on strings.
    expect(schema.properties.facts.items.properties.text).toEqual({ type: "string" });
    expect(schema.required).toEqual(["facts", "summary"]);
    expect([...schema.properties.facts.items.required].sort()).toEqual(["kind", "messageIndex", "text"]);
    expect(schema.properties.facts.items.properties.kind.enum).toEqual(["name", "location", "work", "relationship", "like", "dislike", "preference", "project", "plan", "other"]);
  });

  it("sends no Authorization header when no API key is configured (Ollama, vLLM)", async () => {
    modelSays({ facts: [], summary: "" });
    await llm({}).distill(conversation);
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.authorization).toBeUndefined();
  });

  it("drops facts citing an assistant, system or missing message or with no text, and retells the summary from what is kept", async () => {
    modelSays({
      facts: [
        { messageIndex: 2, kind: "preference", text: "Is vegan" },
        { messageIndex: 0, kind: "other", text: "Is a cooking helper" },
        { messageIndex: 9, kind: "location", text: "Lives in Paris" },
        { messageIndex: 3, kind: "project", text: " . " },
        { messageIndex: 1, kind: "location", text: "Lives in Lisbon" },
      ],
      summary: "The user lives in Lisbon. The user also is vegan.",
    });
    const result = await llm().distill(conversation);
    expect(result.facts.map((f) => `${f.messageIndex} ${f.key}`)).toEqual(["1 location:live:lisbon"]);
    expect(result.summary).toBe("The user lives in Lisbon.");
  });

  it("computes keys locally, the way the built-in distiller does, whatever the model's wording", async () => {
    const input: DistillInput = {
      messages: [
        { role: "user", content: "my name is Sam. We have two kids and a daughter named Ana. I'm 34." },
        { role: "user", content: "I really enjoy trail running, I'm married and I prefer metric units. I'm from Brazil." },
      ],
    };
    modelSays({
      facts: [
        { messageIndex: 0, kind: "name", text: "Is called Sam" },
        { messageIndex: 0, kind: "relationship", text: "Has two kids" },
        { messageIndex: 0, kind: "relationship", text: "Has a daughter named Ana" },
        { messageIndex: 0, kind: "other", text: "Is 34 years old" },
        { messageIndex: 1, kind: "like", text: "Likes trail running" },
        { messageIndex: 1, kind: "relationship", text: "Is married" },
        { messageIndex: 1, kind: "preference", text: "Prefers metric units" },
        { messageIndex: 1, kind: "location", text: "Is from Brazil" },
      ],
      summary: "The user is called Sam.",
    });
    const fromLlm = await llm().distill(input);
    const keys = fromLlm.facts.map((f) => f.key);
    expect(keys).toEqual([
      "name:sam",
      "relationship:child",
      "relationship:daughter:ana",
      "other:age:34",
      "like:run trail",
      "relationship:status:married",
      "preference:metric unit",
      "location:from:brazil",
    ]);
    // Same keys as the built-in distiller gives for the same sentences, so `known` works across drivers.
    expect([...keys].sort()).toEqual((await builtinFor(input)).facts.map((f) => f.key).sort());
  });

  it("keeps one fact per key (the latest), caps text at 200 characters and retells first person", async () => {
    const long = `Is writing ${"a very long novel about the sea and ".repeat(8)}the end`;
    modelSays({
      facts: [
        { messageIndex: 1, kind: "like", text: "Likes trail running" },
        { messageIndex: 3, kind: "like", text: "likes trail runs" },
        { messageIndex: 3, kind: "other", text: long },
        { messageIndex: 3, kind: "work", text: "Works as a nurse at my hospital" },
      ],
      summary: "",
    });
    const { facts } = await llm().distill(conversation);
    expect(facts.map((f) => [f.messageIndex, f.text])).toEqual([
      [3, "Likes trail runs"],
      [3, `Is writing ${"a very long novel about the sea and ".repeat(5)}a very…`],
      [3, "Works as a nurse at their hospital"],
    ]);
    expect(facts[1]!.text).toHaveLength(198);
  });

  it("returns nothing the profile already holds, including an unnamed relation next to a known named one", async () => {
    modelSays({
      facts: [
        { messageIndex: 1, kind: "location", text: "Lives in Lisbon" },
        { messageIndex: 1, kind: "relationship", text: "Has a wife" },
        { messageIndex: 3, kind: "like", text: "Likes trail running" },
      ],
      summary: "The user lives in Lisbon, has a wife and likes trail running.",
    });
    const result = await llm().distill({ ...conversation, known: [{ key: "location:live:lisbon" }, { key: "relationship:wife:helen" }] });
    expect(result.facts.map((f) => f.key)).toEqual(["like:run trail"]);
    expect(result.summary).toBe("The user likes trail running.");
  });

  it("makes no request when there is no user text", async () => {
    const result = await llm().distill({ messages: [{ role: "assistant", content: "You live in Paris." }] });
    expect(result).toEqual({ facts: [], summary: "" });
    expect(received).toHaveLength(0);
  });
});

describe("llm distiller: falls back to the built-in distiller", () => {
  const expectFallback = async (distiller: Distiller, error: string) => {
    const result = await distiller.distill(conversation);
    expect(result).toEqual(await builtinFor(conversation));
    expect(result.facts.map((f) => f.key)).toEqual(["location:live:lisbon", "like:run trail", "project:app budget rust"]);
    expect(logLines).toHaveLength(1);
    const line = JSON.parse(logLines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: "warn", distiller: "llm", model: "test-model", fallback: "builtin", error });
    // No message content, and no key, in the logs.
    expect(logLines[0]).not.toMatch(/Lisbon|trail|vegan|sk-local-test/);
    return line;
  };

  it("on a 500", async () => {
    reply = { status: 500, body: JSON.stringify({ error: { message: "Lisbon exploded", type: "server_error" } }) };
    const line = await expectFallback(llm(), "AI_APICallError");
    expect(line.status).toBe(500);
    expect(received).toHaveLength(1);
  });

  it("on content that is not JSON", async () => {
    reply = { content: '{"facts": [{"messageIndex": 1, "kind": "location", "text": "Lives in Lisbon"' };
    await expectFallback(llm(), "AI_NoObjectGeneratedError");
  });

  it("on JSON that does not match the schema", async () => {
    modelSays({ facts: [{ messageIndex: 1, kind: "hobby", text: "Likes trail running" }], summary: "" });
    await expectFallback(llm(), "AI_NoObjectGeneratedError");
  });

  it("on a reply cut off at the token limit", async () => {
    reply = { content: '{"facts": [', finishReason: "length" };
    await expectFallback(llm(), "AI_NoObjectGeneratedError");
  });

  it("on a timeout, when the server never answers", async () => {
    reply = "hang";
    const started = Date.now();
    const line = await expectFallback(llm({ apiKey: "sk-local-test", timeoutMs: 200 }), "TimeoutError");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(received).toHaveLength(1);
    expect(line.ms).toEqual(expect.any(Number));
  });

  it("on a server that is not there", async () => {
    const gone = createLlmDistiller({ baseUrl: "http://127.0.0.1:9/v1", model: "test-model", fallback: builtinDistiller });
    await expectFallback(gone, "AI_APICallError");
  });
});

describe("distillerFromSettings", () => {
  it("picks the built-in distiller, and distillerFromConfig still does", () => {
    expect(distillerFromSettings({ DISTILLER: "builtin" })).toBe(builtinDistiller);
    expect(distillerFromConfig()).toBe(builtinDistiller);
  });

  it("builds the llm distiller from a base URL and a model", async () => {
    const distiller = distillerFromSettings({ DISTILLER: "llm", LLM_BASE_URL: baseUrl, LLM_MODEL: "llama3.1", LLM_API_KEY: "sk-from-settings" });
    expect(distiller.name).toBe("llm");
    modelSays({ facts: [], summary: "" });
    await distiller.distill(conversation);
    expect(received.map((r) => [r.body.model, r.headers.authorization])).toEqual([["llama3.1", "Bearer sk-from-settings"]]);
  });

  it("refuses llm without a base URL or a model, or with a base URL that is not http(s)", () => {
    expect(() => distillerFromSettings({ DISTILLER: "llm", LLM_MODEL: "llama3.1" })).toThrow(new Error("DISTILLER=llm needs LLM_BASE_URL to be set."));
    expect(() => distillerFromSettings({ DISTILLER: "llm", LLM_BASE_URL: baseUrl })).toThrow(new Error("DISTILLER=llm needs LLM_MODEL to be set."));
    expect(() => distillerFromSettings({ DISTILLER: "llm" })).toThrow(new Error("DISTILLER=llm needs LLM_BASE_URL and LLM_MODEL to be set."));
    expect(() => distillerFromSettings({ DISTILLER: "llm", LLM_BASE_URL: "localhost:11434", LLM_MODEL: "llama3.1" })).toThrow(
      new Error("LLM_BASE_URL must be an absolute http(s) URL, e.g. http://127.0.0.1:11434/v1."),
    );
    expect(() => distillerFromSettings({ DISTILLER: "gpt" as "llm" })).toThrow(new Error('DISTILLER must be "builtin" or "llm", not "gpt".'));
  });
});
