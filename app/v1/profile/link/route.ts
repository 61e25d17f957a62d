// POST /v1/profile/link — link an OpenID Connect user (by the access token of the code exchange)
// to the developer's own user id (X-User-Id).
import { z } from "zod";
import { defineRoute } from "@/lib/api-edge/define-route";
import { linkOidcUser } from "@/lib/oidc/link";
import { linkResponse } from "@/lib/oidc/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/profile/link",
  summary: "Link an OpenID Connect user (by the access token of the code exchange) to the developer's own user id (X-User-Id).",
  responses: { 200: linkResponse },
  errors: ["agent_token_not_allowed", "client_not_owned", "invalid_access_token", "link_requires_external_user"],
  auth: { key: "secret", agent: true, user: "none" },
  body: z.object({ access_token: z.string().max(256).optional() }),
  handler: async ({ req, key, body }) => {
    const bearer = (req.headers.get("authorization") ?? "").match(/^Bearer\s+(\S+)$/i)?.[1];
    return { body: await linkOidcUser({ key, externalId: req.headers.get("x-user-id") ?? undefined, accessToken: bearer ?? body.access_token }) };
  },
});
