// POST|GET|DELETE /v1/auth/sign-in/return-destinations — the web callbacks and app links the acting
// agent's sign-in links may return to, in the key's plane. Registration is idempotent.
import { z } from "zod";
import { defineRoute } from "@/lib/api-edge/define-route";
import { ApiError } from "@/lib/http/errors";
import { addReturnDestination, listReturnDestinations, MAX_DESTINATION_LENGTH, removeReturnDestination } from "@/lib/sign-in/destinations";
import { returnDestinationDeletedResponse, returnDestinationResponse, returnDestinationsResponse } from "@/lib/sign-in/link-schemas";

const AUTH = { key: "secret", agent: true, user: "none" } as const;
const body = z.object({ return_to: z.string().min(1).max(MAX_DESTINATION_LENGTH) });

type Scope = { developerId: string; agentId: string; plane: "live" | "test" };
async function destinations(scope: Scope) {
  return (await listReturnDestinations(scope)).map((d) => ({ returnTo: d.url, createdAt: d.createdAt.toISOString() }));
}

export const POST = defineRoute({
  method: "POST",
  path: "/v1/auth/sign-in/return-destinations",
  summary: "Register a web callback or native app link the agent's sign-in links may return to.",
  responses: { 201: returnDestinationResponse, 200: returnDestinationResponse },
  errors: ["invalid_destination"],
  auth: AUTH,
  livemode: true,
  body,
  handler: async ({ key, agent, body }) => {
    const scope = { developerId: key.developerId, agentId: agent.id, plane: key.plane };
    const registered = await addReturnDestination({ ...scope, url: body.return_to });
    const destination = (await destinations(scope)).find((d) => d.returnTo === registered.url)!;
    return { status: registered.created ? 201 : 200, body: { destination, created: registered.created } };
  },
});

export const GET = defineRoute({
  method: "GET",
  path: "/v1/auth/sign-in/return-destinations",
  summary: "List the acting agent's return destinations in the key's plane.",
  responses: { 200: returnDestinationsResponse },
  auth: AUTH,
  livemode: true,
  handler: async ({ key, agent }) => ({ body: { destinations: await destinations({ developerId: key.developerId, agentId: agent.id, plane: key.plane }) } }),
});

export const DELETE = defineRoute({
  method: "DELETE",
  path: "/v1/auth/sign-in/return-destinations",
  summary: "Remove a return destination; sign-in links naming it stop working.",
  responses: { 200: returnDestinationDeletedResponse },
  errors: ["not_found"],
  auth: AUTH,
  livemode: true,
  body,
  handler: async ({ key, agent, body }) => {
    const scope = { developerId: key.developerId, agentId: agent.id, plane: key.plane };
    if (!(await removeReturnDestination({ ...scope, url: body.return_to }))) throw new ApiError("not_found", "This agent has no such return destination in this plane.");
    return { body: { deleted: true, destinations: await destinations(scope) } };
  },
});
