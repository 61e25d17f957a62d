// GET /v1/webhooks/deliveries/:deliveryId — one webhook delivery with its tries.
import { defineRoute } from "@/lib/api-edge/define-route";
import { getDelivery } from "@/lib/webhooks/deliveries";
import { deliveryResponse } from "@/lib/webhooks/schemas";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/webhooks/deliveries/[deliveryId]",
  summary: "A webhook delivery: its status, last response code and error, and every try.",
  responses: { 200: deliveryResponse },
  errors: ["not_found"],
  auth: { key: "secret", agent: false, user: "none" },
  livemode: true,
  handler: async ({ key, params }) => ({ body: { delivery: await getDelivery({ developerId: key.developerId, plane: key.plane }, params.deliveryId ?? "") } }),
});
