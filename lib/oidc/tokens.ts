// Authorization codes, access tokens and refresh-token chains. Every credential is stored only as a
// keyed hash. The common paths — exchanging a code, rotating a refresh token — are one SQL
// statement each: the statement that consumes the credential (guarded by its state, so of two
// concurrent requests exactly one wins) also writes the grant and the new tokens. Everything
// unusual (a replay, a retry inside the 60-second window, reuse) takes the slow path, serialised
// per chain by a lock on its grant row.
import { randomUUID } from "node:crypto";
import { randomBase62, s256 } from "../crypto";
import { database, db } from "../db";
import type { Prisma } from "../db/generated/client";
import type { Plane } from "../db/generated/enums";
import { env } from "../env";
import { PREFIX } from "../ids";
import { now as clockNow } from "../clock";
import { PROFILE_TOOL_SCOPES } from "../profile/scopes";
import { hashToken } from "../bearer-tokens/access-token";
import { CLAIM_COLUMNS, signIdToken, type ClaimSource } from "./claims";
import type { OidcClient } from "./client-auth";
import { invalidGrant, invalidRequest, OAUTH_MESSAGES, parameterRequired } from "./errors";

export const AUTHORIZATION_CODE_TTL_SECONDS = 5 * 60;
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
/** A refresh token not used for this long ends its chain. */
export const REFRESH_TOKEN_IDLE_SECONDS = 90 * 24 * 60 * 60;
/** A refresh token may be presented again this long after its first use (a lost response). */
export const REFRESH_RETRY_WINDOW_SECONDS = 60;
const SECRET_LENGTH = 43;

export { s256 };

/** RFC 7636 § 4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
  resource: string;
  id_token?: string;
}

function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

function newPair() {
  const random = randomBase62(2 * SECRET_LENGTH);
  const accessToken = PREFIX.accessToken + random.slice(0, SECRET_LENGTH);
  const refreshToken = PREFIX.refreshToken + random.slice(SECRET_LENGTH);
  return { accessToken, refreshToken, accessHash: hashToken(accessToken), refreshHash: hashToken(refreshToken) };
}

function response(pair: ReturnType<typeof newPair>, scopes: readonly string[], idToken?: string): TokenResponse {
  return {
    access_token: pair.accessToken,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: pair.refreshToken,
    scope: scopes.join(" "),
    resource: env().MCP_URL,
    ...(idToken ? { id_token: idToken } : {}),
  };
}

// ─── Codes ──────────────────────────────────────────────────────────────────────────────────────

export interface CodeGrantInput {
  clientId: string;
  userId: string;
  agentId: string;
  developerId: string;
  plane: Plane;
  redirectUri: string;
  codeChallenge: string;
  nonce: string | null;
  /** The OpenID Connect scopes granted (openid, email, profile). */
  scopes: string[];
}

/** Issues a code (5 minutes, single use), inside the caller's transaction when given one. */
export async function issueCode(input: CodeGrantInput, tx?: Prisma.TransactionClient): Promise<string> {
  const code = randomBase62(SECRET_LENGTH);
  const createdAt = clockNow();
  await (tx ?? (await db())).oAuthCode.create({
    data: { hash: hashToken(code), ...input, createdAt, expiresAt: addSeconds(createdAt, AUTHORIZATION_CODE_TTL_SECONDS) },
  });
  return code;
}

// Consumes the code only when everything matches, and in the same statement starts the grant and
// writes its first refresh and access tokens. Returns nothing when any condition fails.
const EXCHANGE_SQL = `
WITH code AS (
  UPDATE oauth_codes SET consumed_at = $5
   WHERE hash = $1 AND client_id = $2 AND redirect_uri = $3 AND code_challenge = $4
     AND consumed_at IS NULL AND expires_at > $5
  RETURNING hash, client_id, user_id, agent_id, developer_id, plane, scopes, nonce
), grant_row AS (
  INSERT INTO oauth_grants (id, client_id, user_id, agent_id, developer_id, plane, scopes, code_hash, created_at)
  SELECT $6::uuid, client_id, user_id, agent_id, developer_id, plane, array_cat($9::text[], scopes), hash, $5 FROM code
  RETURNING id, scopes
), refresh AS (
  INSERT INTO oauth_refresh_tokens (hash, grant_id, state, created_at, expires_at)
  SELECT $7, id, 'current', $5, $10 FROM grant_row
), access AS (
  INSERT INTO oauth_access_tokens (hash, grant_id, refresh_hash, created_at, expires_at)
  SELECT $8, id, $7, $5, $11 FROM grant_row
)
SELECT c.user_id, c.nonce, g.scopes, ${CLAIM_COLUMNS}
  FROM code c JOIN grant_row g ON true JOIN users u ON u.id = c.user_id`;

