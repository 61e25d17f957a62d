// POST /v1/auth/sign-in/callback-secret/rotate — a new secret for the key's developer and plane; the one
// it replaces keeps signing beside it (two v1 signatures) for overlapHours (24 by default, 0 ends it now).
import { defineRoute } from "@/lib/api-edge/define-route";
import { callbackSecretResponse, rotateCallbackSecretBody } from "@/lib/sign-in/callback-schemas";
import { callbackSecretWire, rotateCallbackSecret } from "@/lib/sign-in/callback-secrets";

export const POST = defineRoute({
  method: "POST",
  path: "/v1/auth/sign-in/callback-secret/rotate",
  summary: "Replaces the key's plane's callback secret; the replaced one keeps signing beside it for overlapHours (24 by default, at most 168; 0 ends it now).",
  responses: { 200: callbackSecretResponse },
  auth: { key: "secret", agent: false, user: "none" },
  livemode: true,
  body: rotateCallbackSecretBody,
  handler: async ({ key, body }) => ({
    body: callbackSecretWire(await rotateCallbackSecret({ developerId: key.developerId, plane: key.plane, overlapHours: body.overlapHours })),
  }),
});
