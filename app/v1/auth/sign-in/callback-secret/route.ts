// GET /v1/auth/sign-in/callback-secret — the secret that signs the completion callbacks of the key's
// developer and plane (Service-Signature), for the developer's server to verify them.
import { defineRoute } from "@/lib/api-edge/define-route";
import { callbackSecretResponse } from "@/lib/sign-in/callback-schemas";
import { callbackSecretOf, callbackSecretWire } from "@/lib/sign-in/callback-secrets";

export const GET = defineRoute({
  method: "GET",
  path: "/v1/auth/sign-in/callback-secret",
  summary: "The secret that signs the completion callbacks of the key's plane (Service-Signature), and when the one it replaced stops signing.",
  responses: { 200: callbackSecretResponse },
  auth: { key: "secret", agent: false, user: "none" },
  livemode: true,
  handler: async ({ key }) => ({ body: callbackSecretWire(await callbackSecretOf({ developerId: key.developerId, plane: key.plane })) }),
});
