// POST /v1/profile/forget — delete the agent's own memories by id, words, import or scope (preview first).
import { defineRoute } from "@/lib/api-edge/define-route";
import { forget, type ForgetSelector } from "@/lib/profile/forget";
import { forgetBody, forgetResponse } from "@/lib/profile/schemas";
import type { ProfileToolScope } from "@/lib/profile/scopes";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/profile/forget",
  summary: "Delete the agent's own memories by id, words, import or scope (preview first).",
  responses: { 200: forgetResponse },
  errors: ["not_found", "memory_not_owned"],
  auth: { key: "secret", agent: true, user: "required", scope: "profile.remember" satisfies ProfileToolScope },
  livemode: true,
  turn: true,
  body: forgetBody,
  handler: async ({ user, agent, body }) => {
    const selector = (body.id ? { id: body.id } : body.match ? { match: body.match } : body.import_id ? { import_id: body.import_id } : { scope: body.scope! }) as ForgetSelector;
    const result = await forget({ userId: user.id, agentId: agent.id, selector, confirm: body.confirm, date: body.date, reason: body.reason, surface: "rest" });
    return { body: result };
  },
});
