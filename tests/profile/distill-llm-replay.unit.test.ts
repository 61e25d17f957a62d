// The LLM distiller over recorded model answers, replayed by a local chat-completions server
// (tests/helpers/llm-replay.ts): its quality on the labelled sets against the built-in rules, how it
// treats flawed answers, the limits on what one request carries, and its fallback. A request whose
// messages changed (the prompt, the transcript) finds no answer: re-record with bench/distill-llm-record.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { builtinDistiller, FACT_KINDS, type DistillInput, type DistillMessage } from "@/lib/profile/distill";
import { createLlmDistiller, LLM_LIMITS, LLM_SYSTEM_PROMPT, transcripts } from "@/lib/profile/distill/llm";
import { scoreDistiller, type DistillCase, type SetScore } from "@/lib/profile/distill/score";
import { captureLogLines } from "../helpers/logs";
import { loadFixtures } from "../fixtures/distill/load";
import { ANSWERS_DIR, loadAnswers, requestKey, startReplayServer, type AnswerBook } from "../helpers/llm-replay";

type Replay = Awaited<ReturnType<typeof startReplayServer>>;

const robustnessCases = JSON.parse(readFileSync(path.join(ANSWERS_DIR, "robustness-cases.json"), "utf8")) as Record<string, { messages: DistillMessage[] }>;

let server: Replay;
let logLines: string[] = [];

beforeAll(async () => {
  server = await startReplayServer({ ...loadAnswers("dev"), ...loadAnswers("chat-dev"), ...loadAnswers("robustness") });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.received.length = 0;
  logLines = [];
  captureLogLines(logLines);
});

const llm = (timeoutMs?: number) => createLlmDistiller({ baseUrl: server.baseUrl, model: "recorded", fallback: builtinDistiller, ...(timeoutMs ? { timeoutMs } : {}) });

/** Every request the test made had a recorded answer: otherwise the prompt or the transcript changed since recording. */
function expectAllRecorded() {
  const missing = server.unanswered().map((r) => r.key);
  expect(missing, "no recorded answer for these requests: re-record with bench/distill-llm-record.ts (docs/distillation.md)").toEqual([]);
}

const warnings = () => logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === "warn");

describe("llm distiller over recorded answers: quality against the built-in rules", () => {
  // One call per conversation over all its messages, a multi-session chat's sessions included: the
  // answers are recorded for exactly these requests, so the same cases are scored for both drivers.
  const wholeConversations = (set: "dev" | "chat-dev"): DistillCase[] =>
    loadFixtures(set).map((c) => ({ id: c.id, messages: c.messages, expected: c.expected, ...(c.known ? { known: c.known } : {}) }));

  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const line = (label: string, s: SetScore["overall"]) =>
    `${label.padEnd(22)} P ${pct(s.precision).padStart(6)}  R ${pct(s.recall).padStart(6)}  F1 ${pct(s.f1).padStart(6)}  (${s.matched} matched / ${s.extracted} extracted / ${s.expected} expected)`;

  // The built-in rules were tuned on dev until they found every labelled fact there; on dev the bar is
  // therefore 0.9. The model's misses on dev are how facts are cut (docs/distillation.md, LLM driver).
  const recallBar = { dev: () => 0.9, "chat-dev": (builtin: number) => builtin };

  it.each(["dev", "chat-dev"] as const)("%s: precision at least 0.9, recall above the bar", async (set) => {
    const cases = wholeConversations(set);
    const fromLlm = await scoreDistiller({ distiller: llm(), cases });
    expectAllRecorded();
    // Every case was answered by the model: no fallback hides in the figures.
    expect(warnings()).toEqual([]);
    expect(server.received).toHaveLength(cases.length);
    const fromRules = await scoreDistiller({ distiller: builtinDistiller, cases });
    const perKind = FACT_KINDS.map(
      (k) =>
        `  ${k.padEnd(13)} llm P ${pct(fromLlm.byKind[k].precision).padStart(6)} R ${pct(fromLlm.byKind[k].recall).padStart(6)}   builtin R ${pct(fromRules.byKind[k].recall).padStart(6)}`,
    );
    console.log(
      [`${set}, ${cases.length} conversations, each in one request:`, line("  llm (recorded)", fromLlm.overall), line("  builtin", fromRules.overall), ...perKind].join("\n"),
    );
    expect(fromLlm.overall.precision).toBeGreaterThanOrEqual(0.9);
    expect(fromLlm.overall.recall).toBeGreaterThanOrEqual(recallBar[set](fromRules.overall.recall));
  });

  it("dev and chat-dev together: recall above the built-in's", async () => {
    const cases = [...wholeConversations("dev"), ...wholeConversations("chat-dev")];
    const fromLlm = await scoreDistiller({ distiller: llm(), cases });
    const fromRules = await scoreDistiller({ distiller: builtinDistiller, cases });
    console.log([`dev + chat-dev, ${cases.length} conversations:`, line("  llm (recorded)", fromLlm.overall), line("  builtin", fromRules.overall)].join("\n"));
    expect(fromLlm.overall.precision).toBeGreaterThanOrEqual(0.9);
    expect(fromLlm.overall.recall).toBeGreaterThan(fromRules.overall.recall);
  });
});

