// POST /v1/auth/sign-in/message-url — a text-back sign-in, reconnect or permission-review URL for a
// person messaging one of the agent's lines. Call it only from a trusted server: never from a browser
// or a model prompt.
import { defineRoute } from "@/lib/api-edge/define-route";
import { createMessageUrl, messageUrlBody } from "@/lib/sign-in/message-url";
import { messageUrlResponse } from "@/lib/sign-in/schemas";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/auth/sign-in/message-url",
  summary:
    "Create a plain hosted sign-in, reconnect or permission-review URL to text from one of the acting agent's active message lines. Trusted servers only: never from a browser or a model prompt.",
  responses: { 200: messageUrlResponse },
  // rate_limited: a permission review mints a connect link, within the developer's connect-link limit.
  errors: ["invalid_phone", "message_line_not_registered", "invalid_destination", "destination_not_registered", "idempotency_key_reused", "rate_limited"],
  auth: { key: "secret", agent: true, user: "none" },
  bodyLimit: 64 * 1024,
  body: messageUrlBody,
  handler: async ({ key, agent, body }) => ({ body: await createMessageUrl({ developerId: key.developerId, agentId: agent.id, plane: key.plane, body }) }),
});
