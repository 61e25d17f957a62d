// GET /v1/profile/search — full-text search over the memories the agent can see.
import { defineRoute } from "@/lib/api-edge/define-route";
import { searchQuery, searchResponse } from "@/lib/profile/schemas";
import { searchProfile } from "@/lib/profile/search";
import type { ProfileToolScope } from "@/lib/profile/scopes";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/profile/search",
  summary: "Full-text search over the memories the agent can see.",
  responses: { 200: searchResponse },
  errors: ["commit_required"],
  auth: { key: "secret", agent: true, user: "required", scope: "profile.search" satisfies ProfileToolScope },
  livemode: true,
  turn: true,
  query: searchQuery,
  handler: async ({ user, agent, query }) => ({
    body: await searchProfile({ userId: user.id, agentId: agent.id, ...query }),
  }),
});
