// The developer MCP server ({BASE_URL}/mcp): stateless Streamable HTTP with JSON answers, one
// McpServer per request, built for the caller its credentials name.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ApiError, MESSAGES } from "../http/errors";
import { logger, requestLogger } from "../log";
import { COMMIT_GATE_SECONDS } from "../profile/obligation";
import { approvedUser, authenticateMcpCaller, type McpCaller } from "./caller";
import { DEVELOPER_TOOLS, type Tool } from "./tools";
import { apiErrorAnswer } from "../http/define-route";
import { newRequestId, readBodyText } from "../http/request";

/** The JSON-RPC error code of a commit_required refusal. */
export const MCP_COMMIT_REQUIRED_CODE = -32009;
export const MCP_COMMIT_REQUIRED_MESSAGE = `commit_required: this agent has read the profile for more than ${COMMIT_GATE_SECONDS / 60} minutes without committing a turn. Call service_profile_commit with the conversation, then retry.`;
export const MCP_CONNECT_FIRST_MESSAGE =
  "No approved user: the user must connect first. Call service_connect and show the user its connect_url to sign in and approve this agent, then retry.";
export const MCP_SERVER_INFO = { name: "profile-service", version: "1.0.0" } as const;

/** The largest JSON-RPC body taken: a commit's 20 messages of 16,000 characters, as on REST. */
const MCP_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * The tools a caller lists. A linked-user token would add the connector tools here (the Gmail,
 * calendar, Drive and Notion ones); they are not served yet, so every caller lists the same seven.
 */
export function toolsFor(_caller: McpCaller): readonly Tool[] {
  return DEVELOPER_TOOLS;
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
async function callTool(tool: Tool, caller: McpCaller, rawArgs: unknown): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({ field: i.path.join(".") || "(root)", message: i.message }));
    return toolError(JSON.stringify({ error: { code: "invalid_request", message: `Invalid arguments for ${tool.name}.`, fields } }));
  }
  try {
    if (!tool.personal) return toolResult(await tool.run(caller, parsed.data));
    const userId = await approvedUser(caller);
    if (!userId) return toolError(MCP_CONNECT_FIRST_MESSAGE);
    const { person } = caller;
    if (person?.kind === "user" && person.scopes && !person.scopes.includes(tool.scope)) {
      return toolError(JSON.stringify({ error: { code: "insufficient_scope", message: `This access token does not carry the scope ${tool.scope}.`, scope: tool.scope } }));
    }
    const body = await tool.run({ caller, userId }, parsed.data);
    return toolResult(tool.livemode ? { ...body, livemode: caller.key.plane === "live" } : body);
  } catch (err) {
    if (err instanceof ApiError && err.code === "commit_required") {
      throw new McpError(MCP_COMMIT_REQUIRED_CODE, MCP_COMMIT_REQUIRED_MESSAGE, { code: err.code, ...err.extras });
    }
    if (err instanceof ApiError) return toolError(JSON.stringify({ error: { code: err.code, message: err.message, ...err.extras } }));
    logger().error({ err, tool: tool.name }, "MCP tool failed");
    return toolError(JSON.stringify({ error: { code: "internal_error", message: MESSAGES.internalError } }));
  }
}

/** The McpServer for one request: the caller's tools, listed and called. */
export function buildDeveloperServer(caller: McpCaller): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  const tools = new Map(toolsFor(caller).map((t) => [t.name, t]));
  for (const tool of tools.values()) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.input }, (args: unknown) =>
      callTool(tool, caller, args),
    );
  }
  // McpServer turns every error a tool throws into a tool result; commit_required must reach the
  // client as a JSON-RPC error, so calls are dispatched here (listing stays McpServer's).
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    return callTool(tool, caller, request.params.arguments);
  });
  return server;
}

/** POST /mcp: authenticate (the /v1 error shape on failure), then hand the JSON-RPC body to the transport. */
export async function serveDeveloperMcp(req: Request): Promise<Response> {
  const started = performance.now();
  const requestId = newRequestId();
  let response: Response;
  let developerId: string | undefined;
  try {
    const caller = await authenticateMcpCaller(req);
    developerId = caller.key.developerId;
    const body = await readBodyText(req, MCP_BODY_LIMIT);
    const server = buildDeveloperServer(caller);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      response = await transport.handleRequest(new Request(req.url, { method: req.method, headers: req.headers, body }));
    } finally {
      await server.close();
    }
  } catch (err) {
    response = apiErrorAnswer(err, requestId);
  }
  response.headers.set("X-Request-Id", requestId);
  requestLogger().info(
    { request_id: requestId, method: req.method, route: "/mcp", status: response.status, latency_ms: Math.round((performance.now() - started) * 10) / 10, developer_id: developerId },
    "request",
  );
  return response;
}

/** GET and DELETE /mcp: a stateless server has no stream to open and no session to end. */
export function mcpMethodNotAllowed(): Response {
  const err = new ApiError("method_not_allowed", MESSAGES.methodNotAllowed);
  const response = apiErrorAnswer(err, newRequestId());
  response.headers.set("Allow", "POST");
  return response;
}
