// POST /v1/profile/remember — one durable fact, written by the acting agent.
import { defineRoute } from "@/lib/api-edge/define-route";
import { remember } from "@/lib/profile/remember";
import { rememberBody, rememberResponse } from "@/lib/profile/schemas";
import type { ProfileToolScope } from "@/lib/profile/scopes";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/profile/remember",
  summary: "One durable fact, written by the acting agent.",
  responses: { 200: rememberResponse, 201: rememberResponse },
  errors: ["not_found"],
  auth: { key: "secret", agent: true, user: "required", scope: "profile.remember" satisfies ProfileToolScope },
  livemode: true,
  turn: true,
  body: rememberBody,
  handler: async ({ user, agent, body }) => {
    const result = await remember({
      userId: user.id,
      agent,
      text: body.text,
      box: body.box,
      kind: body.kind,
      replyTo: body.reply_to,
      resolves: body.resolves,
    });
    return { status: result.saved ? 201 : 200, body: result };
  },
});
