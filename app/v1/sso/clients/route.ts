// GET /v1/sso/clients — the developer's OpenID Connect clients in the key's plane, with their callbacks.
import { defineRoute } from "@/lib/api-edge/define-route";
import { listClients } from "@/lib/oidc/clients";
import { oauthLimiter } from "@/lib/oidc/limits";
import { clientsResponse } from "@/lib/oidc/schemas";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/sso/clients",
  summary: "The developer's OpenID Connect clients in the key's plane, with their callbacks.",
  responses: { 200: clientsResponse },
  auth: { key: "secret", agent: true, user: "none" },
  rateLimit: { limiter: oauthLimiter, by: "ip" },
  handler: async ({ key }) => ({ body: await listClients({ developerId: key.developerId, plane: key.plane }) }),
});
