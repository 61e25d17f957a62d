// grant_type=refresh_token: rotation on every use (RFC 9700 § 4.14.2). The common case — the chain's
// current token — is one SQL statement that supersedes it and writes the next pair; everything unusual
// (a retry inside the 60-second window, reuse, a lost race) takes the slow path, serialised per chain
// by a lock on its grant row. A late reuse revokes the whole chain.
//
// The pair a token rotates to is derived from the token itself (successorPair), so it is one pair
// wherever and however often the token is presented: a retry within the window, or a refresh that
// raced another of the same token on this instance or another, answers the very pair the first one
// wrote, and both holders go on with it. Once that pair has itself been used, the old token is reuse.
import { hashToken } from "../../bearer-tokens/access-token";
import { now as clockNow } from "../../platform/clock";
import { database, db } from "../../platform/db";
import { PREFIX } from "../../platform/ids";
import type { OidcClient } from "../client-auth";
import { invalidGrant, invalidRequest, OAUTH_MESSAGES, parameterRequired } from "../errors";
import {
  ACCESS_TOKEN_TTL_SECONDS,
  addSeconds,
  REFRESH_RETRY_WINDOW_SECONDS,
  REFRESH_TOKEN_IDLE_SECONDS,
  response,
  revokeChain,
  successorPair,
  type TokenResponse,
} from "../tokens";
import type { Grant } from "./types";

// The common case: the chain's current token, unexpired, of this client, in a live grant.
const ROTATE_SQL = `
WITH used AS (
  UPDATE oauth_refresh_tokens t SET state = 'superseded', refreshed_at = $3
    FROM oauth_grants g
   WHERE t.hash = $1 AND t.state = 'current' AND t.expires_at > $3
     AND g.id = t.grant_id AND g.client_id = $2 AND g.revoked_at IS NULL
  RETURNING g.id AS grant_id, g.scopes
), refresh AS (
  INSERT INTO oauth_refresh_tokens (hash, grant_id, parent_hash, state, created_at, expires_at)
  SELECT $4, grant_id, $1, 'current', $3, $6 FROM used
), access AS (
  INSERT INTO oauth_access_tokens (hash, grant_id, refresh_hash, created_at, expires_at)
  SELECT $5, grant_id, $4, $3, $7 FROM used
)
SELECT grant_id, scopes FROM used`;

/** Rotates the token; a late reuse revokes the chain. */
async function refreshGrant(input: { client: OidcClient; refreshToken: string | null }): Promise<TokenResponse> {
  if (!input.refreshToken) throw invalidRequest(parameterRequired("refresh_token"));
  if (!input.refreshToken.startsWith(PREFIX.refreshToken)) throw invalidGrant(OAUTH_MESSAGES.refreshInvalid);
  const hash = hashToken(input.refreshToken);
  const now = clockNow();
  const pair = successorPair(input.refreshToken);
  const params = [hash, input.client.id, now, pair.refreshHash, pair.accessHash, addSeconds(now, REFRESH_TOKEN_IDLE_SECONDS), addSeconds(now, ACCESS_TOKEN_TTL_SECONDS)];
  const [row] = await (await database()).sql.query<{ grant_id: string; scopes: string[] }>(ROTATE_SQL, params, { name: "oauth_rotate" });
  if (row) return response(pair, row.scopes, input.client);
  return refreshSlowPath({ hash, client: input.client, now, pair });
}

async function refreshSlowPath(input: { hash: string; client: OidcClient; now: Date; pair: ReturnType<typeof successorPair> }): Promise<TokenResponse> {
  const { hash, client, now, pair } = input;
  const outcome = await (
    await db()
  ).$transaction(async (tx) => {
    const [found] = await tx.$queryRaw<Array<{ grant_id: string }>>`SELECT grant_id FROM oauth_refresh_tokens WHERE hash = ${hash}`;
    if (!found) return { error: OAUTH_MESSAGES.refreshInvalid };
    // One chain's unusual cases run one at a time.
    const [grant] = await tx.$queryRaw<Array<{ client_id: string; scopes: string[]; revoked_at: Date | null; revoked_reason: string | null }>>`
      SELECT client_id, scopes, revoked_at, revoked_reason FROM oauth_grants WHERE id = ${found.grant_id}::uuid FOR UPDATE`;
    if (!grant) return { error: OAUTH_MESSAGES.refreshInvalid };
    if (grant.client_id !== client.id) return { error: OAUTH_MESSAGES.refreshOtherClient };
    if (grant.revoked_at) return { error: grant.revoked_reason === "reuse" ? OAUTH_MESSAGES.refreshReuse : OAUTH_MESSAGES.refreshRevoked };
    const [token] = await tx.$queryRaw<Array<{ state: string; expires_at: Date; refreshed_at: Date | null }>>`
      SELECT state, expires_at, refreshed_at FROM oauth_refresh_tokens WHERE hash = ${hash}`;
    if (!token) return { error: OAUTH_MESSAGES.refreshInvalid };
    if (token.state === "current") {
      if (token.expires_at <= now) return { error: OAUTH_MESSAGES.refreshExpired };
      // The fast path lost a race with a transaction that has since finished: rotate here.
      const rotated = await tx.$queryRawUnsafe<Array<{ grant_id: string }>>(
        ROTATE_SQL,
        hash,
        client.id,
        now,
        pair.refreshHash,
        pair.accessHash,
        addSeconds(now, REFRESH_TOKEN_IDLE_SECONDS),
        addSeconds(now, ACCESS_TOKEN_TTL_SECONDS),
      );
      if (rotated.length) return { scopes: grant.scopes };
    } else if (token.state === "superseded" && token.refreshed_at && now.getTime() - token.refreshed_at.getTime() <= REFRESH_RETRY_WINDOW_SECONDS * 1000) {
      // Its successor is the pair this token derives: answered again while it is still unused.
      const [successor] = await tx.$queryRaw<Array<{ access_expires_at: Date }>>`
        SELECT a.expires_at AS access_expires_at
          FROM oauth_refresh_tokens r JOIN oauth_access_tokens a ON a.refresh_hash = r.hash
         WHERE r.hash = ${pair.refreshHash} AND r.parent_hash = ${hash} AND r.state = 'current' AND a.revoked_at IS NULL`;
      if (successor) return { scopes: grant.scopes, expiresIn: Math.max(0, Math.floor((successor.access_expires_at.getTime() - now.getTime()) / 1000)) };
    }
    await revokeChain(tx, found.grant_id, "reuse", now);
    return { error: OAUTH_MESSAGES.refreshReuse };
  });
  if ("error" in outcome) throw invalidGrant(outcome.error!);
  return response(pair, outcome.scopes, client, undefined, "expiresIn" in outcome ? outcome.expiresIn : ACCESS_TOKEN_TTL_SECONDS);
}

export const refreshTokenGrant: Grant = {
  type: "refresh_token",
  parameters: ["refresh_token"],
  handle: ({ client, form }) => refreshGrant({ client, refreshToken: form.get("refresh_token") }),
};
