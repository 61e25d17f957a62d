// What every grant shares: the lifetimes, a new access and refresh token pair and the answer that
// carries it, codes as authorize issues them, and the end of a chain. Every credential is stored only
// as a keyed hash. The grants themselves are in ./grants (one file each), revocation in ./revocation.ts.
import { derivedBase62, randomBase62, s256 } from "../platform/crypto";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import type { Plane } from "../platform/db/generated/enums";
import { env } from "../env";
import { PREFIX } from "../platform/ids";
import { now as clockNow } from "../platform/clock";
import { hashToken } from "../bearer-tokens/access-token";
import { isMcpClientKind, type ClientKind } from "./client-kinds";

export const AUTHORIZATION_CODE_TTL_SECONDS = 5 * 60;
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
/** A refresh token not used for this long ends its chain. */
export const REFRESH_TOKEN_IDLE_SECONDS = 90 * 24 * 60 * 60;
/** A refresh token may be presented again this long after its first use (a lost response). */
export const REFRESH_RETRY_WINDOW_SECONDS = 60;
const SECRET_LENGTH = 43;

export { s256 };

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
  resource: string;
  id_token?: string;
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

export function newPair() {
  return pairOf(randomBase62(2 * SECRET_LENGTH));
}

/**
 * The one pair a refresh token rotates to, derived from that token under SERVICE_SECRET: every instance
 * that sees the token computes the same pair, so two racing refreshes of one token (two tabs, a retried
 * request) both answer it and both can go on with it (lib/oidc/grants/refresh-token.ts).
 */
export function successorPair(refreshToken: string) {
  return pairOf(derivedBase62("oauth-refresh-successor", refreshToken, 2 * SECRET_LENGTH));
}

function pairOf(secret: string) {
  const accessToken = PREFIX.accessToken + secret.slice(0, SECRET_LENGTH);
  const refreshToken = PREFIX.refreshToken + secret.slice(SECRET_LENGTH);
  return { accessToken, refreshToken, accessHash: hashToken(accessToken), refreshHash: hashToken(refreshToken) };
}

/**
 * Where a client's access tokens work (RFC 8707): an MCP client's at the personal endpoint ({MCP_URL});
 * a developer's oc_ client's at the API ({BASE_URL}: the /v1 profile routes and the developer MCP server
 * at /mcp), always with the developer's secret key and X-Agent beside them. The personal endpoint takes
 * no key, so it refuses a developer's tokens: a token held without the key opens nothing.
 */
export function tokenResource(client: { kind: ClientKind }): string {
  return isMcpClientKind(client.kind) ? env().MCP_URL : env().BASE_URL;
}

export function response(
  pair: ReturnType<typeof newPair>,
  scopes: readonly string[],
  client: { kind: ClientKind },
  idToken?: string,
  expiresIn: number = ACCESS_TOKEN_TTL_SECONDS,
): TokenResponse {
  return {
    access_token: pair.accessToken,
    token_type: "Bearer",
    expires_in: expiresIn,
    refresh_token: pair.refreshToken,
    scope: scopes.join(" "),
    resource: tokenResource(client),
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

// ─── Chains ─────────────────────────────────────────────────────────────────────────────────────

/** Ends a grant's chain: the grant, every refresh token and every access token of it. */
export async function revokeChain(tx: Prisma.TransactionClient, grantId: string, reason: string, now: Date): Promise<void> {
  await tx.$executeRaw`UPDATE oauth_grants SET revoked_at = ${now}, revoked_reason = ${reason} WHERE id = ${grantId}::uuid AND revoked_at IS NULL`;
  await tx.$executeRaw`UPDATE oauth_refresh_tokens SET state = 'revoked' WHERE grant_id = ${grantId}::uuid AND state <> 'revoked'`;
  await tx.$executeRaw`UPDATE oauth_access_tokens SET revoked_at = ${now} WHERE grant_id = ${grantId}::uuid AND revoked_at IS NULL`;
}
