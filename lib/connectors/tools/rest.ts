// A connector tool's REST route, POST /v1/tools/<name>: the same contract and checks as the tool on the
// developer MCP server. Token-authoritative: X-API-Key, X-Agent and a Bearer token (an agent token or
// an OpenID Connect access token) naming the person (`user: "token"`); X-User-Id and user_id are
// refused. The route file serves it: `defineRoute(connectorContract(name))`.
import type { z } from "zod";
import { canConnectApp } from "../providers";
import type { RouteDefinition } from "../../http/define-route";
import { ApiError, MESSAGES } from "../../http/errors";
import { connectorToolDefinition } from "./registry";
import { runConnectorTool } from "./run";

type ConnectorAuth = { key: "secret"; agent: true; user: "token" };

export function connectorContract(name: string): RouteDefinition<z.ZodType, z.ZodUndefined, ConnectorAuth> {
  const tool = connectorToolDefinition(name);
  return {
    method: "POST",
    path: `/v1/tools/${name}`,
    summary: `${tool.title}. ${tool.description}`,
    responses: { 200: tool.output },
    auth: { key: "secret", agent: true, user: "token" },
    // Unknown fields pass through to the tool's own check, which refuses user_id by name.
    body: tool.input.loose(),
    errors: [
      "agent_not_approved",
      "app_not_connected",
      "app_needs_reconnect",
      "permission_needed",
      "rate_limited",
      "provider_error",
      "not_found",
      ...(tool.action ? (["idempotency_key_reused", "action_in_progress"] as const) : []),
    ],
    handler: async ({ key, agent, user, body }) => {
      if (tool.needsOutlook && !canConnectApp("outlook")) throw new ApiError("not_found", MESSAGES.notFound);
      return { body: await runConnectorTool({ tool, developerId: key.developerId, plane: key.plane, agent, userId: user.id, surface: "rest", rawArgs: body }) };
    },
  };
}