type ExchangeRow = ClaimSource & { user_id: string; nonce: string | null; scopes: string[] } & Record<string, unknown>;

/** grant_type=authorization_code. */
export async function exchangeCode(input: { client: OidcClient; code: string; redirectUri: string | null; codeVerifier: string | null }): Promise<TokenResponse> {
  if (!input.code) throw invalidRequest(parameterRequired("code"));
  if (!input.redirectUri) throw invalidRequest(parameterRequired("redirect_uri"));
  if (!input.codeVerifier) throw invalidRequest(parameterRequired("code_verifier"));
  const codeHash = hashToken(input.code);
  const challenge = VERIFIER.test(input.codeVerifier) ? s256(input.codeVerifier) : "";
  const now = clockNow();
  const pair = newPair();
  const rows = await (await database()).sql.query<ExchangeRow>(
    EXCHANGE_SQL,
    [
      codeHash,
      input.client.id,
      input.redirectUri,
      challenge,
      now,
      randomUUID(),
      pair.refreshHash,
      pair.accessHash,
      [...PROFILE_TOOL_SCOPES],
      addSeconds(now, REFRESH_TOKEN_IDLE_SECONDS),
      addSeconds(now, ACCESS_TOKEN_TTL_SECONDS),
    ],
    { name: "oauth_exchange" },
  );
  const row = rows[0];
  if (!row) throw await whyCodeFailed({ codeHash, clientId: input.client.id, redirectUri: input.redirectUri, challenge, now });
  const idToken = row.scopes.includes("openid")
    ? await signIdToken({ userId: row.user_id, clientId: input.client.id, scopes: row.scopes, nonce: row.nonce, source: row, now })
    : undefined;
  return response(pair, row.scopes, idToken);
}

/**
 * The reason an exchange failed, in the order a client needs to hear it. A replay changes nothing (the
 * spec's state table: a consumed code stays consumed, its tokens stay valid), so a callback reloaded
 * in the browser does not sign the person out.
 */
async function whyCodeFailed(input: { codeHash: string; clientId: string; redirectUri: string; challenge: string; now: Date }) {
  const prisma = await db();
  const code = await prisma.oAuthCode.findUnique({ where: { hash: input.codeHash } });
  if (!code) return invalidGrant(OAUTH_MESSAGES.codeInvalid);
  if (code.clientId !== input.clientId) return invalidGrant(OAUTH_MESSAGES.codeOtherClient);
  if (code.consumedAt) return invalidGrant(OAUTH_MESSAGES.codeUsed);
  if (code.expiresAt <= input.now) return invalidGrant(OAUTH_MESSAGES.codeExpired);
  if (code.redirectUri !== input.redirectUri) return invalidGrant(OAUTH_MESSAGES.redirectUriDiffers);
  if (code.codeChallenge !== input.challenge) return invalidGrant(OAUTH_MESSAGES.pkceFailed);
  // It matched but was consumed between the two reads: another request used it first.
  return invalidGrant(OAUTH_MESSAGES.codeUsed);
}

// ─── Refresh ────────────────────────────────────────────────────────────────────────────────────

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

// A retry of the token just superseded, within its window: its unused successor is replaced (and
// that successor's access token revoked), so the chain still has one current token.
const RETRY_SQL = `
WITH replaced AS (
  UPDATE oauth_refresh_tokens c SET state = 'replaced'
   WHERE c.parent_hash = $1 AND c.state = 'current'
  RETURNING c.hash, c.grant_id
), revoked AS (
  UPDATE oauth_access_tokens a SET revoked_at = $2 FROM replaced WHERE a.refresh_hash = replaced.hash AND a.revoked_at IS NULL
), refresh AS (
  INSERT INTO oauth_refresh_tokens (hash, grant_id, parent_hash, state, created_at, expires_at)
  SELECT $3, grant_id, $1, 'current', $2, $5 FROM replaced
), access AS (
  INSERT INTO oauth_access_tokens (hash, grant_id, refresh_hash, created_at, expires_at)
  SELECT $4, grant_id, $3, $2, $6 FROM replaced
)
SELECT grant_id FROM replaced`;

