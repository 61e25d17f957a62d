// POST /v1/profile/import — a chunk of text about the user, distilled into memories.
import { defineRoute } from "@/lib/api-edge/define-route";
import { importText } from "@/lib/profile/import-text";
import { importBody, importResponse } from "@/lib/profile/schemas";
import type { ProfileToolScope } from "@/lib/profile/scopes";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/profile/import",
  summary: "A chunk of text about the user, distilled into memories.",
  responses: { 200: importResponse, 201: importResponse },
  auth: { key: "secret", agent: true, user: "required", scope: "profile.remember" satisfies ProfileToolScope },
  livemode: true,
  turn: true,
  body: importBody,
  // 20,000 characters of text, each up to 4 bytes in UTF-8, plus the JSON around them.
  bodyLimit: 128 * 1024,
  handler: async ({ user, agent, body }) => {
    const result = await importText({ userId: user.id, agent, text: body.text, box: body.box, kind: body.kind });
    return { status: result.saved ? 201 : 200, body: result };
  },
});
