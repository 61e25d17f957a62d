// CORS of the token and revocation endpoints: only the origins of public clients' registered
// callbacks (a browser app is a public client; confidential clients call from their servers).
import { TtlCache } from "../cache";
import { database } from "../db";
import type { CorsPolicy } from "../http/cors";
import { oauthLimiter } from "./limits";

const originCache = new TtlCache<boolean>("oauth-cors-origins");

export async function isPublicClientOrigin(origin: string): Promise<boolean> {
  if (origin.length > 300) return false;
  return originCache.through(origin, async () => {
    const rows = await (await database()).sql.query(
      `SELECT 1 FROM oauth_redirect_uris r JOIN oauth_clients c ON c.id = r.client_id
        WHERE r.origin = $1 AND c.token_endpoint_auth_method = 'none' LIMIT 1`,
      [origin.toLowerCase()],
      { name: "oauth_cors_origin" },
    );
    return rows.length > 0;
  });
}

export const publicClientCors: CorsPolicy = { allowOrigin: isPublicClientOrigin };

/**
 * What the token and revocation endpoints share: no API key (the client authenticates in the form),
 * the /oauth limit per IP, public clients' CORS, and OAuth-shaped errors.
 */
export const oauthFormEndpoint = {
  auth: { key: "none", agent: false, user: "none" },
  rateLimit: { limiter: oauthLimiter, by: "ip" },
  cors: publicClientCors,
  errors: "oauth",
} as const;
