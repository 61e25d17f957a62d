// The MCP servers' JSON-RPC answers (answerMcp: lib/mcp/json-rpc.ts and lib/mcp/server.ts) are the MCP
// SDK's: every POST below is answered by answerMcp and by McpServer on the SDK's stateless Streamable
// HTTP transport with JSON answers, given the same tools and resources, and the two answers must match
// byte for byte (status, Content-Type, body). A new SDK version that answers otherwise fails here.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, PingRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { authenticateMcpCaller, type McpCaller } from "@/lib/mcp/caller";
import { toWebResponse } from "@/lib/http/api-request";
import { MESSAGES, UNAVAILABLE_RETRY_AFTER_SECONDS } from "@/lib/http/errors";
import { answerJsonRpc, MCP_UNAVAILABLE_CODE, method, type McpResource } from "@/lib/mcp/json-rpc";
import { answerMcp, mcpMethods, MCP_SERVER_INFO, type McpExchange } from "@/lib/mcp/server";
import { DEVELOPER_TOOLS, type Tool } from "@/lib/mcp/tools";
import { createTenant, type Tenant } from "../helpers/fixtures";

const MCP_URL = "http://localhost:3000/mcp";
const APP_URI = "ui://service/connect/v8.html";

const appPage: McpResource = {
  uri: APP_URI,
  name: "connect",
  metadata: { title: "Connect", description: "The connect card.", mimeType: "text/html;profile=mcp-app", _meta: { ui: { prefersBorder: true } } },
  read: async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/html;profile=mcp-app", text: "<!doctype html><p>Connect</p>" }] }),
};
const [connectTool, ...profileTools] = DEVELOPER_TOOLS as [Tool, ...Tool[]];
const toolsWithApp: readonly Tool[] = [{ ...connectTool, _meta: { ui: { resourceUri: APP_URI }, "ui/resourceUri": APP_URI } }, ...profileTools];

/** The same exchange answered by McpServer: tools and resources registered, tools/call answered by the service's own handler. */
async function sdkAnswer(exchange: McpExchange): Promise<Response> {
  const server = new McpServer(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  for (const tool of exchange.tools) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.input, _meta: tool._meta }, () => ({ content: [] }));
  }
  for (const r of exchange.resources ?? []) server.registerResource(r.name, r.uri, r.metadata, (uri) => r.read(uri));
  // McpServer makes a tool result of any error a tool throws; the service answers commit_required as a JSON-RPC error.
  const callTool = mcpMethods(exchange).get("tools/call")!;
  server.server.setRequestHandler(CallToolRequestSchema, (request) => callTool.answer(request) as never);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(new Request(MCP_URL, { method: "POST", headers: exchange.req.headers as Headers, body: exchange.body }));
}

async function seen(res: Response) {
  return { status: res.status, contentType: res.headers.get("content-type"), body: await res.text() };
}