describe("llm distiller over recorded answers: flawed answers", () => {
  const run = async (id: string, timeoutMs?: number) => {
    const input: DistillInput = { messages: robustnessCases[id]!.messages };
    const result = await llm(timeoutMs).distill(input);
    expectAllRecorded();
    expect(server.received).toHaveLength(1);
    return { input, result };
  };

  it("takes the JSON out of a Markdown code fence", async () => {
    const { result } = await run("code-fence");
    expect(result.facts.map((f) => f.key)).toEqual(["name:priya", "location:live:leed"]);
    expect(result.summary).toBe("The user is called Priya and lives in Leeds.");
    expect(warnings()).toEqual([]);
  });

  it("ignores keys the schema does not name", async () => {
    const { result } = await run("extra-keys");
    expect(result.facts.map((f) => [f.kind, f.text])).toEqual([["work", "Works as a welder in Gdansk"]]);
    expect(result.facts[0]).not.toHaveProperty("confidence");
    expect(warnings()).toEqual([]);
  });

  it("drops facts with no text, or citing an assistant's message or none, and retells the summary from what is kept", async () => {
    const empty = await run("empty-text");
    expect(empty.result.facts.map((f) => f.text)).toEqual(["Works as a potter in Stoke"]);
    expect(empty.result.summary).toBe("The user works as a potter in Stoke.");
    server.received.length = 0;
    const cited = await run("bad-message-index");
    expect(cited.result.facts.map((f) => [f.messageIndex, f.text])).toEqual([
      [0, "Is called Tariq"],
      [2, "Likes growing tomatoes on their balcony"],
    ]);
    // The model's summary repeated the assistant's guess (Cairo): it is not used.
    expect(cited.result.summary).toBe("The user is called Tariq. The user also likes growing tomatoes on their balcony.");
    expect(warnings()).toEqual([]);
  });

  it("cuts a text over 200 characters at a word, with an ellipsis", async () => {
    const { result } = await run("text-over-cap");
    expect(result.facts).toHaveLength(1);
    const text = result.facts[0]!.text;
    expect(text.length).toBeLessThanOrEqual(200);
    expect(text).toMatch(/^Is writing a long family saga set in Trieste .*\S…$/);
    expect(result.facts[0]!.box).toBe("projects/long-family-saga-set");
  });

  it(`keeps the first ${LLM_LIMITS.facts} facts of a longer list`, async () => {
    const { result } = await run("too-many-facts");
    expect(result.facts).toHaveLength(LLM_LIMITS.facts);
    expect(result.facts[0]!.text).toBe("Likes olives");
    expect(result.facts.at(-1)!.text).toBe("Likes oysters");
    expect(result.summary).toBe("The user likes olives, likes anchovies, likes capers and likes artichokes.");
  });

  it("returns nothing when the model finds nothing", async () => {
    const { result } = await run("nothing-to-learn");
    expect(result).toEqual({ facts: [], summary: "" });
    expect(warnings()).toEqual([]);
  });
});

