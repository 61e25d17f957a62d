// POST /oauth/register — dynamic client registration (RFC 7591) for MCP clients of the personal endpoint.
import { preflight } from "@/lib/http/cors";
import { defineRoute } from "@/lib/api-edge/define-route";
import { OAuthError, oauthErrorAnswer } from "@/lib/oidc/errors";
import { ClientMetadataError } from "@/lib/oidc/mcp-clients/clients";
import { registerMcpClient, registrationLimiter } from "@/lib/oidc/mcp-clients/registration";
import { registrationRequest, registrationResponse } from "@/lib/oidc/mcp-clients/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/oauth/register",
  summary: "Register an MCP client of the personal endpoint (RFC 7591); open, limited per IP.",
  responses: { 201: registrationResponse },
  auth: { key: "none", agent: false, user: "none" },
  cors: "open",
  rateLimit: { limiter: registrationLimiter, by: "ip" },
  bodyLimit: 16 * 1024,
  body: registrationRequest,
  errorShape: oauthErrorAnswer,
  handler: async ({ body }) => {
    try {
      return { status: 201, body: await registerMcpClient(body), headers: { "Cache-Control": "no-store", Pragma: "no-cache" } };
    } catch (err) {
      if (err instanceof ClientMetadataError) throw new OAuthError(err.error, err.description);
      throw err;
    }
  },
});

/** MCP clients that run in a browser register from their own origin. */
export const OPTIONS = (req: Request) => preflight("open", req);
