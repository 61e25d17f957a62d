// POST /v1/auth/sign-in/recognize-phone — resolve a message's sender ids to a person; an agent token
// only when that person already approved the agent. Recognition is never authorization.
import { defineRoute } from "@/lib/api-edge/define-route";
import { consumeDeveloperRecognition, recognizeBody, recognizeLimiter, recognizeSender } from "@/lib/sign-in/recognize";
import { recognizeResponse } from "@/lib/sign-in/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/auth/sign-in/recognize-phone",
  summary: "Recognize phone-like sender ids (or an OAuth-verified mailbox address) as one person; an agent token only when that person already approved the agent.",
  responses: { 200: recognizeResponse },
  auth: { key: "secret", agent: true, user: "none" },
  rateLimit: { limiter: recognizeLimiter, by: "key" },
  body: recognizeBody,
  handler: async ({ key, agent, body }) => {
    await consumeDeveloperRecognition(key.developerId);
    return { body: await recognizeSender({ developerId: key.developerId, plane: key.plane, agent, candidates: body.candidates }) };
  },
});
