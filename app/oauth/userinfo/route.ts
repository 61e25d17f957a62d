// GET|POST /oauth/userinfo — the subject of an access token. Scoped claims (email, name, …) are
// read from the ID token; this endpoint answers only { sub }.
import { defineRoute } from "@/lib/api-edge/define-route";
import { OAuthError, oauthErrorAnswer } from "@/lib/oidc/errors";
import { oauthLimiter } from "@/lib/oidc/limits";
import { userinfoResponse } from "@/lib/oidc/schemas";
import { verifyAccessToken } from "@/lib/bearer-tokens/access-token";

const INVALID_TOKEN = () => new OAuthError("invalid_token", "The access token is invalid, expired or revoked.", 401, { "WWW-Authenticate": 'Bearer error="invalid_token"' });

async function userinfo({ req }: { req: Request }) {
  const m = (req.headers.get("authorization") ?? "").match(/^Bearer\s+(\S+)$/i);
  if (!m) throw new OAuthError("invalid_request", "Send the access token as Authorization: Bearer.", 401, { "WWW-Authenticate": "Bearer" });
  const grant = await verifyAccessToken(m[1]!);
  if (!grant) throw INVALID_TOKEN();
  return { body: { sub: grant.userId } };
}

const common = {
  path: "/oauth/userinfo",
  summary: "The subject of an access token.",
  responses: { 200: userinfoResponse },
  auth: { key: "none", agent: false, user: "none" },
  rateLimit: { limiter: oauthLimiter, by: "ip" },
  errorShape: oauthErrorAnswer,
  checksItself: "access_token",
} as const;
export const GET = defineRoute({ ...common, method: "GET", handler: userinfo });
export const POST = defineRoute({ ...common, method: "POST", handler: userinfo });
