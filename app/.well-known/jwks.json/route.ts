// GET /.well-known/jwks.json — the public signing keys (RS256), matched by kid, readable from any origin.
import { defineRoute } from "@/lib/http/define-route";
import { JWKS_MAX_AGE_SECONDS, jwks } from "@/lib/oidc/signing-keys";

export const GET = defineRoute({
  method: "GET",
  path: "/.well-known/jwks.json",
  auth: { key: "none", agent: false, user: "none" },
  cors: "open",
  handler: async () => ({ body: await jwks(), headers: { "Cache-Control": `public, max-age=${JWKS_MAX_AGE_SECONDS}` } }),
});
