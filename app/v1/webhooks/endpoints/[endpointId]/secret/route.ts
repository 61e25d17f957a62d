// GET /v1/webhooks/endpoints/:endpointId/secret — the secret signing the endpoint's deliveries, shown on
// this explicit read, and when the one a rotation replaced stops signing.
import { defineRoute } from "@/lib/api-edge/define-route";
import { findEndpoint, secretView } from "@/lib/webhooks/endpoints";
import { endpointSecretResponse } from "@/lib/webhooks/schemas";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/webhooks/endpoints/[endpointId]/secret",
  summary: "The endpoint's signing secret (whsec_…), and when the one it replaced stops signing.",
  responses: { 200: endpointSecretResponse },
  errors: ["not_found"],
  auth: { key: "secret", agent: false, user: "none" },
  livemode: true,
  handler: async ({ key, params }) => ({ body: secretView(await findEndpoint({ developerId: key.developerId, plane: key.plane }, params.endpointId ?? "")) }),
});
