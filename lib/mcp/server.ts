// The service's MCP servers: stateless Streamable HTTP with JSON answers for an authenticated caller
// and the tools (and resources) it may use (answerMcp), and the developer MCP server at {BASE_URL}/mcp.
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  InitializeRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type ServerCapabilities,
  type Tool as ListedTool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { apiErrorAnswer } from "../http/define-route";
import { ApiError, MESSAGES } from "../http/errors";
import type { Answer, ApiRequest } from "../http/api-request";
import { newRequestId } from "../http/request";
import { databaseUnavailable } from "../platform/db/unavailable";
import { logger, requestLogger } from "../platform/log";
import { observeRequest } from "../platform/metrics";
import { processWide } from "../process-wide";
import { COMMIT_GATE_SECONDS } from "../profile/obligation";
import { approvedUser, authenticateMcpCaller, type McpCaller } from "./caller";
import { answerJsonRpc, mcpServiceUnavailable, method, type JsonRpcMethod, type McpResource } from "./json-rpc";
import { connectorTools, DEVELOPER_TOOLS, type Tool } from "./tools";
import { runConnectorTool } from "../connectors/tools/run";
import { recordAccess } from "../access-log/access-log";
import { mcpCorrelation } from "../http/turns";
import { now as clockNow } from "../platform/clock";
import { recordRequest } from "../request-log/record";
import { cardResources } from "./cards/mcp";

/** The JSON-RPC error code of a commit_required refusal. */
export const MCP_COMMIT_REQUIRED_CODE = -32009;
export const MCP_COMMIT_REQUIRED_MESSAGE = `commit_required: this agent has read the profile for more than ${COMMIT_GATE_SECONDS / 60} minutes without committing a turn. Call service_profile_commit with the conversation, then retry.`;
export const MCP_CONNECT_FIRST_MESSAGE =
  "No approved user: the user must connect first. Call service_connect and show the user its connect_url to sign in and approve this agent, then retry.";
export const MCP_SERVER_INFO = { name: "profile-service", version: "1.0.0" } as const;

/** The largest JSON-RPC body taken: a commit's 20 messages of 16,000 characters, as on REST. */
export const MCP_BODY_LIMIT = 2 * 1024 * 1024;

/** One POST to an MCP server, its credentials already checked. */
export interface McpExchange {
  /** What the JSON-RPC checks read of the request: its headers. */
  req: { readonly headers: Pick<Headers, "get"> };
  /** The JSON-RPC body, already read under MCP_BODY_LIMIT. */
  body: string;
  /** Who calls; null when nobody is signed in (every tool then answers MCP_CONNECT_FIRST_MESSAGE). */
  caller: McpCaller | null;
  tools: readonly Tool[];
  resources?: readonly McpResource[];
  /** Named in the log line of a tool that fails unexpectedly. */
  requestId?: string;
}

/**
 * Whether a request carries a linked-user token: a Bearer credential that names a user the service
 * knows (a linked MCP session, an agent token, an OpenID Connect access token). X-User-Id, an unlinked
 * session and no person do not.
 */
export function carriesLinkedUserToken(caller: McpCaller): boolean {
  return caller.person?.kind === "user";
}

/**
 * The tools a caller lists: service_connect and the six profile tools, and the connector tools only
 * for a request carrying a linked-user token. Listing is not permission: every call is checked again.
 */
export function toolsFor(caller: McpCaller, connectors: readonly Tool[] = connectorTools()): readonly Tool[] {
  return carriesLinkedUserToken(caller) && connectors.length ? [...DEVELOPER_TOOLS, ...connectors] : DEVELOPER_TOOLS;
}

/**
 * A tool as tools/list shows it, made once per tool and process: turning the zod schema into JSON
 * Schema costs more than answering most calls.
 */
function listed(tool: Tool): ListedTool {
  const listings = processWide("mcp.tool-listings", () => new WeakMap<Tool, ListedTool>());
  let entry = listings.get(tool);
  if (!entry) {
    const inputSchema = z.toJSONSchema(tool.input, { target: "draft-7", io: "input" }) as ListedTool["inputSchema"];
    // What McpServer.registerTool lists, in its order: tools run as plain calls, never as tasks.
    entry = { name: tool.name, title: tool.title, description: tool.description, inputSchema, execution: { taskSupport: "forbidden" }, _meta: tool._meta };
    listings.set(tool, entry);
  }
  return entry;
}

function toolResult(body: object): CallToolResult {
  return { structuredContent: body as Record<string, unknown>, content: [{ type: "text", text: JSON.stringify(body) }] };
}

function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