/** grant_type=refresh_token: rotates the token; a late reuse revokes the chain. */
export async function refreshGrant(input: { client: OidcClient; refreshToken: string | null }): Promise<TokenResponse> {
  if (!input.refreshToken) throw invalidRequest(parameterRequired("refresh_token"));
  if (!input.refreshToken.startsWith(PREFIX.refreshToken)) throw invalidGrant(OAUTH_MESSAGES.refreshInvalid);
  const hash = hashToken(input.refreshToken);
  const now = clockNow();
  const pair = newPair();
  const params = [hash, input.client.id, now, pair.refreshHash, pair.accessHash, addSeconds(now, REFRESH_TOKEN_IDLE_SECONDS), addSeconds(now, ACCESS_TOKEN_TTL_SECONDS)];
  const [row] = await (await database()).sql.query<{ grant_id: string; scopes: string[] }>(ROTATE_SQL, params, { name: "oauth_rotate" });
  if (row) return response(pair, row.scopes);
  return refreshSlowPath({ hash, client: input.client, now, pair });
}

async function refreshSlowPath(input: { hash: string; client: OidcClient; now: Date; pair: ReturnType<typeof newPair> }): Promise<TokenResponse> {
  const { hash, client, now, pair } = input;
  const outcome = await (await db()).$transaction(async (tx) => {
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
      const retried = await tx.$queryRawUnsafe<Array<{ grant_id: string }>>(
        RETRY_SQL,
        hash,
        now,
        pair.refreshHash,
        pair.accessHash,
        addSeconds(now, REFRESH_TOKEN_IDLE_SECONDS),
        addSeconds(now, ACCESS_TOKEN_TTL_SECONDS),
      );
      // Accepted only while its successor is still unused: once that one has been used, this is reuse.
      if (retried.length) return { scopes: grant.scopes };
    }
    await revokeChain(tx, found.grant_id, "reuse", now);
    return { error: OAUTH_MESSAGES.refreshReuse };
  });
  if ("error" in outcome) throw invalidGrant(outcome.error!);
  return response(pair, outcome.scopes);
}

// ─── Revocation ─────────────────────────────────────────────────────────────────────────────────

async function revokeChain(tx: Prisma.TransactionClient, grantId: string, reason: string, now: Date): Promise<void> {
  await tx.$executeRaw`UPDATE oauth_grants SET revoked_at = ${now}, revoked_reason = ${reason} WHERE id = ${grantId}::uuid AND revoked_at IS NULL`;
  await tx.$executeRaw`UPDATE oauth_refresh_tokens SET state = 'revoked' WHERE grant_id = ${grantId}::uuid AND state <> 'revoked'`;
  await tx.$executeRaw`UPDATE oauth_access_tokens SET revoked_at = ${now} WHERE grant_id = ${grantId}::uuid AND revoked_at IS NULL`;
}

/**
 * POST /oauth/revoke: a refresh token revokes its whole chain, an access token itself. With
 * `clientId`, only a token issued to that client is revoked. Unknown, expired and already revoked
 * tokens are no error (RFC 7009 § 2.2).
 */
export async function revokeToken(token: string, clientId?: string): Promise<void> {
  if (!token) return;
  const hash = hashToken(token);
  const now = clockNow();
  const prisma = await db();
  if (token.startsWith(PREFIX.refreshToken)) {
    await prisma.$transaction(async (tx) => {
      const [found] = await tx.$queryRaw<Array<{ grant_id: string; client_id: string }>>`
        SELECT t.grant_id, g.client_id FROM oauth_refresh_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.hash = ${hash}`;
      if (!found || (clientId && found.client_id !== clientId)) return;
      await tx.$queryRaw`SELECT id FROM oauth_grants WHERE id = ${found.grant_id}::uuid FOR UPDATE`;
      await revokeChain(tx, found.grant_id, "revoked", now);
    });
  } else if (token.startsWith(PREFIX.accessToken)) {
    await prisma.$executeRaw`
      UPDATE oauth_access_tokens a SET revoked_at = ${now} FROM oauth_grants g
       WHERE a.hash = ${hash} AND a.revoked_at IS NULL AND g.id = a.grant_id AND (${clientId ?? null}::text IS NULL OR g.client_id = ${clientId ?? null})`;
  }
}

