// MCP session tokens: a JWT for one conversation on the developer MCP server, valid 15 minutes, never
// stored. It names the developer, plane, agent and minting key, so it is a credential on its own.
import { createHmac } from "node:crypto";
import { SignJWT } from "jose";
import { findMcpSessionKey } from "../api-keys/api-keys";
import { deriveKey, safeEqual } from "../platform/crypto";
import type { Plane } from "../platform/db/generated/enums";
import { now as clockNow } from "../platform/clock";
import { env } from "../env";
import { ApiError } from "../http/errors";
import { decodeJson } from "./agent-token";

export const MCP_SESSION_TTL_SECONDS = 15 * 60;
export const MCP_SESSION_TOKEN_USE = "mcp_session";
/** What the 401 of an expired session tells the caller to do: mint a new session. */
export const MCP_SESSION_SUGGESTED_ACTION = "reauthenticate";
export const MCP_SESSION_MESSAGES = {
  expired: "The MCP session has expired. Mint a new one with POST /v1/profile/mcp-session.",
  invalid: "The MCP session token is invalid, or the key that minted it was rotated or revoked.",
  rotatedKey:
    "This key has been rotated: it mints no MCP sessions, and the sessions it minted have ended. Mint with its replacement; the key keeps working on the other routes until its overlap ends.",
} as const;

const AUDIENCE = "mcp-session";
const KEY_PURPOSE = "mcp-session-token";
const ALG = "HS256";
const MAX_TOKEN_LENGTH = 4_096;

export interface McpSessionClaims {
  /** The read/commit correlation: kept when a session is continued. */
  sessionId: string;
  developerId: string;
  agentId: string;
  agent: string;
  plane: Plane;
  /** The API key that minted the session: revoking or rotating it ends the session (findMcpSessionKey). */
  keyId: string;
  /** The approved user the session acts for; absent when the session is not linked. */
  userId?: string;
  /** The developer's own user id the session was minted for (X-User-Id), linked or not. */
  externalId?: string;
}

export async function issueMcpSession(claims: McpSessionClaims, now = clockNow()) {
  const iat = Math.floor(now.getTime() / 1000);
  const jwt = new SignJWT({
    token_use: MCP_SESSION_TOKEN_USE,
    sid: claims.sessionId,
    dev: claims.developerId,
    aid: claims.agentId,
    agent: claims.agent,
    pln: claims.plane,
    key: claims.keyId,
    ...(claims.externalId !== undefined ? { ext: claims.externalId } : {}),
  })
    .setProtectedHeader({ alg: ALG, typ: "JWT" })
    .setIssuer(env().BASE_URL)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + MCP_SESSION_TTL_SECONDS);
  if (claims.userId !== undefined) jwt.setSubject(claims.userId);
  const token = await jwt.sign(deriveKey(KEY_PURPOSE));
  return { token, expiresAt: new Date((iat + MCP_SESSION_TTL_SECONDS) * 1000) };
}

export type McpSessionRead = { state: "valid"; claims: McpSessionClaims } | { state: "expired" } | { state: "invalid" };

/**
 * What a presented MCP session token is: valid (its claims), expired (a 401 asking to reauthenticate),
 * or invalid (not ours, altered, or minted by a key since revoked or rotated). Never throws for a bad token.
 *
 * Verified with Node's own HMAC, like the agent token (agent-token.ts) and with the same checks: the
 * header names HS256 only, the signature matches in constant time, issuer, audience and token use hold.
 */
export async function readMcpSession(token: string): Promise<McpSessionRead> {
  const parts = token.split(".");
  if (parts.length !== 3 || token.length > MAX_TOKEN_LENGTH) return { state: "invalid" };
  const [header, body, signature] = parts as [string, string, string];
  const expected = createHmac("sha256", deriveKey(KEY_PURPOSE)).update(`${header}.${body}`).digest("base64url");
  if (!safeEqual(signature, expected)) return { state: "invalid" };
  const head = decodeJson(header);
  if (!head || head.alg !== ALG || (head.typ !== undefined && head.typ !== "JWT") || head.crit !== undefined) return { state: "invalid" };
  const payload = decodeJson(body);
  const claims = payload ? claimsOf(payload) : null;
  if (!payload || !claims) return { state: "invalid" };
  const nowSeconds = Math.floor(clockNow().getTime() / 1000);
  if (typeof payload.nbf === "number" && payload.nbf > nowSeconds) return { state: "invalid" };
  if ((payload.exp as number) <= nowSeconds) return { state: "expired" };
  const key = await findMcpSessionKey(claims.keyId);
  if (!key || key.kind !== "secret" || key.developerId !== claims.developerId || key.plane !== claims.plane) return { state: "invalid" };
  return { state: "valid", claims };
}

/**
 * Whether a token presents itself as an MCP session (its unverified token_use): on the developer MCP
 * server, a Bearer credential that does is read as one even without X-API-Key. Says nothing of validity.
 */
export function presentsAsMcpSession(token: string): boolean {
  const parts = token.split(".");
  if (parts.length !== 3 || token.length > MAX_TOKEN_LENGTH) return false;
  return decodeJson(parts[1]!)?.token_use === MCP_SESSION_TOKEN_USE;
}

/** The claims of a signed payload that is one of ours, or null. */
function claimsOf(payload: Record<string, unknown>): McpSessionClaims | null {
  if (payload.iss !== env().BASE_URL || payload.token_use !== MCP_SESSION_TOKEN_USE || typeof payload.exp !== "number") return null;
  const aud = payload.aud;
  if (!(aud === AUDIENCE || (Array.isArray(aud) && aud.includes(AUDIENCE)))) return null;
  const { sid, dev, aid, agent, pln, key, sub, ext } = payload;
  if (typeof sid !== "string" || typeof dev !== "string" || typeof aid !== "string" || typeof agent !== "string" || typeof key !== "string") return null;
  if (pln !== "live" && pln !== "test") return null;
  if ((sub !== undefined && typeof sub !== "string") || (ext !== undefined && typeof ext !== "string")) return null;
  return { sessionId: sid, developerId: dev, agentId: aid, agent, plane: pln, keyId: key, userId: sub, externalId: ext };
}

/** The error an MCP call with an expired session answers: 401 with suggested_action "reauthenticate". */
export function mcpSessionExpiredError(): ApiError {
  return new ApiError("mcp_session_expired", MCP_SESSION_MESSAGES.expired, { suggested_action: MCP_SESSION_SUGGESTED_ACTION });
}
