// GET /.well-known/openid-configuration — the discovery document, readable from any origin.
import { defineRoute } from "@/lib/api-edge/define-route";
import { discoveryDocument } from "@/lib/oidc/discovery";
import { discoveryResponse } from "@/lib/oidc/schemas";
import { JWKS_MAX_AGE_SECONDS } from "@/lib/oidc/signing-keys";

export const GET = defineRoute({
  method: "GET",
  path: "/.well-known/openid-configuration",
  summary: "The discovery document, readable from any origin.",
  responses: { 200: discoveryResponse },
  auth: { key: "none", agent: false, user: "none" },
  cors: "open",
  handler: async () => ({ body: discoveryDocument(), headers: { "Cache-Control": `public, max-age=${JWKS_MAX_AGE_SECONDS}` } }),
});