describe("llm distiller over recorded answers: falls back to the built-in rules", () => {
  const expectFallback = async (id: string, error: string, timeoutMs?: number) => {
    const input: DistillInput = { messages: robustnessCases[id]!.messages };
    const result = await llm(timeoutMs).distill(input);
    expectAllRecorded();
    // One request: the driver makes no retries.
    expect(server.received).toHaveLength(1);
    expect(result).toEqual(await builtinDistiller.distill(input));
    expect(result.facts.length).toBeGreaterThan(0);
    const logged = warnings();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ distiller: "llm", model: "recorded", fallback: "builtin", error, ms: expect.any(Number) });
    // Names and numbers only: nothing the user or the model said.
    const said = input.messages[0]!.content.split(/\W+/).filter((w) => w.length > 3 && !/^(live|love)$/i.test(w));
    for (const word of said) expect(logLines.join("\n")).not.toContain(word);
    return logged[0]!;
  };

  it("on HTTP 429", async () => {
    expect((await expectFallback("rate-limited", "AI_APICallError")).status).toBe(429);
  });

  it("on HTTP 500", async () => {
    expect((await expectFallback("server-error", "AI_APICallError")).status).toBe(500);
  });

  it("on a timeout", async () => {
    const started = Date.now();
    await expectFallback("timeout", "TimeoutError", 300);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("on a refusal", async () => {
    await expectFallback("refusal", "AI_NoObjectGeneratedError");
  });

  it("on content that is not JSON", async () => {
    await expectFallback("invalid-json", "AI_NoObjectGeneratedError");
  });

  it("on an answer cut off at the token limit", async () => {
    await expectFallback("cut-off", "AI_NoObjectGeneratedError");
  });

  it("on a fact whose kind is outside the list: the answer breaks the schema, so none of it is trusted", async () => {
    await expectFallback("kind-outside-list", "AI_NoObjectGeneratedError");
  });
});

