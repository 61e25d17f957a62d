// A connector tool's REST route, POST /v1/tools/<name>: the same contract and checks as the tool on the
// developer MCP server. Token-authoritative: X-API-Key, X-Agent and a Bearer token (an agent token or
// an OpenID Connect access token) naming an approved person; X-User-Id and user_id are refused.
import { canConnect } from "../connections";
import { resolveUserToken } from "../../http/credentials";
import { defineRoute, type RouteHandler } from "../../http/define-route";
import { ApiError, MESSAGES } from "../../http/errors";
import { connectorToolDefinition } from "./registry";
import { runConnectorTool } from "./run";

export function connectorRoute(name: string): RouteHandler {
  const tool = connectorToolDefinition(name);
  return defineRoute({
    method: "POST",
    path: `/v1/tools/${name}`,
    summary: `${tool.title}. ${tool.description}`,
    responses: { 200: tool.output },
    auth: { key: "secret", agent: true, user: "none" },
    // Unknown fields pass through to the tool's own check, which refuses user_id by name.
    body: tool.input.loose(),
    errors: [
      "user_token_required",
      "invalid_access_token",
      "agent_not_approved",
      "app_not_connected",
      "app_needs_reconnect",
      "permission_needed",
      "rate_limited",
      "provider_error",
      "not_found",
      ...(tool.action ? (["idempotency_key_reused", "action_in_progress"] as const) : []),
    ],
    handler: async ({ req, key, agent, body }) => {
      if (tool.needsOutlook && !canConnect("outlook")) throw new ApiError("not_found", MESSAGES.notFound);
      if (req.headers.has("x-user-id")) throw new ApiError("user_token_required", MESSAGES.userTokenRequired);
      const user = await resolveUserToken(req, { key, agent });
      if (!user) throw new ApiError("user_token_required", MESSAGES.userTokenRequired);
      return { body: await runConnectorTool({ tool, developerId: key.developerId, plane: key.plane, agent, userId: user.id, surface: "rest", rawArgs: body }) };
    },
  });
}
