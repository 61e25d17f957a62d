// POST /v1/webhooks/endpoints/:endpointId/secret/rotate — a new signing secret; the one it replaces keeps
// signing beside it (two v1 signatures) for overlapHours (24 by default, at most 168; 0 ends it now).
import { defineRoute } from "@/lib/api-edge/define-route";
import { rotateEndpointSecret, secretView } from "@/lib/webhooks/endpoints";
import { endpointSecretResponse, rotateSecretBody } from "@/lib/webhooks/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/webhooks/endpoints/[endpointId]/secret/rotate",
  summary: "Replace the endpoint's signing secret; the replaced one keeps signing beside it for overlapHours (24 by default, at most 168; 0 ends it now).",
  responses: { 200: endpointSecretResponse },
  errors: ["not_found"],
  auth: { key: "secret", agent: false, user: "none" },
  livemode: true,
  body: rotateSecretBody,
  handler: async ({ key, params, body }) => ({
    body: secretView(await rotateEndpointSecret({ developerId: key.developerId, plane: key.plane }, params.endpointId ?? "", body.overlapHours)),
  }),
});
