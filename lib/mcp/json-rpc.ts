// One POST to a stateless MCP server with JSON answers, as the MCP SDK's Streamable HTTP transport
// (no sessions, enableJsonResponse) and its Protocol answer it: the Accept, Content-Type and
// MCP-Protocol-Version checks, batches, each request's result or error. The SDK builds a Server and a
// transport for every request and checks each message against its schemas several times over, about a
// third of a tool call's time (docs/performance.md); this answers the same with one check per message.
// The rules, schemas and constants are the SDK's; tests/mcp/json-rpc.test.ts holds the answers to its.
import { MAX_BATCH_SIZE } from "@modelcontextprotocol/sdk/server/requestBody.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import {
  ErrorCode,
  isInitializeRequest,
  isTaskAugmentedRequestParams,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResultResponse,
  type ReadResourceResult,
  type Resource,
  type Result,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { JsonAnswer, type Answer } from "../http/api-request";
import { MESSAGES, UNAVAILABLE_RETRY_AFTER_SECONDS } from "../http/errors";
import { UNSAFE_TEXT_MESSAGE, unsafeTextField } from "../http/text-input";
import { databaseUnavailable, logDatabaseUnavailable } from "../platform/db/unavailable";

/** A resource a server lists and reads (an MCP App's page): listed as { uri, name, ...metadata }. */
export interface McpResource {
  uri: string;
  name: string;
  metadata: Omit<Resource, "uri" | "name">;
  read: (uri: URL) => Promise<ReadResourceResult>;
}

/** A method a server answers: the SDK schema its request must match, and the answer to a matching request. */
export interface JsonRpcMethod<S extends z.ZodType = z.ZodType> {
  schema: S;
  answer: (request: z.output<S>) => Result | Promise<Result>;
}

/** A method's entry, whatever its schema. */
export function method<S extends z.ZodType>(schema: S, answer: (request: z.output<S>) => Result | Promise<Result>): JsonRpcMethod {
  return { schema, answer: answer as JsonRpcMethod["answer"] };
}

/** The refusal of a body holding a NUL character or an unpaired surrogate, naming where. */
export const unsafeMessage = (field: string) => `Invalid Request: ${field}: ${UNSAFE_TEXT_MESSAGE}`;

/** The transport's refusal of a whole POST: a JSON-RPC error without an id. */
function refusal(status: number, code: number, message: string): Answer {
  return new JsonAnswer(status, JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), { "Content-Type": "application/json" });
}

/** What a failed request answers: the error's own code when it has one (McpError), else -32603. */
function errorAnswer(id: JSONRPCRequest["id"], error: unknown): JSONRPCErrorResponse {
  const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown };
  return {
    jsonrpc: "2.0",
    id,
    error: { code: Number.isSafeInteger(code) ? (code as number) : ErrorCode.InternalError, message: message ?? "Internal error", ...(data !== undefined && { data }) },
  };
}

/** The JSON-RPC error code of a request the service cannot serve right now (the implementation-defined server-error range). */
export const MCP_UNAVAILABLE_CODE = -32000;

/** A request a method could not answer because the database is away: the whole POST answers 503. */
interface Unavailable {
  unavailable: unknown;
}

/**
 * The answer while the database is away: 503 with Retry-After, and for each request (or, before any
 * was read, for none: id null) a JSON-RPC error naming service_unavailable and the wait. An MCP
 * client's transport fails the call on the status; a client reading the body finds the same.
 */
