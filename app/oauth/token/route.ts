// POST /oauth/token — exchange an authorization code, or rotate a refresh token.
import { preflight } from "@/lib/http/cors";
import { defineRoute } from "@/lib/http/define-route";
import { authenticateClient } from "@/lib/oidc/client-auth";
import { corsClientOf, oauthFormEndpoint, publicClientCors } from "@/lib/oidc/cors";
import { invalidRequest, OAuthError, OAUTH_MESSAGES } from "@/lib/oidc/errors";
import { readForm } from "@/lib/oidc/form";
import { exchangeCode, refreshGrant } from "@/lib/oidc/tokens";

export const POST = defineRoute({
  method: "POST",
  path: "/oauth/token",
  ...oauthFormEndpoint,
  handler: async ({ req }) => {
    const form = await readForm(req);
    const client = await authenticateClient(req, form);
    corsClientOf(req, client.id);
    const grantType = form.get("grant_type");
    let body;
    if (grantType === "authorization_code") {
      body = await exchangeCode({ client, code: form.get("code") ?? "", redirectUri: form.get("redirect_uri"), codeVerifier: form.get("code_verifier") });
    } else if (grantType === "refresh_token") {
      body = await refreshGrant({ client, refreshToken: form.get("refresh_token") });
    } else if (!grantType) {
      throw invalidRequest(OAUTH_MESSAGES.grantTypeRequired);
    } else {
      throw new OAuthError("unsupported_grant_type", OAUTH_MESSAGES.unsupportedGrantType);
    }
    return { body, headers: { Pragma: "no-cache" } };
  },
});

/** Browser apps (public clients) call the token endpoint from their callback's origin. */
export const OPTIONS = (req: Request) => preflight(publicClientCors, req);
