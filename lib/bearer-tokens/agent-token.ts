// Agent tokens: a JWT naming one user, one agent, one developer and one key plane, valid 24 hours.
import { createHmac } from "node:crypto";
import { SignJWT } from "jose";
import { deriveKey, safeEqual } from "../platform/crypto";
import type { Plane } from "../platform/db/generated/enums";
import { now as clockNow } from "../platform/clock";
import { env } from "../env";

export const AGENT_TOKEN_TTL_SECONDS = 24 * 60 * 60;
export const AGENT_TOKEN_USE = "agent";
const AUDIENCE = "agent";
const ALG = "HS256";

export interface AgentTokenClaims {
  userId: string;
  developerId: string;
  agentId: string;
  agent: string;
  plane: Plane;
}

export async function issueAgentToken(claims: AgentTokenClaims, now = clockNow()) {
  const iat = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({
    token_use: AGENT_TOKEN_USE,
    dev: claims.developerId,
    aid: claims.agentId,
    agent: claims.agent,
    pln: claims.plane,
  })
    .setProtectedHeader({ alg: ALG, typ: "JWT" })
    .setIssuer(env().BASE_URL)
    .setAudience(AUDIENCE)
    .setSubject(claims.userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + AGENT_TOKEN_TTL_SECONDS)
    .sign(deriveKey("agent-token"));
  return { token, expiresAt: new Date((iat + AGENT_TOKEN_TTL_SECONDS) * 1000) };
}

/**
 * The claims of a valid, unexpired agent token, or null. Never throws for a bad token.
 *
 * Verified with Node's own HMAC rather than the JWT library: validation sits on the hot path of every
 * agent call (POST /v1/auth/sign-in/validate, profile routes), and the library imports the key anew on
 * each call (docs/performance.md). The checks are the same: the header names HS256 (nothing else, never
 * "none"), the signature matches in constant time, and issuer, audience, expiry and token use hold.
 */
export async function verifyAgentToken(token: string): Promise<AgentTokenClaims | null> {
  const parts = token.split(".");
  if (parts.length !== 3 || token.length > MAX_TOKEN_LENGTH) return null;
  const [header, body, signature] = parts as [string, string, string];
  const expected = createHmac("sha256", deriveKey("agent-token")).update(`${header}.${body}`).digest("base64url");
  if (!safeEqual(signature, expected)) return null;
  const head = decodeJson(header);
  if (!head || head.alg !== ALG || (head.typ !== undefined && head.typ !== "JWT") || head.crit !== undefined) return null;
  const payload = decodeJson(body);
  if (!payload || payload.iss !== env().BASE_URL) return null;
  const aud = payload.aud;
  if (!(aud === AUDIENCE || (Array.isArray(aud) && aud.includes(AUDIENCE)))) return null;
  const nowSeconds = Math.floor(clockNow().getTime() / 1000);
  if (typeof payload.exp !== "number" || payload.exp <= nowSeconds) return null;
  if (typeof payload.nbf === "number" && payload.nbf > nowSeconds) return null;
  if (payload.token_use !== AGENT_TOKEN_USE || typeof payload.sub !== "string") return null;
  const { dev, aid, agent, pln } = payload;
  if (typeof dev !== "string" || typeof aid !== "string" || typeof agent !== "string") return null;
  if (pln !== "live" && pln !== "test") return null;
  return { userId: payload.sub, developerId: dev, agentId: aid, agent, plane: pln };
}

/** The longest token read: anything longer is no agent token of the service's. */
const MAX_TOKEN_LENGTH = 4_096;

/** A base64url JSON object, or null. Shared with the MCP session token (mcp-session.ts). */
export function decodeJson(segment: string): Record<string, unknown> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
