// POST /v1/profile/mcp-session — a 15-minute MCP session for one conversation on the developer MCP server.
import { defineRoute } from "@/lib/api-edge/define-route";
import { mintMcpSession } from "@/lib/profile/mcp-session";
import { mcpSessionBody, mcpSessionResponse } from "@/lib/profile/mcp-session-schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/profile/mcp-session",
  summary: "Mint a 15-minute MCP session for the developer MCP server, for the user named (X-User-Id), optionally continuing a previous one.",
  responses: { 200: mcpSessionResponse },
  errors: ["previous_token_mismatch"],
  // The user is resolved by the mint itself: a user who is unknown or has not approved the agent gets
  // an unlinked session (linked: false), not an error.
  auth: { key: "secret", agent: true, user: "none" },
  livemode: true,
  body: mcpSessionBody,
  handler: async ({ req, key, agent, body }) => ({
    body: await mintMcpSession({ key, agent, externalId: req.headers.get("x-user-id") ?? undefined, previousToken: body.previous_token }),
  }),
});
