// POST /v1/flows/sessions — a partner flow session: a link that brings a person's profile to the
// partner under its own user id for them (partner_ref), by the connect, linked_account or import-only flow.
import { defineRoute } from "@/lib/api-edge/define-route";
import { partnerSessionBody, partnerSessionResponse } from "@/lib/partner-sessions/schemas";
import { createPartnerSession } from "@/lib/partner-sessions/sessions";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/flows/sessions",
  summary: "Create a partner flow session: a hosted link that brings a person's profile to the partner under its own user id for them.",
  responses: { 201: partnerSessionResponse },
  auth: { key: "secret", agent: true, user: "none" },
  body: partnerSessionBody,
  handler: async ({ key, agent, body }) => ({
    status: 201,
    body: await createPartnerSession({
      developerId: key.developerId,
      plane: key.plane,
      agentId: agent.id,
      flow: body.flow,
      partnerRef: body.partner_ref,
      sources: body.sources,
      required: body.required,
    }),
  }),
});
