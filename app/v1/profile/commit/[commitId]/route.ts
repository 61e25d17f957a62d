// GET /v1/profile/commit/:commitId — a commit's status, and its result once it has run.
import { defineRoute } from "@/lib/api-edge/define-route";
import { commitStatus } from "@/lib/profile/commit";
import { commitStatusResponse } from "@/lib/profile/schemas";
import type { ProfileToolScope } from "@/lib/profile/scopes";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/profile/commit/[commitId]",
  summary: "A commit's status, and its result once it has run.",
  responses: { 200: commitStatusResponse },
  errors: ["not_found"],
  auth: { key: "secret", agent: true, user: "required", scope: "profile.commit" satisfies ProfileToolScope },
  livemode: true,
  handler: async ({ user, agent, params }) => ({
    body: await commitStatus({ commitId: params.commitId ?? "", userId: user.id, agentId: agent.id }),
  }),
});
