// POST|GET /v1/webhooks/endpoints — the key's developer's webhook endpoints in the key's plane. Creating
// one answers its signing secret (whsec_…), shown again only by GET …/secret.
import { defineRoute } from "@/lib/api-edge/define-route";
import { createEndpoint, endpointView, listEndpoints } from "@/lib/webhooks/endpoints";
import { createdEndpointResponse, createEndpointBody, endpointsResponse } from "@/lib/webhooks/schemas";

const AUTH = { key: "secret", agent: false, user: "none" } as const;

export const POST = defineRoute({
  method: "POST",
  path: "/v1/webhooks/endpoints",
  summary: "Add a webhook endpoint for the key's plane; the answer carries its signing secret.",
  responses: { 201: createdEndpointResponse },
  errors: ["invalid_request"],
  auth: AUTH,
  livemode: true,
  body: createEndpointBody,
  handler: async ({ key, body }) => {
    const { endpoint, secret } = await createEndpoint({ developerId: key.developerId, plane: key.plane, ...body });
    return { status: 201, body: { endpoint: endpointView(endpoint), secret } };
  },
});

export const GET = defineRoute({
  method: "GET",
  path: "/v1/webhooks/endpoints",
  summary: "List the webhook endpoints of the key's plane (never their secrets).",
  responses: { 200: endpointsResponse },
  auth: AUTH,
  livemode: true,
  handler: async ({ key }) => ({ body: { endpoints: (await listEndpoints({ developerId: key.developerId, plane: key.plane })).map((e) => endpointView(e)) } }),
});