/**
 * Runs one tool call. A service error is a tool error carrying the /v1 error object; commit_required
 * is the exception: a JSON-RPC error -32009, which the client reacts to by committing the turn.
 */
async function callTool(call: { tool: Tool; caller: McpCaller | null; rawArgs: unknown; requestId?: string }): Promise<CallToolResult> {
  const { tool, caller } = call;
  if (tool.personal === "connector") return callConnectorTool({ ...call, tool });
  const parsed = tool.input.safeParse(call.rawArgs ?? {});
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({ field: i.path.join(".") || "(root)", message: i.message }));
    return toolError(JSON.stringify({ error: { code: "invalid_request", message: `Invalid arguments for ${tool.name}.`, fields } }));
  }
  if (!caller) return toolError(MCP_CONNECT_FIRST_MESSAGE);
  try {
    if (!tool.personal) return toolResult(await tool.run(caller, parsed.data));
    const userId = await approvedUser(caller);
    if (!userId) return toolError(MCP_CONNECT_FIRST_MESSAGE);
    const { person } = caller;
    if (person?.kind === "user" && person.scopes && !person.scopes.includes(tool.scope)) {
      return toolError(JSON.stringify({ error: { code: "insufficient_scope", message: `This access token does not carry the scope ${tool.scope}.`, scope: tool.scope } }));
    }
    let outcome = "ok";
    try {
      const body = await tool.run({ caller, userId }, parsed.data);
      return toolResult(tool.livemode ? { ...body, livemode: caller.key.plane === "live" } : body);
    } catch (err) {
      outcome = err instanceof ApiError ? err.code : "internal_error";
      throw err;
    } finally {
      const correlation = mcpCorrelation({ developerId: caller.key.developerId, plane: caller.key.plane, agentId: caller.agent.id }, person?.sessionId);
      recordAccess({ userId, agentId: caller.agent.id, agentName: caller.agent.displayName, plane: caller.key.plane, surface: "mcp", action: tool.name, outcome, ...correlation });
    }
  } catch (err) {
    if (err instanceof ApiError && err.code === "commit_required") {
      throw new McpError(MCP_COMMIT_REQUIRED_CODE, MCP_COMMIT_REQUIRED_MESSAGE, { code: err.code, ...err.extras });
    }
    if (err instanceof ApiError) return toolError(JSON.stringify({ error: { code: err.code, message: err.message, ...err.extras } }));
    // The database away: not the tool's failure; the whole POST answers 503 (lib/mcp/json-rpc.ts).
    if (databaseUnavailable(err)) throw err;
    logger().error({ err, tool: tool.name, request_id: call.requestId }, "MCP tool failed");
    return toolError(JSON.stringify({ error: { code: "internal_error", message: MESSAGES.internalError } }));
  }
}

/**
 * A connector tool's call: only for the person a Bearer credential names (token-authoritative: a
 * request naming someone by X-User-Id is refused), with the live checks of lib/connectors/tools/run.ts.
 */
async function callConnectorTool(call: {
  tool: Extract<Tool, { personal: "connector" }>;
  caller: McpCaller | null;
  rawArgs: unknown;
  requestId?: string;
}): Promise<CallToolResult> {
  const { tool, caller } = call;
  if (!caller) return toolError(MCP_CONNECT_FIRST_MESSAGE);
  try {
    if (caller.person?.kind !== "user") throw new ApiError("user_token_required", MESSAGES.userTokenRequired);
    const body = await runConnectorTool({
      tool: tool.definition,
      developerId: caller.key.developerId,
      plane: caller.key.plane,
      agent: caller.agent,
      userId: caller.person.userId,
      surface: "mcp",
      rawArgs: call.rawArgs,
    });
    return toolResult(body);
  } catch (err) {
    if (err instanceof ApiError) return toolError(JSON.stringify({ error: { code: err.code, message: err.message, ...err.extras } }));
    // The database away: not the tool's failure; the whole POST answers 503 (lib/mcp/json-rpc.ts).
    if (databaseUnavailable(err)) throw err;
    logger().error({ err, tool: tool.name, request_id: call.requestId }, "MCP tool failed");
    return toolError(JSON.stringify({ error: { code: "internal_error", message: MESSAGES.internalError } }));
  }
}

