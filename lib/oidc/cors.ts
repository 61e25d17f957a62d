// CORS of the token and revocation endpoints, decided per client: a response is readable only from an
// origin of the requesting public client's own registered callbacks (a browser app is a public
// client; confidential clients call from their servers). A preflight cannot see the form, so it
// admits the origins of any public client; the answer itself then carries Access-Control-Allow-Origin
// only for the client the request authenticated as, which the endpoint returns with its answer (or
// throws with its error: lib/http/cors.ts ForClient).
import { TtlCache } from "../platform/cache";
import { database } from "../platform/db";
import type { CorsPolicy } from "../http/cors";
import { oauthErrorAnswer } from "./errors";
import { oauthLimiter } from "./limits";

const originCache = new TtlCache<boolean>("oauth-cors-origins");
async function publicClientHasOrigin(origin: string, clientId: string | null): Promise<boolean> {
  if (origin.length > 300) return false;
  return originCache.through(`${clientId ?? "*"} ${origin}`, async () => {
    const rows = await (
      await database()
    ).sql.query(
      `SELECT 1 FROM oauth_redirect_uris r JOIN oauth_clients c ON c.id = r.client_id
        WHERE r.origin = $1 AND c.token_endpoint_auth_method = 'none' AND ($2::text IS NULL OR c.id = $2) LIMIT 1`,
      [origin.toLowerCase(), clientId],
      { name: "oauth_cors_origin" },
    );
    return rows.length > 0;
  });
}

/** The preflight: any public client's callback origin. */
export const publicClientCors: CorsPolicy = { allowOrigin: (origin) => publicClientHasOrigin(origin, null) };

/** The answer: only the origins of the client the request authenticated as (none when it named none). */
export const requestingClientCors: CorsPolicy = {
  allowOrigin: async (origin, client) => !!client && publicClientHasOrigin(origin, client),
};

/**
 * What the token and revocation endpoints share: no API key (the client authenticates in the form),
 * the /oauth limit per IP, the requesting client's CORS, and OAuth-shaped errors.
 */
export const oauthFormEndpoint = {
  auth: { key: "none", agent: false, user: "none" },
  rateLimit: { limiter: oauthLimiter, by: "ip" },
  cors: requestingClientCors,
  errorShape: oauthErrorAnswer,
} as const;