describe("llm distiller: what one request carries", () => {
  /** Answers for the windows of `input`, made here: these tests are about the requests, not the model. */
  async function serveWindows(input: DistillInput, answerFor: (window: number) => object | null) {
    const book: AnswerBook = {};
    transcripts(input).forEach((prompt, i) => {
      const answer = answerFor(i);
      if (!answer) return;
      const key = requestKey([
        { role: "system", content: LLM_SYSTEM_PROMPT },
        { role: "user", content: prompt },
      ]);
      book[key] = { case: `window-${i + 1}`, content: JSON.stringify(answer) };
    });
    return startReplayServer(book);
  }
  const userLines = (r: Replay["received"][number]) => r.messages[1]!.content.split("\n").slice(1);

  it(`sends at most ${LLM_LIMITS.messagesPerRequest} messages a request, in windows answered together, with the conversation's own indices`, async () => {
    const input: DistillInput = {
      messages: Array.from({ length: 130 }, (_, i): DistillMessage => (i % 2 ? { role: "assistant", content: `Noted (${i}).` } : { role: "user", content: `Note ${i}.` })),
    };
    input.messages[4] = { role: "user", content: "I live in Bergen." };
    input.messages[120] = { role: "user", content: "I love knitting." };
    const local = await serveWindows(input, (w) =>
      w === 0
        ? { facts: [{ messageIndex: 4, kind: "location", text: "Lives in Bergen" }], summary: "The user lives in Bergen." }
        : { facts: [{ messageIndex: 120, kind: "like", text: "Likes knitting" }], summary: "The user likes knitting." },
    );
    try {
      const result = await createLlmDistiller({ baseUrl: local.baseUrl, model: "recorded", fallback: builtinDistiller }).distill(input);
      expect(local.unanswered()).toEqual([]);
      expect(local.received.map((r) => userLines(r).length)).toEqual([100, 30]);
      expect(JSON.parse(userLines(local.received[1]!)[0]!)).toMatchObject({ index: 100 });
      expect(result.facts.map((f) => [f.messageIndex, f.key])).toEqual([
        [4, "location:live:bergen"],
        [120, "like:knit"],
      ]);
      // Two answers, two summaries: one is retold from the kept facts.
      expect(result.summary).toBe("The user lives in Bergen. The user also likes knitting.");
      expect(warnings()).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it("falls back for the whole conversation when one window fails", async () => {
    const input: DistillInput = { messages: Array.from({ length: 130 }, (_, i): DistillMessage => ({ role: "user", content: i === 4 ? "I live in Bergen." : `Note ${i}.` })) };
    // No answer for the second window: the replay server answers it with a 404.
    const local = await serveWindows(input, (w) =>
      w === 0 ? { facts: [{ messageIndex: 4, kind: "location", text: "Lives in Bergen" }], summary: "The user lives in Bergen." } : null,
    );
    try {
      const result = await createLlmDistiller({ baseUrl: local.baseUrl, model: "recorded", fallback: builtinDistiller }).distill(input);
      expect(local.received).toHaveLength(2);
      expect(result).toEqual(await builtinDistiller.distill(input));
      expect(warnings()).toEqual([expect.objectContaining({ distiller: "llm", fallback: "builtin", error: "AI_APICallError", status: 404 })]);
    } finally {
      await local.close();
    }
  });

  it(`cuts each message at 16,000 characters and a request at ${LLM_LIMITS.requestChars.toLocaleString("en")} characters of transcript`, async () => {
    const input: DistillInput = { messages: Array.from({ length: 6 }, (_, i) => ({ role: "user" as const, content: `I live in Bergen. ${"word ".repeat(4_000)}${i}` })) };
    const local = await serveWindows(input, () => ({ facts: [{ messageIndex: 0, kind: "location", text: "Lives in Bergen" }], summary: "The user lives in Bergen." }));
    try {
      await createLlmDistiller({ baseUrl: local.baseUrl, model: "recorded", fallback: builtinDistiller }).distill(input);
      expect(local.unanswered()).toEqual([]);
      expect(local.received).toHaveLength(2);
      for (const r of local.received) {
        expect(r.messages[1]!.content.length).toBeLessThanOrEqual(LLM_LIMITS.requestChars + 100);
        for (const l of userLines(r)) expect((JSON.parse(l) as { content: string }).content).toHaveLength(16_000);
      }
    } finally {
      await local.close();
    }
  });

  it(`gives a conversation needing more than ${LLM_LIMITS.requests} requests to the built-in rules alone, and says so`, async () => {
    const input: DistillInput = {
      messages: Array.from({ length: 3 * LLM_LIMITS.requests + 1 }, () => ({ role: "user" as const, content: `I live in Bergen. ${"word ".repeat(4_000)}` })),
    };
    expect(transcripts(input).length).toBeGreaterThan(LLM_LIMITS.requests);
    const result = await llm().distill(input);
    expect(server.received).toHaveLength(0);
    expect(result).toEqual(await builtinDistiller.distill(input));
    expect(warnings()).toEqual([expect.objectContaining({ distiller: "llm", fallback: "builtin", reason: "too_large", requests: transcripts(input).length })]);
  });

  it("fits a commit at its limit (20 messages of 16,000 characters) within the requests allowed", () => {
    const commit: DistillInput = { messages: Array.from({ length: 20 }, () => ({ role: "user" as const, content: "x".repeat(16_000) })) };
    expect(transcripts(commit).length).toBeLessThanOrEqual(LLM_LIMITS.requests);
  });
});
