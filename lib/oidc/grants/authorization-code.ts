// grant_type=authorization_code (RFC 6749 § 4.1.3, PKCE S256 always). The code is consumed only when
// everything matches, and the same statement starts the grant and writes its first tokens, so of two
// concurrent exchanges exactly one wins. A refused exchange says why, in the order a client needs it.
import { randomUUID } from "node:crypto";
import { hashToken } from "../../bearer-tokens/access-token";
import { now as clockNow } from "../../platform/clock";
import { s256 } from "../../platform/crypto";
import { database, db } from "../../platform/db";
import { PROFILE_TOOL_SCOPES } from "../../profile/scopes";
import { CLAIM_COLUMNS, signIdToken, type ClaimSource } from "../claims";
import type { OidcClient } from "../client-auth";
import { invalidGrant, invalidRequest, OAUTH_MESSAGES, parameterRequired } from "../errors";
import { ACCESS_TOKEN_TTL_SECONDS, addSeconds, newPair, REFRESH_TOKEN_IDLE_SECONDS, response, type TokenResponse } from "../tokens";
import type { Grant } from "./types";

/** RFC 7636 § 4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

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

/** Exchanges a code for tokens (and an ID token when openid was granted). */
async function exchangeCode(input: { client: OidcClient; code: string; redirectUri: string | null; codeVerifier: string | null }): Promise<TokenResponse> {
  if (!input.code) throw invalidRequest(parameterRequired("code"));
  if (!input.redirectUri) throw invalidRequest(parameterRequired("redirect_uri"));
  if (!input.codeVerifier) throw invalidRequest(parameterRequired("code_verifier"));
  const codeHash = hashToken(input.code);
  const challenge = VERIFIER.test(input.codeVerifier) ? s256(input.codeVerifier) : "";
  const now = clockNow();
  const pair = newPair();
  const rows = await (
    await database()
  ).sql.query<ExchangeRow>(
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
  return response(pair, row.scopes, input.client, idToken);
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

export const authorizationCodeGrant: Grant = {
  type: "authorization_code",
  parameters: ["code", "redirect_uri", "code_verifier"],
  handle: ({ client, form }) => exchangeCode({ client, code: form.get("code") ?? "", redirectUri: form.get("redirect_uri"), codeVerifier: form.get("code_verifier") }),
};
