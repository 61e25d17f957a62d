// OAuth tokens as credentials: the keyed hash every code and token is stored as, and the check of an
// access token (mcp_at_…) that a request presents as its bearer credential. Issuing, rotating and
// revoking them is lib/oidc/tokens.ts.
import { keyedHash } from "../platform/crypto";
import { database } from "../platform/db";
import type { Plane } from "../platform/db/generated/enums";
import { PREFIX } from "../platform/ids";
import { now as clockNow } from "../platform/clock";

const TOKEN_HASH_PURPOSE = "oauth-token";

/** The stored form of a code or token. */
export function hashToken(token: string): string {
  return keyedHash(TOKEN_HASH_PURPOSE, token);
}

export interface AccessTokenGrant {
  userId: string;
  agentId: string;
  developerId: string;
  plane: Plane;
  clientId: string;
  scopes: string[];
  expiresAt: Date;
}

/** The grant behind a current access token, or null (unknown, expired or revoked). No cache: revocation is immediate. */
export async function verifyAccessToken(token: string): Promise<AccessTokenGrant | null> {
  if (!token.startsWith(PREFIX.accessToken) || token.length > 128) return null;
  const [row] = await (
    await database()
  ).sql.query<{
    user_id: string;
    agent_id: string;
    developer_id: string;
    plane: Plane;
    client_id: string;
    scopes: string[];
    expires_at: Date | string;
  }>(
    `SELECT g.user_id, g.agent_id, g.developer_id, g.plane, g.client_id, g.scopes, a.expires_at
       FROM oauth_access_tokens a JOIN oauth_grants g ON g.id = a.grant_id
      WHERE a.hash = $1 AND a.revoked_at IS NULL AND g.revoked_at IS NULL`,
    [hashToken(token)],
    { name: "oauth_access_token" },
  );
  if (!row) return null;
  const expiresAt = new Date(row.expires_at);
  if (expiresAt <= clockNow()) return null;
  return { userId: row.user_id, agentId: row.agent_id, developerId: row.developer_id, plane: row.plane, clientId: row.client_id, scopes: row.scopes, expiresAt };
}
