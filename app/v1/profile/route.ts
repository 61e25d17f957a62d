// GET /v1/profile — the user's composed profile, or one box of memories, for an approved agent.
import { defineRoute } from "@/lib/api-edge/define-route";
import { readBox, readProfile } from "@/lib/profile/read";
import { profileQuery, profileResponse } from "@/lib/profile/schemas";
import type { ProfileToolScope } from "@/lib/profile/scopes";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/profile",
  summary: "The user's composed profile, or one box of memories, for an approved agent.",
  responses: { 200: profileResponse },
  errors: ["commit_required"],
  auth: { key: "secret", agent: true, user: "required", scope: "profile.read" satisfies ProfileToolScope },
  livemode: true,
  turn: true,
  query: profileQuery,
  handler: async ({ user, agent, query }) => ({
    body: query.box
      ? await readBox({ userId: user.id, agentId: agent.id, box: query.box, page: query.page })
      : await readProfile({ userId: user.id, agentId: agent.id, sections: query.sections }),
  }),
});
