// POST /v1/auth/sign-in/message-url — a text-back sign-in or reconnect URL for a person messaging one
// of the agent's lines. Call it only from a trusted server: never from a browser or a model prompt.
import { defineRoute } from "@/lib/http/define-route";
import { createMessageUrl, messageUrlBody } from "@/lib/sign-in/message-url";
import { messageUrlResponse } from "@/lib/sign-in/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/auth/sign-in/message-url",
  summary:
    "Create a plain hosted sign-in or reconnect URL to text from one of the acting agent's active message lines. Trusted servers only: never from a browser or a model prompt.",
  responses: { 200: messageUrlResponse },
  errors: ["invalid_phone", "message_line_not_registered", "invalid_destination", "destination_not_registered", "idempotency_key_reused"],
  auth: { key: "secret", agent: true, user: "none" },
  bodyLimit: 64 * 1024,
  body: messageUrlBody,
  handler: async ({ key, agent, body }) => ({ body: await createMessageUrl({ developerId: key.developerId, agentId: agent.id, plane: key.plane, body }) }),
});
