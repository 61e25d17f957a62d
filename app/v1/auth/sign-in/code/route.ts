// POST /v1/auth/sign-in/code — a sign-in code for the holder of an agent token (Authorization: Bearer):
// the service's own hosted page makes one after the person approved the agent. No API key.
import { defineRoute } from "@/lib/api-edge/define-route";
import { ApiError, MESSAGES } from "@/lib/http/errors";
import { bearerToken } from "@/lib/http/request";
import { codeForAgentToken, CODE_MESSAGES } from "@/lib/sign-in/codes";
import { signInCodeResponse } from "@/lib/sign-in/link-schemas";
import { signInCodeLimiter } from "@/lib/sign-in/limits";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/auth/sign-in/code",
  summary: "Create a hosted sign-in code for the holder of an agent token.",
  responses: { 201: signInCodeResponse },
  errors: ["invalid_access_token", "agent_not_approved"],
  auth: { key: "none", agent: false, user: "none" },
  checksItself: "access_token",
  rateLimit: { limiter: signInCodeLimiter, by: "ip" },
  handler: async ({ req }) => {
    const answer = await codeForAgentToken(bearerToken(req) ?? "");
    if (answer === "invalid") throw new ApiError("invalid_access_token", MESSAGES.invalidAccessToken);
    if (answer === "not_approved") throw new ApiError("agent_not_approved", CODE_MESSAGES.notApproved);
    return { status: 201, body: answer };
  },
});
