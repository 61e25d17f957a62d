// GET /.well-known/jwks.json — the public signing keys (RS256), matched by kid, readable from any origin.
import { defineRoute } from "@/lib/api-edge/define-route";
import { jwksResponse } from "@/lib/oidc/schemas";
import { JWKS_MAX_AGE_SECONDS, jwks } from "@/lib/oidc/signing-keys";

export const GET = defineRoute({
  method: "GET",
  path: "/.well-known/jwks.json",
  summary: "The public signing keys (RS256), matched by kid, readable from any origin.",
  responses: { 200: jwksResponse },
  auth: { key: "none", agent: false, user: "none" },
  cors: "open",
  handler: async () => ({ body: await jwks(), headers: { "Cache-Control": `public, max-age=${JWKS_MAX_AGE_SECONDS}` } }),
});
