// GET /.well-known/oauth-authorization-server — the authorization-server metadata (RFC 8414) MCP
// clients read: the OpenID Connect provider's endpoints, client registration, metadata-document client ids.
import { defineRoute } from "@/lib/api-edge/define-route";
import { JWKS_MAX_AGE_SECONDS } from "@/lib/oidc/signing-keys";
import { authorizationServerResponse } from "@/lib/oidc/mcp-clients/schemas";
import { authorizationServerMetadata } from "@/lib/oidc/mcp-clients/server-metadata";

export const GET = defineRoute({
  method: "GET",
  path: "/.well-known/oauth-authorization-server",
  summary: "The authorization-server metadata (RFC 8414) MCP clients read, readable from any origin.",
  responses: { 200: authorizationServerResponse },
  auth: { key: "none", agent: false, user: "none" },
  cors: "open",
  handler: async () => ({ body: authorizationServerMetadata(), headers: { "Cache-Control": `public, max-age=${JWKS_MAX_AGE_SECONDS}` } }),
});
