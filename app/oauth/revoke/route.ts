// POST /oauth/revoke — revoke a token (RFC 7009). A refresh token takes its whole chain with it.
import { preflight } from "@/lib/http/cors";
import { defineRoute } from "@/lib/http/define-route";
import { authenticateClient } from "@/lib/oidc/client-auth";
import { corsClientOf, oauthFormEndpoint, publicClientCors } from "@/lib/oidc/cors";
import { invalidRequest, parameterRequired } from "@/lib/oidc/errors";
import { readForm } from "@/lib/oidc/form";
import { revokeToken } from "@/lib/oidc/tokens";

export const POST = defineRoute({
  method: "POST",
  path: "/oauth/revoke",
  ...oauthFormEndpoint,
  handler: async ({ req }) => {
    const form = await readForm(req);
    const token = form.get("token");
    if (!token) throw invalidRequest(parameterRequired("token"));
    // A client that identifies itself must authenticate as it registered, and revokes only its own
    // tokens; without client credentials, holding a token is enough to revoke it. Unknown, expired
    // and already revoked tokens are no error (RFC 7009 § 2.2).
    const identified = form.has("client_id") || form.has("client_secret") || req.headers.has("authorization");
    const client = identified ? await authenticateClient(req, form) : null;
    if (client) corsClientOf(req, client.id);
    await revokeToken(token, client?.id);
    return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
  },
});

export const OPTIONS = (req: Request) => preflight(publicClientCors, req);