/** The tools/call answer: the tool's result, checked as the SDK's Server checks every tool result. */
async function answerToolCall(request: z.output<typeof CallToolRequestSchema>, exchange: McpExchange) {
  const { name, arguments: rawArgs } = request.params;
  const tool = exchange.tools.find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
  const checked = CallToolResultSchema.safeParse(await callTool({ tool, caller: exchange.caller, rawArgs, requestId: exchange.requestId }));
  if (!checked.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`);
  return checked.data;
}

/**
 * What a server declares and answers, as McpServer would with the same tools (and resources): the
 * initialize handshake, ping, tools/list and tools/call; resources/list, resources/templates/list and
 * resources/read when there are resources. Any other method is not found.
 */
export function mcpMethods(exchange: McpExchange): ReadonlyMap<string, JsonRpcMethod> {
  const { tools, resources = [] } = exchange;
  const capabilities: ServerCapabilities = resources.length ? { tools: { listChanged: true }, resources: { listChanged: true } } : { tools: { listChanged: true } };
  const methods = new Map<string, JsonRpcMethod>([
    [
      "initialize",
      method(InitializeRequestSchema, ({ params }) => ({
        protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : LATEST_PROTOCOL_VERSION,
        capabilities,
        serverInfo: MCP_SERVER_INFO,
      })),
    ],
    ["ping", method(PingRequestSchema, () => ({}))],
    ["tools/list", method(ListToolsRequestSchema, () => ({ tools: tools.map(listed) }))],
    ["tools/call", method(CallToolRequestSchema, (request) => answerToolCall(request, exchange))],
  ]);
  if (resources.length) {
    methods.set(
      "resources/list",
      method(ListResourcesRequestSchema, () => ({ resources: resources.map((r) => ({ uri: r.uri, name: r.name, ...r.metadata })) })),
    );
    methods.set(
      "resources/templates/list",
      method(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] })),
    );
    methods.set(
      "resources/read",
      method(ReadResourceRequestSchema, ({ params }) => {
        const uri = new URL(params.uri);
        const resource = resources.find((r) => r.uri === uri.toString());
        if (!resource) throw new McpError(ErrorCode.InvalidParams, `Resource ${uri.toString()} not found`);
        return resource.read(uri);
      }),
    );
  }
  return methods;
}

/**
 * The answer to one POST of JSON-RPC messages from an authenticated caller (lib/mcp/json-rpc.ts: the
 * transport's checks and refusals, batches, notifications), with the caller's tools and resources.
 */
export async function answerMcp(exchange: McpExchange): Promise<Answer> {
  return answerJsonRpc({ req: exchange.req, body: exchange.body, methods: mcpMethods(exchange) });
}

/** POST /mcp: authenticate (the /v1 error shape on failure), then answer the JSON-RPC body. */
export async function serveDeveloperMcp(req: ApiRequest): Promise<Answer> {
  const started = performance.now();
  const requestId = newRequestId();
  let response: Answer;
  let developerId: string | undefined;
  // Once the key resolves, the call goes into that developer's request log (its tools are not named there).
  let logged: { at: Date; plane: McpCaller["key"]["plane"]; agentId: string | null } | undefined;
  let errorCode: string | null = null;
  try {
    const caller = await authenticateMcpCaller(req);
    developerId = caller.key.developerId;
    logged = { at: clockNow(), plane: caller.key.plane, agentId: caller.agent.id };
    const body = await req.bodyText(MCP_BODY_LIMIT);
    response = await answerMcp({ req, body, caller, tools: toolsFor(caller), resources: cardResources(), requestId });
  } catch (err) {
    response = databaseUnavailable(err) ? mcpServiceUnavailable(err, { requestId }) : apiErrorAnswer(err, requestId);
    errorCode = err instanceof ApiError ? err.code : databaseUnavailable(err) ? "service_unavailable" : "internal_error";
  }
  response.headers.set("X-Request-Id", requestId);
  const latency = performance.now() - started;
  if (logged && developerId) {
    recordRequest({
      id: requestId,
      developerId,
      ...logged,
      method: "POST",
      route: "/mcp",
      status: response.status,
      errorCode: response.status >= 400 ? (errorCode ?? `http_${response.status}`) : null,
      latencyMs: Math.round(latency),
    });
  }
  observeRequest({ route: "/mcp", method: req.method, status: response.status, latencyMs: latency });
  requestLogger().info(
    { request_id: requestId, method: req.method, route: "/mcp", status: response.status, latency_ms: Math.round(latency * 10) / 10, developer_id: developerId },
    "request",
  );
  return response;
}

/** GET and DELETE /mcp: a stateless server has no stream to open and no session to end. */
export function mcpMethodNotAllowed(): Response {
  const requestId = newRequestId();
  const response = apiErrorAnswer(new ApiError("method_not_allowed", MESSAGES.methodNotAllowed), requestId);
  response.headers.set("Allow", "POST");
  response.headers.set("X-Request-Id", requestId);
  return response;
}
