// GET|PATCH|DELETE /v1/webhooks/endpoints/:endpointId — one webhook endpoint of the key's developer and plane.
import { defineRoute } from "@/lib/api-edge/define-route";
import { deleteEndpoint, endpointView, findEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import { endpointDeletedResponse, endpointResponse, updateEndpointBody } from "@/lib/webhooks/schemas";

const AUTH = { key: "secret", agent: false, user: "none" } as const;

export const GET = defineRoute({
  method: "GET",
  path: "/v1/webhooks/endpoints/[endpointId]",
  summary: "A webhook endpoint: its address, events, enabled flag and secret rotation.",
  responses: { 200: endpointResponse },
  errors: ["not_found"],
  auth: AUTH,
  livemode: true,
  handler: async ({ key, params }) => ({ body: { endpoint: endpointView(await findEndpoint({ developerId: key.developerId, plane: key.plane }, params.endpointId ?? "")) } }),
});

export const PATCH = defineRoute({
  method: "PATCH",
  path: "/v1/webhooks/endpoints/[endpointId]",
  summary: "Change a webhook endpoint's address, description, events or enabled flag.",
  responses: { 200: endpointResponse },
  errors: ["not_found", "invalid_request"],
  auth: AUTH,
  livemode: true,
  body: updateEndpointBody,
  handler: async ({ key, params, body }) => ({
    body: { endpoint: endpointView(await updateEndpoint({ developerId: key.developerId, plane: key.plane }, params.endpointId ?? "", body)) },
  }),
});

export const DELETE = defineRoute({
  method: "DELETE",
  path: "/v1/webhooks/endpoints/[endpointId]",
  summary: "Remove a webhook endpoint with its delivery log; its pending deliveries are not sent.",
  responses: { 200: endpointDeletedResponse },
  errors: ["not_found"],
  auth: AUTH,
  livemode: true,
  handler: async ({ key, params }) => {
    const id = params.endpointId ?? "";
    await deleteEndpoint({ developerId: key.developerId, plane: key.plane }, id);
    return { body: { deleted: true as const, id } };
  },
});
