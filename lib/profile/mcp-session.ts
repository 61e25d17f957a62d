// Minting MCP sessions (POST /v1/profile/mcp-session): a 15-minute token for one conversation on the
// developer MCP server, for the user named if they approved the agent, continued from a previous one.
import { findMcpSessionKey, type ResolvedKey } from "../api-keys/api-keys";
import { issueMcpSession, MCP_SESSION_MESSAGES, readMcpSession, type McpSessionClaims } from "../bearer-tokens/mcp-session";
import { randomBase62 } from "../platform/crypto";
import { env } from "../env";
import type { ResolvedAgent } from "../http/caller";
import { ApiError } from "../http/errors";
import { findExternalUser } from "../users/approvals";

/** The name the developer MCP server goes by in mcp_servers. */
export const MCP_SERVER_NAME = "profile-service";
/** The longest X-User-Id a session carries (it travels inside the token). */
export const MCP_SESSION_EXTERNAL_ID_MAX_CHARS = 256;
export const MCP_SESSION_MINT_MESSAGES = {
  previousTokenMismatch: "previous_token is a valid MCP session of another user, agent, developer account or key plane.",
  externalIdTooLong: `X-User-Id is longer than ${MCP_SESSION_EXTERNAL_ID_MAX_CHARS} characters.`,
} as const;

/** The developer MCP server's address: {BASE_URL}/mcp. */
export function developerMcpUrl(): string {
  return `${env().BASE_URL.replace(/\/+$/, "")}/mcp`;
}

/**
 * A fresh 15-minute session (rule 1: never an extension). A valid previous token of the same user,
 * agent, developer and plane passes on its sid (rule 2); an expired or unreadable one is ignored
 * (rule 3); a valid one of anyone else is a 400 (rules 4, 5). A user who is unknown or has not approved
 * the agent still gets a session, unlinked (rules 6, 8). A rotated key, which still works elsewhere
 * during its overlap, mints none: rotating a key stops its MCP sessions. Nothing is written.
 */
export async function mintMcpSession(input: { key: ResolvedKey; agent: ResolvedAgent; externalId?: string; previousToken?: string }) {
  const { key, agent } = input;
  if (!(await findMcpSessionKey(key.id))) throw new ApiError("invalid_api_key", MCP_SESSION_MESSAGES.rotatedKey);
  const externalId = input.externalId?.trim() || undefined;
  if (externalId && externalId.length > MCP_SESSION_EXTERNAL_ID_MAX_CHARS) {
    throw new ApiError("invalid_request", MCP_SESSION_MINT_MESSAGES.externalIdTooLong, { fields: [{ field: "X-User-Id", message: "too long" }] });
  }
  const link = externalId ? await findExternalUser({ developerId: key.developerId, plane: key.plane, externalId, agentId: agent.id }) : null;
  const userId = link?.approved ? link.userId : undefined;
  const claims: McpSessionClaims = {
    sessionId: randomBase62(24),
    developerId: key.developerId,
    agentId: agent.id,
    agent: agent.handle,
    plane: key.plane,
    keyId: key.id,
    userId,
    externalId,
  };

  const previous = input.previousToken ? await readMcpSession(input.previousToken) : null;
  const continued = previous?.state === "valid";
  if (previous?.state === "valid") {
    if (!sameParties(previous.claims, claims)) throw new ApiError("previous_token_mismatch", MCP_SESSION_MINT_MESSAGES.previousTokenMismatch);
    claims.sessionId = previous.claims.sessionId;
  }

  const { token, expiresAt } = await issueMcpSession(claims);
  const mcpUrl = developerMcpUrl();
  return {
    ok: true as const,
    linked: userId !== undefined,
    continued,
    session: { token, expires_at: expiresAt.toISOString() },
    mcp_url: mcpUrl,
    mcp_servers: [{ type: "url" as const, url: mcpUrl, name: MCP_SERVER_NAME, authorization_token: token }],
  };
}

/**
 * Whether a previous session was for the same developer, plane, agent and user. The user is the one
 * named (X-User-Id), so a session minted before the user approved the agent continues once they have;
 * an id the developer has since bound to another person is another user.
 */
function sameParties(previous: McpSessionClaims, next: McpSessionClaims): boolean {
  if (previous.developerId !== next.developerId || previous.plane !== next.plane || previous.agentId !== next.agentId) return false;
  if (previous.externalId !== next.externalId) return false;
  return previous.userId === undefined || next.userId === undefined || previous.userId === next.userId;
}
