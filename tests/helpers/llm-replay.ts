// A model for the LLM distiller's tests: a real local server on 127.0.0.1 speaking OpenAI's
// chat-completions wire format (POST /v1/chat/completions, the response envelope with usage, the error
// shape) that replays recorded answers. An answer is looked up by a hash of the request's messages (the
// system prompt and the transcript), so a changed prompt or transcript finds nothing: the server answers
// a 404 API error naming the request, and the test fails until the answers are recorded again
// (bench/distill-llm-record.ts). With an upstream it records instead: unknown requests go to a real
// model, and its answers are kept under their keys.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** What the model did with one request: its message content as the API returns it, a refusal, an HTTP error, or no answer at all. */
export type RecordedReply =
  | { content: string; finish_reason?: "stop" | "length" | "content_filter"; usage?: { prompt_tokens: number; completion_tokens: number } }
  | { refusal: string }
  | { status: number; error: { message: string; type: string; code: string | null } }
  | { hang: true };

/** One recorded answer; `case` names the labelled case (and "#2", "#3"… a later window of it) the request was made for. */
export type RecordedAnswer = { case: string } & RecordedReply;

/** The answers file: key → answer, in key order so a re-recording diffs cleanly. */
export type AnswerBook = Record<string, RecordedAnswer>;

export const ANSWERS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/distill/llm-answers");

export function answersPath(name: string): string {
  return path.join(ANSWERS_DIR, `${name}.json`);
}

export function loadAnswers(name: string): AnswerBook {
  return JSON.parse(readFileSync(answersPath(name), "utf8")) as AnswerBook;
}

export function saveAnswers(name: string, book: AnswerBook): void {
  const sorted = Object.fromEntries(Object.entries(book).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(answersPath(name), `${JSON.stringify(sorted, null, 2)}\n`);
}

/** The lookup key: the first 16 hex digits of SHA-256 over the request's messages (role and content, in order). */
export function requestKey(messages: readonly { role: string; content: unknown }[]): string {
  const canonical = JSON.stringify(messages.map((m) => [m.role, typeof m.content === "string" ? m.content : JSON.stringify(m.content)]));
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}

/** The rough count the usage field reports for a replayed answer: four characters a token. */
const tokens = (text: string) => Math.ceil(text.length / 4);

function apiError(res: ServerResponse, status: number, message: string, type: string, code: string | null) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message, type, param: null, code } }));
}

export interface ReplayRequest {
  key: string;
  model: string;
  messages: { role: string; content: string }[];
  body: Record<string, unknown>;
}

export interface ReplayOptions {
  /** Forward requests with no recorded answer to this chat-completions API root and keep its answers (recording). */
  upstream?: { baseUrl: string; apiKey?: string };
  /** Called for each answer the upstream gives, with the request it answered. */
  onRecorded?: (request: ReplayRequest, reply: RecordedReply) => void;
}

export async function startReplayServer(answers: AnswerBook, opts: ReplayOptions = {}) {
  const received: ReplayRequest[] = [];
  const book: AnswerBook = { ...answers };

  async function forward(request: ReplayRequest): Promise<RecordedReply> {
    const upstream = opts.upstream!;
    const res = await fetch(`${upstream.baseUrl.replace(/\/$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(upstream.apiKey ? { authorization: `Bearer ${upstream.apiKey}` } : {}) },
      body: JSON.stringify(request.body),
    });
    const json = (await res.json()) as {
      error?: { message: string; type: string; code: string | null };
      choices?: { message: { content: string | null; refusal?: string | null }; finish_reason: string }[];
      usage?: { prompt_tokens: number; completion_tokens: number };
    };
    if (!res.ok) return { status: res.status, error: json.error ?? { message: `HTTP ${res.status}`, type: "server_error", code: null } };
    const choice = json.choices![0]!;
    if (choice.message.refusal) return { refusal: choice.message.refusal };
    const usage = json.usage ? { prompt_tokens: json.usage.prompt_tokens, completion_tokens: json.usage.completion_tokens } : undefined;
    return { content: choice.message.content ?? "", finish_reason: choice.finish_reason as "stop", ...(usage ? { usage } : {}) };
  }

  function reply(res: ServerResponse, request: ReplayRequest, answer: RecordedReply) {
    if ("hang" in answer) return;
    if ("status" in answer) return apiError(res, answer.status, answer.error.message, answer.error.type, answer.error.code);
    const promptTokens = tokens(request.messages.map((m) => m.content).join("\n"));
    const content = "content" in answer ? answer.content : null;
    const usage = "content" in answer && answer.usage ? answer.usage : { prompt_tokens: promptTokens, completion_tokens: tokens(content ?? "") };
    const envelope = {
      id: `chatcmpl-replay-${request.key}`,
      object: "chat.completion",
      created: 1_767_225_600,
      model: request.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content, refusal: "refusal" in answer ? answer.refusal : null },
          logprobs: null,
          finish_reason: "content" in answer ? (answer.finish_reason ?? "stop") : "stop",
        },
      ],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(envelope));
  }

  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      if (req.method !== "POST" || (req.url ?? "").split("?")[0] !== "/v1/chat/completions") {
        return apiError(res, 404, `Unknown request to ${req.method} ${req.url}: this server answers POST /v1/chat/completions.`, "invalid_request_error", "unknown_url");
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return apiError(res, 400, "The request body is not JSON.", "invalid_request_error", null);
      }
      const messages = Array.isArray(body.messages) ? (body.messages as { role: string; content: string }[]) : [];
      const request: ReplayRequest = { key: requestKey(messages), model: String(body.model), messages, body };
      received.push(request);
      const answer = book[request.key];
      if (answer) return reply(res, request, answer);
      if (!opts.upstream) {
        return apiError(
          res,
          404,
          `No recorded answer for request ${request.key}: the prompt or the conversation changed since the answers were recorded. Record them again with bench/distill-llm-record.ts.`,
          "invalid_request_error",
          "no_recorded_answer",
        );
      }
      forward(request).then(
        (recorded) => {
          opts.onRecorded?.(request, recorded);
          reply(res, request, recorded);
        },
        () => apiError(res, 502, "The upstream model did not answer.", "server_error", null),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    /** The API root to give the driver, ending in /v1. */
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    /** Requests that found no recorded answer. */
    unanswered: () => received.filter((r) => !book[r.key]),
    close: () =>
      new Promise<void>((resolve) => {
        // A "hang" answer leaves its request open on purpose.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
