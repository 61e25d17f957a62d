// Records the model answers the LLM distiller's replay tests use (tests/fixtures/distill/llm-answers/).
// Each labelled case goes through the driver exactly as tests/profile/distill-llm-replay.unit.test.ts sends it (the
// whole conversation, in one request per window), through the replay server, which looks every request up
// by the hash of its messages.
//
//   LLM_BASE_URL=https://api.openai.com/v1 LLM_MODEL=gpt-4o-mini LLM_API_KEY=… npx tsx bench/distill-llm-record.ts dev
//     asks the model for every request the answers file does not hold yet, and rewrites the file with the
//     answers this run used (stale ones go). After a prompt change every request is new: all are asked again.
//   npx tsx bench/distill-llm-record.ts dev --rekey
//     keeps each case's recorded answer and files it under the new hash: for a change to the prompt's
//     wording that should not change any answer. Read the diff of the replay test's figures afterwards.
//
// Sets: dev, chat-dev, and robustness (hand-written flawed answers to tests/fixtures/distill/llm-answers/
// robustness-cases.json; --rekey only).
import { readFileSync } from "node:fs";
import path from "node:path";
import { builtinDistiller, type DistillMessage } from "@/lib/profile/distill";
import { createLlmDistiller } from "@/lib/profile/distill/llm";
import { loadFixtures } from "../tests/fixtures/distill/load";
import { ANSWERS_DIR, loadAnswers, saveAnswers, startReplayServer, type AnswerBook, type RecordedAnswer } from "../tests/helpers/llm-replay";

const [set, flag] = process.argv.slice(2);
const rekey = flag === "--rekey";
if (set !== "dev" && set !== "chat-dev" && set !== "robustness") {
  console.error("Usage: npx tsx bench/distill-llm-record.ts <dev|chat-dev|robustness> [--rekey]");
  process.exit(2);
}
if (!rekey && (set === "robustness" || !process.env.LLM_BASE_URL || !process.env.LLM_MODEL)) {
  console.error(
    set === "robustness" ? "The robustness answers are written by hand: use --rekey." : "Recording needs LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY for a hosted API).",
  );
  process.exit(2);
}

/** The conversations, as the replay test gives them to the driver: one call per case over all its messages. */
function casesOf(): { id: string; messages: DistillMessage[] }[] {
  if (set === "robustness") {
    const file = JSON.parse(readFileSync(path.join(ANSWERS_DIR, "robustness-cases.json"), "utf8")) as Record<string, { messages: DistillMessage[] }>;
    return Object.entries(file).map(([id, c]) => ({ id, messages: c.messages }));
  }
  return loadFixtures(set as "dev" | "chat-dev").map((c) => ({ id: c.id, messages: c.messages }));
}

const old = loadAnswers(set);
const byCase = new Map(Object.values(old).map((a) => [a.case, a] as const));
const recorded = new Map<string, RecordedAnswer>();
const server = await startReplayServer(rekey ? {} : old, {
  ...(rekey ? {} : { upstream: { baseUrl: process.env.LLM_BASE_URL!, ...(process.env.LLM_API_KEY ? { apiKey: process.env.LLM_API_KEY } : {}) } }),
  onRecorded: (request, reply) => recorded.set(request.key, { case: "", ...reply }),
});
const distiller = createLlmDistiller({ baseUrl: server.baseUrl, model: process.env.LLM_MODEL ?? "replay", timeoutMs: 120_000, fallback: builtinDistiller });

const book: AnswerBook = {};
const missing: string[] = [];
for (const c of casesOf()) {
  const before = server.received.length;
  await distiller.distill({ messages: c.messages });
  server.received.slice(before).forEach((request, i) => {
    const label = i === 0 ? c.id : `${c.id}#${i + 1}`;
    const kept = rekey ? byCase.get(label) : (old[request.key] ?? recorded.get(request.key));
    if (kept) book[request.key] = { ...kept, case: label };
    else missing.push(label);
  });
  process.stdout.write(".");
}
await server.close();
saveAnswers(set, book);
console.log(`\n${set}: ${Object.keys(book).length} answers written to ${path.relative(process.cwd(), path.join(ANSWERS_DIR, `${set}.json`))}`);
if (missing.length) {
  console.error(`No answer for: ${missing.join(", ")}`);
  process.exit(1);
}
