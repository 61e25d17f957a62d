// POST /v1/profile/commit — the turn's conversation (and explicit memories) into the profile.
import { defineRoute } from "@/lib/api-edge/define-route";
import { submitCommit } from "@/lib/profile/commit";
import { commitBody, commitCompletedResponse, commitQueuedResponse } from "@/lib/profile/schemas";
import type { ProfileToolScope } from "@/lib/profile/scopes";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/profile/commit",
  summary: "The turn's conversation (and explicit memories) into the profile.",
  responses: { 200: commitCompletedResponse, 202: commitQueuedResponse },
  auth: { key: "secret", agent: true, user: "required", scope: "profile.commit" satisfies ProfileToolScope },
  livemode: true,
  turn: true,
  body: commitBody,
  // 20 messages of 16,000 characters plus a response, up to 4 bytes each in UTF-8, and the JSON around them.
  bodyLimit: 2 * 1024 * 1024,
  handler: async ({ user, agent, body }) => {
    const result = await submitCommit({
      userId: user.id,
      agent,
      messages: body.messages.map((m) => ({ role: m.role, content: m.content, at: m.at ? new Date(m.at) : null })),
      response: body.response,
      memories: body.memories,
      sync: body.sync,
    });
    return { status: result.status === "processing" ? 202 : 200, body: result };
  },
});
