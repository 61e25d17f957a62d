// POST /oauth/revoke — revoke a token (RFC 7009). A refresh token takes its whole chain with it.
import { preflight } from "@/lib/http/cors";
import { defineRoute } from "@/lib/http/define-route";
import { publicClientCors } from "@/lib/oidc/cors";
import { invalidRequest } from "@/lib/oidc/errors";
import { readForm } from "@/lib/oidc/form";
import { oauthLimiter } from "@/lib/oidc/limits";
import { revokeToken } from "@/lib/oidc/tokens";

export const POST = defineRoute({
  method: "POST",
  path: "/oauth/revoke",
  auth: { key: "none", agent: false, user: "none" },
  rateLimit: { limiter: oauthLimiter, by: "ip" },
  cors: publicClientCors,
  errors: "oauth",
  handler: async ({ req }) => {
    const form = await readForm(req);
    const token = form.get("token");
    if (!token) throw invalidRequest("token is required.");
    // Holding a token is enough to revoke it; unknown and already revoked tokens are no error.
    await revokeToken(token);
    return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
  },
});

export const OPTIONS = (req: Request) => preflight(publicClientCors, req);
