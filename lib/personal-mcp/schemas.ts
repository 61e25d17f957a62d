// The answer of the personal MCP endpoint's discovery route, for the reference and the tests that
// check every answer against its contract (the authorization server's are in lib/oidc/mcp-clients/schemas.ts).
import { z } from "zod";
import { PROFILE_TOOL_SCOPES } from "../profile/scopes";

/** GET /.well-known/oauth-protected-resource/personal-mcp (RFC 9728 § 2). */
export const protectedResourceResponse = z.strictObject({
  resource: z.url(),
  authorization_servers: z.array(z.url()).length(1),
  scopes_supported: z.array(z.enum(PROFILE_TOOL_SCOPES)),
  bearer_methods_supported: z.array(z.literal("header")),
  resource_name: z.string(),
});
