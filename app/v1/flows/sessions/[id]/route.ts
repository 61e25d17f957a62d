// GET /v1/flows/sessions/:id — a partner flow session: its status, and what the person imported and
// connected in the flow that finished it. Only for the developer, agent and key plane that created it.
import { defineRoute } from "@/lib/api-edge/define-route";
import { partnerSessionResponse } from "@/lib/partner-sessions/schemas";
import { getPartnerSession } from "@/lib/partner-sessions/sessions";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/flows/sessions/[id]",
  summary: "Read a partner flow session: its status, what the person imported and connected, and whether partner_ref is linked.",
  responses: { 200: partnerSessionResponse },
  errors: ["not_found"],
  auth: { key: "secret", agent: true, user: "none" },
  handler: async ({ key, agent, params }) => ({
    body: await getPartnerSession({ id: params.id ?? "", developerId: key.developerId, agentId: agent.id, plane: key.plane }),
  }),
});
