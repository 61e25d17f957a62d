// POST /v1/auth/sign-in/exchange — a sign-in code, once, for a 24-hour agent token. The code must be
// this developer's and this agent's, in the key's plane.
import { z } from "zod";
import { defineRoute } from "@/lib/api-edge/define-route";
import { exchangeSignInCode } from "@/lib/sign-in/codes";
import { exchangeResponse } from "@/lib/sign-in/link-schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/auth/sign-in/exchange",
  summary: "Exchange a hosted sign-in code, once, for an agent token.",
  responses: { 200: exchangeResponse },
  errors: ["invalid_code", "code_expired", "code_already_used"],
  auth: { key: "secret", agent: true, user: "none" },
  livemode: true,
  body: z.object({ code: z.string().min(1).max(200) }),
  handler: async ({ key, agent, body }) => ({
    body: await exchangeSignInCode({ developerId: key.developerId, agentId: agent.id, plane: key.plane, agent: agent.handle, code: body.code }),
  }),
});
