// POST /oauth/token — exchange an authorization code, or rotate a refresh token (lib/oidc/grants).
import { preflight } from "@/lib/http/cors";
import { defineRoute } from "@/lib/api-edge/define-route";
import { oauthFormEndpoint, publicClientCors } from "@/lib/oidc/cors";
import { tokenResponse } from "@/lib/oidc/schemas";
import { tokenEndpoint, tokenForm } from "@/lib/oidc/token-endpoint";

export const POST = defineRoute({
  method: "POST",
  path: "/oauth/token",
  summary: "Exchange an authorization code, or rotate a refresh token.",
  form: tokenForm,
  checksItself: "oauth_client",
  responses: { 200: tokenResponse },
  ...oauthFormEndpoint,
  handler: async ({ request }) => {
    const { client, token } = await tokenEndpoint(request);
    return { body: token, headers: { Pragma: "no-cache" }, corsClient: client };
  },
});

/** Browser apps (public clients) call the token endpoint from their callback's origin. */
export const OPTIONS = (req: Request) => preflight(publicClientCors, req);