export function mcpServiceUnavailable(err: unknown, opts: { ids?: ReadonlyArray<JSONRPCRequest["id"] | null>; requestId?: string } = {}): Response {
  logDatabaseUnavailable(err, { request_id: opts.requestId });
  const answers = (opts.ids ?? [null]).map((id) => ({
    jsonrpc: "2.0",
    id,
    error: { code: MCP_UNAVAILABLE_CODE, message: MESSAGES.serviceUnavailable, data: { code: "service_unavailable", retry_after: UNAVAILABLE_RETRY_AFTER_SECONDS } },
  }));
  return new Response(JSON.stringify(answers.length === 1 ? answers[0] : answers), {
    status: 503,
    headers: { "Content-Type": "application/json", "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
  });
}

async function answerRequest(request: JSONRPCRequest, methods: ReadonlyMap<string, JsonRpcMethod>): Promise<JSONRPCResultResponse | JSONRPCErrorResponse | Unavailable> {
  const handler = methods.get(request.method);
  if (!handler) return { jsonrpc: "2.0", id: request.id, error: { code: ErrorCode.MethodNotFound, message: "Method not found" } };
  try {
    // Task-augmented execution is declared by no server of the service.
    if (request.params?.task !== undefined && isTaskAugmentedRequestParams(request.params)) {
      throw new Error(`Server does not support task creation (required for ${request.method})`);
    }
    const parsed = handler.schema.safeParse(request);
    if (!parsed.success) throw parsed.error;
    return { result: await handler.answer(parsed.data), jsonrpc: "2.0", id: request.id };
  } catch (error) {
    if (databaseUnavailable(error)) return { unavailable: error };
    return errorAnswer(request.id, error);
  }
}

/** Whether a checked message is a request (it names a method and carries an id) rather than a notification or a response. */
function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return "method" in message && "id" in message;
}

/**
 * The answer to one POST of JSON-RPC messages (`body`, read already): 406, 415 or 400 for a request the
 * transport refuses; 202 when it holds no request; else 200 with each request's answer (an array for
 * several), or 503 when a request could not be answered because the database is away. Notifications
 * and responses are taken and left unanswered: a stateless server that sends no requests has nothing
 * to cancel or to await.
 */
export async function answerJsonRpc({
  req,
  body,
  methods,
}: {
  req: { readonly headers: Pick<Headers, "get"> };
  body: string;
  methods: ReadonlyMap<string, JsonRpcMethod>;
}): Promise<Answer> {
  const accept = req.headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) {
    return refusal(406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream");
  }
  if (!isJsonContentType(req.headers.get("content-type"))) return refusal(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return refusal(400, ErrorCode.ParseError, "Parse error: Invalid JSON");
  }
  // Text nothing can store as sent (lib/http/text-input.ts) is refused before any message is read.
  const unsafe = unsafeTextField(raw);
  if (unsafe !== null) return refusal(400, ErrorCode.InvalidRequest, unsafeMessage(unsafe));
  if (Array.isArray(raw) && raw.length > MAX_BATCH_SIZE) return refusal(400, ErrorCode.InvalidRequest, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
  const messages: JSONRPCMessage[] = [];
  for (const value of Array.isArray(raw) ? (raw as unknown[]) : [raw]) {
    const checked = JSONRPCMessageSchema.safeParse(value);
    if (!checked.success) return refusal(400, ErrorCode.ParseError, "Parse error: Invalid JSON-RPC message");
    messages.push(checked.data);
  }
  const initializing = messages.some((m) => "method" in m && m.method === "initialize" && isInitializeRequest(m));
  if (initializing && messages.length > 1) return refusal(400, ErrorCode.InvalidRequest, "Invalid Request: Only one initialization request is allowed");
  const version = req.headers.get("mcp-protocol-version");
  if (!initializing && version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return refusal(400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`);
  }
  const requests = messages.filter(isRequest);
  if (!requests.length) return new JsonAnswer(202, null);
  const answers = await Promise.all(requests.map((r) => answerRequest(r, methods)));
  const unavailable = answers.find((a): a is Unavailable => "unavailable" in a);
  if (unavailable) return mcpServiceUnavailable(unavailable.unavailable, { ids: requests.map((r) => r.id) });
  return new JsonAnswer(200, JSON.stringify(answers.length === 1 ? answers[0] : answers), { "Content-Type": "application/json" });
}
