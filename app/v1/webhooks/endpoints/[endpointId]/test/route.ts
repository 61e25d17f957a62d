// POST /v1/webhooks/endpoints/:endpointId/test — sends a webhook.test event to this endpoint only.
import { defineRoute } from "@/lib/api-edge/define-route";
import { sendTestEvent, webhookSendLimiter } from "@/lib/webhooks/deliveries";
import { deliveryResponse } from "@/lib/webhooks/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/webhooks/endpoints/[endpointId]/test",
  summary: "Send a webhook.test event to the endpoint, whatever events it takes; answers its delivery, pending.",
  responses: { 202: deliveryResponse },
  errors: ["not_found", "endpoint_disabled"],
  auth: { key: "secret", agent: false, user: "none" },
  rateLimit: { limiter: webhookSendLimiter, by: "key" },
  livemode: true,
  handler: async ({ key, params }) => ({
    status: 202,
    body: { delivery: await sendTestEvent({ developerId: key.developerId, plane: key.plane }, params.endpointId ?? "") },
  }),
});
