// POST /v1/webhooks/deliveries/:deliveryId/resend — send again: a new delivery of the same event (same
// webhook-id and body) to the same endpoint, due now.
import { defineRoute } from "@/lib/api-edge/define-route";
import { resendDelivery, webhookSendLimiter } from "@/lib/webhooks/deliveries";
import { deliveryResponse } from "@/lib/webhooks/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/webhooks/deliveries/[deliveryId]/resend",
  summary: "Send a delivery's event again to its endpoint (same webhook-id and body); answers the new delivery, pending.",
  responses: { 202: deliveryResponse },
  errors: ["not_found", "endpoint_disabled"],
  auth: { key: "secret", agent: false, user: "none" },
  rateLimit: { limiter: webhookSendLimiter, by: "key" },
  livemode: true,
  handler: async ({ key, params }) => ({
    status: 202,
    body: { delivery: await resendDelivery({ developerId: key.developerId, plane: key.plane }, params.deliveryId ?? "") },
  }),
});
