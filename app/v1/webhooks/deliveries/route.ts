// GET /v1/webhooks/deliveries — the delivery log of the key's plane, newest first: each delivery's status,
// last response code and error, and every try (status, response code, duration, error).
import { defineRoute } from "@/lib/api-edge/define-route";
import { deliveriesQuery, listDeliveries } from "@/lib/webhooks/deliveries";
import { deliveriesResponse } from "@/lib/webhooks/schemas";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/webhooks/deliveries",
  summary: "The webhook delivery log of the key's plane, newest first; by endpoint or status, up to limit (50, at most 100).",
  responses: { 200: deliveriesResponse },
  errors: ["not_found"],
  auth: { key: "secret", agent: false, user: "none" },
  livemode: true,
  query: deliveriesQuery,
  handler: async ({ key, query }) => ({ body: { deliveries: await listDeliveries({ developerId: key.developerId, plane: key.plane }, query) } }),
});
