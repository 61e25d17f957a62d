// GET /v1/me: the person a user-scoped token names, for the developer's server that holds it. It takes
// only the OpenID Connect access token the provider issued to the person for this developer's client
// (mcp_at_…), with the developer's secret key and the agent the client acts for; agent tokens (validated
// with POST /v1/auth/sign-in/validate instead), MCP session tokens and X-User-Id never answer here.
import type { ResolvedKey } from "../api-keys/api-keys";
import { verifyAccessToken } from "../bearer-tokens/access-token";
import { verifyAgentToken } from "../bearer-tokens/agent-token";
import { database } from "../platform/db";
import type { ResolvedAgent } from "../http/caller";
import { bearerToken } from "../http/request";
import { ApiError, MESSAGES } from "../http/errors";
import { PREFIX } from "../platform/ids";
import { isApproved } from "../users/approvals";
import { CLAIM_COLUMNS, scopedClaims, type ClaimSource } from "./claims";

export const ME_MESSAGES = {
  accessTokenRequired: "GET /v1/me takes the person's own OpenID Connect access token (mcp_at_…) as Authorization: Bearer; an API key alone or X-User-Id is not accepted.",
  agentTokenNotAllowed: "GET /v1/me takes only the person's own OpenID Connect access token (mcp_at_…); validate an agent token with POST /v1/auth/sign-in/validate.",
} as const;

/**
 * The token's person and what the token is: sub (the same as the ID token's), the client, the agent,
 * the scopes and expiry, and the claims the token's OpenID Connect scopes allow, read now as an ID token
 * issued now would carry them. Refused (nothing read) unless the token is current and of this
 * developer, key plane and agent, and the person still approves the agent.
 */
export async function describeUserToken(input: { req: Request; key: ResolvedKey; agent: ResolvedAgent }) {
  if (input.req.headers.has("x-user-id")) throw new ApiError("user_token_required", ME_MESSAGES.accessTokenRequired);
  const token = bearerToken(input.req);
  if (!token) throw new ApiError("user_token_required", ME_MESSAGES.accessTokenRequired);
  if (!token.startsWith(PREFIX.accessToken)) {
    if (token.length <= 4096 && (await verifyAgentToken(token))) throw new ApiError("agent_token_not_allowed", ME_MESSAGES.agentTokenNotAllowed);
    throw new ApiError("invalid_access_token", MESSAGES.invalidAccessToken);
  }
  const grant = await verifyAccessToken(token);
  if (!grant || grant.developerId !== input.key.developerId || grant.plane !== input.key.plane || grant.agentId !== input.agent.id) {
    throw new ApiError("invalid_access_token", MESSAGES.invalidAccessToken);
  }
  if (!(await isApproved({ userId: grant.userId, agentId: grant.agentId }))) throw new ApiError("agent_not_approved", MESSAGES.agentNotApproved);
  const [source] = await (
    await database()
  ).sql.query<ClaimSource & Record<string, unknown>>(`SELECT ${CLAIM_COLUMNS} FROM users u WHERE u.id = $1`, [grant.userId], {
    name: "me_claims",
  });
  // A person deleted since the token was read: the token named no one.
  if (!source) throw new ApiError("invalid_access_token", MESSAGES.invalidAccessToken);
  return {
    sub: grant.userId,
    token_use: "user" as const,
    client_id: grant.clientId,
    agent: input.agent.handle,
    scope: grant.scopes.join(" "),
    expires_at: grant.expiresAt.toISOString(),
    ...scopedClaims(source, grant.scopes),
  };
}
