// GET /.well-known/oauth-protected-resource/personal-mcp — the personal MCP endpoint's protected-resource
// metadata (RFC 9728): which authorization server signs people in for it. Readable from any origin.
import { defineRoute } from "@/lib/api-edge/define-route";
import { protectedResourceMetadata } from "@/lib/personal-mcp/metadata";
import { protectedResourceResponse } from "@/lib/personal-mcp/schemas";

export const GET = defineRoute({
  method: "GET",
  path: "/.well-known/oauth-protected-resource/personal-mcp",
  summary: "The personal MCP endpoint's protected-resource metadata (RFC 9728), readable from any origin.",
  responses: { 200: protectedResourceResponse },
  auth: { key: "none", agent: false, user: "none" },
  cors: "open",
  handler: async () => ({ body: protectedResourceMetadata(), headers: { "Cache-Control": "public, max-age=3600" } }),
});