let t: Tenant;
let live: McpCaller;
let unapproved: McpCaller;
beforeAll(async () => {
  t = await createTenant();
  const named = (id: string) => authenticateMcpCaller(new Request(MCP_URL, { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": id } }));
  live = await named("user-live");
  unapproved = await named("user-unapproved");
});

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const VERSIONED = { ...JSON_HEADERS, "mcp-protocol-version": "2025-06-18" };
const rpc = (id: number | string, method: string, params?: unknown) => ({ jsonrpc: "2.0", id, method, ...(params !== undefined && { params }) });
const initialize = (protocolVersion: unknown) => rpc(1, "initialize", { protocolVersion, capabilities: {}, clientInfo: { name: "c", version: "1" } });
const call = (name: string, args: unknown, extra: object = {}) => rpc(2, "tools/call", { name, arguments: args, ...extra });

const CASES: [string, Record<string, string>, unknown][] = [
  ["initialize at the newest version", JSON_HEADERS, initialize("2025-11-25")],
  ["initialize at 2025-03-26", JSON_HEADERS, initialize("2025-03-26")],
  ["initialize at an unknown version", JSON_HEADERS, initialize("1999-01-01")],
  ["initialize with invalid params", JSON_HEADERS, initialize(5)],
  ["initialize with another message", JSON_HEADERS, [initialize("2025-06-18"), rpc(2, "ping")]],
  ["the initialized notification", VERSIONED, { jsonrpc: "2.0", method: "notifications/initialized" }],
  ["ping", VERSIONED, rpc(3, "ping")],
  ["ping without a protocol version header", JSON_HEADERS, rpc("p", "ping")],
  ["tools/list", VERSIONED, rpc(4, "tools/list")],
  ["tools/list with a cursor", VERSIONED, rpc(4, "tools/list", { cursor: "abc" })],
  ["tools/call of a profile read", VERSIONED, call("service_profile_read", { sections: ["identity", "summary"] })],
  ["tools/call with invalid arguments", VERSIONED, call("service_profile_remember", {})],
  ["tools/call with arguments not an object", VERSIONED, call("service_profile_read", [1])],
  ["tools/call of an unknown tool", VERSIONED, call("nope", {})],
  ["tools/call without params", VERSIONED, rpc(5, "tools/call")],
  ["tools/call asking for a task", VERSIONED, call("service_profile_read", {}, { task: { ttl: 1000 } })],
  ["resources/list", VERSIONED, rpc(6, "resources/list")],
  ["resources/templates/list", VERSIONED, rpc(6, "resources/templates/list")],
  ["resources/read", VERSIONED, rpc(6, "resources/read", { uri: APP_URI })],
  ["resources/read of an unknown resource", VERSIONED, rpc(6, "resources/read", { uri: "ui://service/nope.html" })],
  ["prompts/list", VERSIONED, rpc(7, "prompts/list")],
  ["logging/setLevel", VERSIONED, rpc(7, "logging/setLevel", { level: "info" })],
  ["an unknown method", VERSIONED, rpc(7, "foo/bar")],
  ["a batch of requests and a notification", VERSIONED, [rpc(8, "ping"), call("nope", {}), { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } }]],
  ["an empty batch", VERSIONED, []],
  ["a batch over 100 messages", VERSIONED, Array.from({ length: 101 }, (_, i) => rpc(i, "ping"))],
  ["a batch with an invalid member", VERSIONED, [rpc(1, "ping"), { jsonrpc: "1.0", id: 2, method: "ping" }]],
  ["a request with an extra member", VERSIONED, { ...rpc(1, "ping"), extra: 1 }],
  ["a request with a null id", VERSIONED, { jsonrpc: "2.0", id: null, method: "ping" }],
  ["a response from the client", VERSIONED, { jsonrpc: "2.0", id: 3, error: { code: 1, message: "x" } }],
  ["not JSON-RPC", VERSIONED, { hello: 1 }],
  ["null", VERSIONED, null],
  ["not JSON", VERSIONED, "{"],
  ["an empty body", VERSIONED, ""],
  ["an Accept without text/event-stream", { ...VERSIONED, accept: "application/json" }, rpc(1, "ping")],
  ["Accept */*", { ...VERSIONED, accept: "*/*" }, rpc(1, "ping")],
  ["a text/plain body", { ...VERSIONED, "content-type": "text/plain" }, rpc(1, "ping")],
  ["JSON with a charset", { ...VERSIONED, "content-type": "application/json; charset=utf-8" }, rpc(1, "ping")],
  ["no Content-Type", { accept: JSON_HEADERS.accept }, rpc(1, "ping")],
  ["an unsupported protocol version", { ...JSON_HEADERS, "mcp-protocol-version": "1999-01-01" }, rpc(1, "ping")],
];

describe("answerMcp answers as the MCP SDK", () => {
  const callers = () =>
    [
      ["an approved user", live],
      ["a user who has not approved the agent", unapproved],
      ["nobody signed in", null],
    ] as const;

  for (const [label, headers, message] of CASES) {
    it(label, async () => {
      const body = typeof message === "string" ? message : JSON.stringify(message);
      for (const [who, caller] of callers()) {
        for (const [tools, resources] of [
          [DEVELOPER_TOOLS, []],
          [toolsWithApp, [appPage]],
        ] as const) {
          const exchange: McpExchange = { req: new Request(MCP_URL, { method: "POST", headers }), body, caller, tools, resources };
          expect(await seen(toWebResponse(await answerMcp(exchange))), `${who}, ${resources.length} resources`).toEqual(await seen(await sdkAnswer(exchange)));
        }
      }
    });
  }
});

describe("a method that finds the database away", () => {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  const methods = new Map([
    ["ping", method(PingRequestSchema, () => ({}))],
    [
      "tools/list",
      method(ListToolsRequestSchema, () => {
        throw refused;
      }),
    ],
  ]);
  const post = async (body: unknown) => toWebResponse(await answerJsonRpc({ req: new Request(MCP_URL, { method: "POST", headers }), body: JSON.stringify(body), methods }));

  it("makes the whole POST a 503 with Retry-After, a JSON-RPC error for each request naming service_unavailable", async () => {
    const res = await post([
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ]);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    const error = { code: MCP_UNAVAILABLE_CODE, message: MESSAGES.serviceUnavailable, data: { code: "service_unavailable", retry_after: UNAVAILABLE_RETRY_AFTER_SECONDS } };
    expect(await res.json()).toEqual([
      { jsonrpc: "2.0", id: 1, error },
      { jsonrpc: "2.0", id: 2, error },
    ]);
  });

  it("leaves any other failure the request's own JSON-RPC error", async () => {
    const failing = new Map([
      [
        "tools/list",
        method(ListToolsRequestSchema, () => {
          throw new Error("Cannot read properties of undefined");
        }),
      ],
    ]);
    const res = toWebResponse(
      await answerJsonRpc({
        req: new Request(MCP_URL, { method: "POST", headers }),
        body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
        methods: failing,
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32603, message: "Cannot read properties of undefined" } });
  });
});
