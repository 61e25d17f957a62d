// Agent tokens: a JWT naming one user, one agent, one developer and one key plane, valid 24 hours.
import { jwtVerify, SignJWT, errors as joseErrors } from "jose";
import { deriveKey } from "../crypto";
import type { Plane } from "../db/generated/enums";
import { now as clockNow } from "../clock";
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

/** The claims of a valid, unexpired agent token, or null. Never throws for a bad token. */
export async function verifyAgentToken(token: string): Promise<AgentTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, deriveKey("agent-token"), {
      // The service's clock (injectable in tests), as everywhere a lifetime is checked.
      currentDate: clockNow(),
      algorithms: [ALG],
      issuer: env().BASE_URL,
      audience: AUDIENCE,
    });
    if (payload.token_use !== AGENT_TOKEN_USE || typeof payload.sub !== "string") return null;
    const { dev, aid, agent, pln } = payload as Record<string, unknown>;
    if (typeof dev !== "string" || typeof aid !== "string" || typeof agent !== "string") return null;
    if (pln !== "live" && pln !== "test") return null;
    return { userId: payload.sub, developerId: dev, agentId: aid, agent, plane: pln };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) return null;
    throw err;
  }
}
