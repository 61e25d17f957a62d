// POST /oauth/revoke — revoke a token (RFC 7009). A refresh token takes its whole chain with it.
// Unknown, expired and already revoked tokens are no error (RFC 7009 § 2.2).
import { preflight } from "@/lib/http/cors";
import { defineRoute } from "@/lib/api-edge/define-route";
import { oauthFormEndpoint, publicClientCors } from "@/lib/oidc/cors";
import { revocationEndpoint, revocationForm } from "@/lib/oidc/revocation";

export const POST = defineRoute({
  method: "POST",
  path: "/oauth/revoke",
  summary: "Revoke a token (RFC 7009). A refresh token takes its whole chain with it.",
  form: revocationForm,
  checksItself: "oauth_client",
  responses: { 200: null },
  ...oauthFormEndpoint,
  handler: async ({ request }) => {
    const { client } = await revocationEndpoint(request);
    // An empty 200 (Cache-Control: no-store), readable from the client's origins.
    return { status: 200, corsClient: client ?? undefined };
  },
});

export const OPTIONS = (req: Request) => preflight(publicClientCors, req);
