// DELETE /v1/sso/clients/:clientId/redirect-uris — remove one callback from the developer's own client.
import { z } from "zod";
import { defineRoute } from "@/lib/api-edge/define-route";
import { removeRedirectUri } from "@/lib/oidc/clients";
import { oauthLimiter } from "@/lib/oidc/limits";
import { redirectUrisResponse } from "@/lib/oidc/schemas";

export const DELETE = defineRoute({
  method: "DELETE",
  path: "/v1/sso/clients/[clientId]/redirect-uris",
  summary: "Remove one callback from the developer's own client.",
  responses: { 200: redirectUrisResponse },
  errors: ["not_found"],
  auth: { key: "secret", agent: true, user: "none" },
  rateLimit: { limiter: oauthLimiter, by: "ip" },
  body: z.object({ redirect_uri: z.string().min(1).max(2_048) }),
  handler: async ({ key, params, body }) => ({
    body: await removeRedirectUri({ developerId: key.developerId, plane: key.plane, clientId: params.clientId ?? "", redirectUri: body.redirect_uri }),
  }),
});
