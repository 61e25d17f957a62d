// POST /v1/sso/origins — approve an origin for the developer's SSO clients.
import { z } from "zod";
import { defineRoute } from "@/lib/api-edge/define-route";
import { approveOrigin } from "@/lib/oidc/clients";
import { oauthLimiter } from "@/lib/oidc/limits";
import { originResponse } from "@/lib/oidc/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/sso/origins",
  summary: "Approve an origin for the developer's SSO clients.",
  responses: { 200: originResponse },
  errors: ["invalid_origin"],
  auth: { key: "secret", agent: true, user: "none" },
  rateLimit: { limiter: oauthLimiter, by: "ip" },
  body: z.object({ origin: z.string().max(2_048) }),
  handler: async ({ key, body }) => ({ body: await approveOrigin({ developerId: key.developerId, origin: body.origin }) }),
});
