// POST /v1/auth/sign-in/validate — whether a stored agent token still stands: unexpired, this
// developer's and agent's, in the key's plane, and the user still approves the agent.
import { z } from "zod";
import { defineRoute } from "@/lib/api-edge/define-route";
import { validateAgentToken } from "@/lib/sign-in/codes";
import { validateResponse } from "@/lib/sign-in/link-schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/auth/sign-in/validate",
  summary: "Validate a stored agent token for the acting agent.",
  responses: { 200: validateResponse },
  auth: { key: "secret", agent: true, user: "none" },
  livemode: true,
  body: z.object({ token: z.string().min(1).max(8_192) }),
  handler: async ({ key, agent, body }) => ({
    body: await validateAgentToken({ developerId: key.developerId, agentId: agent.id, plane: key.plane, agent: agent.handle, token: body.token }),
  }),
});
