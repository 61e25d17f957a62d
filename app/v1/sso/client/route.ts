// POST /v1/sso/client — register an OpenID Connect client with a publishable key (callable from browsers).
import { z } from "zod";
import { preflight } from "@/lib/http/cors";
import { defineRoute } from "@/lib/api-edge/define-route";
import { registerClient } from "@/lib/oidc/clients";
import { TOKEN_ENDPOINT_AUTH_METHODS } from "@/lib/oidc/client-auth";
import { oauthLimiter } from "@/lib/oidc/limits";
import { clientCreatedResponse, clientResponse } from "@/lib/oidc/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/sso/client",
  summary: "Register an OpenID Connect client with a publishable key (callable from browsers).",
  responses: { 200: clientResponse, 201: clientCreatedResponse },
  errors: [
    "publishable_key_required",
    "invalid_publishable_key",
    "invalid_redirect_uri",
    "invalid_origin",
    "origin_not_approved",
    "no_active_agent",
    "too_many_redirect_uris",
    "too_many_clients",
  ],
  auth: { key: "none", agent: false, user: "none" },
  cors: "open",
  rateLimit: { limiter: oauthLimiter, by: "ip" },
  body: z.object({
    publishable_key: z.string().optional(),
    redirect_uri: z.string().optional(),
    token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS).default("none"),
  }),
  handler: async ({ body }) => {
    const { created, client } = await registerClient({
      publishableKey: body.publishable_key,
      redirectUri: body.redirect_uri,
      method: body.token_endpoint_auth_method,
    });
    return { status: created ? 201 : 200, body: client };
  },
});

/** Browsers send a preflight before the JSON POST: this route is open to any origin. */
export const OPTIONS = () => preflight("open");
