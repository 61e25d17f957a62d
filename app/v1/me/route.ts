// GET /v1/me — the person a user-scoped token (an OpenID Connect access token) names; agent tokens are refused.
import { defineRoute } from "@/lib/api-edge/define-route";
import { describeUserToken } from "@/lib/oidc/me";
import { meResponse } from "@/lib/oidc/schemas";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/me",
  summary: "The person an OpenID Connect access token names, with the token's client, agent, scopes, expiry and scoped claims; agent tokens are refused.",
  responses: { 200: meResponse },
  errors: ["user_token_required", "agent_token_not_allowed", "invalid_access_token", "agent_not_approved"],
  auth: { key: "secret", agent: true, user: "none" },
  livemode: true,
  handler: async ({ req, key, agent }) => ({ body: await describeUserToken({ req, key, agent }) }),
});
