// Who calls the developer MCP server: the secret key and agent, and the person the request names
// (an MCP session, an agent token, an OpenID Connect access token, or X-User-Id), resolved per request.
// An MCP session alone is enough: it names the developer, plane, agent, minting key and person.
import { findMcpSessionKey, type ResolvedKey } from "../api-keys/api-keys";
import { MCP_SESSION_MESSAGES, mcpSessionExpiredError, presentsAsMcpSession, readMcpSession, type McpSessionClaims } from "../bearer-tokens/mcp-session";
import { activeAgent, authenticateKey, resolveAgent, resolveUserToken, type ResolvedAgent } from "../credentials/credentials";
import { bearerToken } from "../http/request";
import { ApiError, MESSAGES } from "../http/errors";
import { findExternalUser, isApproved } from "../users/approvals";

/**
 * The person a request names, approved or not:
 * - "user": a user the service knows, by a linked MCP session or a Bearer token (scopes: an access token's);
 * - "external": the developer's own user id (X-User-Id, or the id an unlinked MCP session was minted for).
 */
export type NamedPerson =
  { kind: "user"; userId: string; scopes?: readonly string[]; sessionId?: string } | { kind: "external"; externalId: string; fromSession: boolean; sessionId?: string };

export interface McpCaller {
  key: ResolvedKey;
  agent: ResolvedAgent;
  person: NamedPerson | null;
}

/**
 * Authenticates one MCP request before any MCP handling: a secret key, the agent, and the person; or,
 * without X-API-Key, an MCP session as the whole credential (sessionCaller). Throws ApiError (401 bad
 * key or token, 400/404/409 agent), answered in the /v1 error shape.
 */
/** What the caller's checks read of a request: its headers. */
type RequestHeaders = { readonly headers: Pick<Headers, "get"> };

export async function authenticateMcpCaller(req: RequestHeaders): Promise<McpCaller> {
  if (!req.headers.get("x-api-key")?.trim()) {
    const caller = await sessionCaller(req);
    if (caller) return caller;
  }
  const key = await authenticateKey(req, "secret");
  const agent = await resolveAgent(req, key);
  return { key, agent, person: await namedPerson(req, { key, agent }) };
}

/**
 * A request without X-API-Key whose Bearer token presents itself as an MCP session: the way an LLM
 * API's remote-MCP parameter connects (mcp_servers' authorization_token, sent as the only header).
 * Checked on every request as the keyed way checks it: the token's signature and expiry, the minting
 * key still active and never rotated (findMcpSessionKey, ≤ 1 s cache), and the agent still active. An
 * X-Agent sent beside it must name the session's agent. Null for any other request (it then needs the key).
 */
async function sessionCaller(req: RequestHeaders): Promise<McpCaller | null> {
  const header = req.headers.get("authorization")?.trim() ?? "";
  const token = /^Bearer\s/i.test(header) ? bearerToken(req) : undefined;
  if (!token || !presentsAsMcpSession(token)) return null;
  const session = await readMcpSession(token);
  if (session.state === "expired") throw mcpSessionExpiredError();
  const key = session.state === "valid" ? await findMcpSessionKey(session.claims.keyId) : null;
  if (session.state !== "valid" || !key) throw new ApiError("invalid_access_token", MCP_SESSION_MESSAGES.invalid);
  const { claims } = session;
  const agent = await activeAgent(key.developerId, claims.agent);
  const named = req.headers.get("x-agent")?.trim();
  if (agent.id !== claims.agentId || (named && named !== claims.agent)) throw new ApiError("invalid_access_token", MCP_SESSION_MESSAGES.invalid);
  return { key, agent, person: sessionPerson(claims) };
}

/** The person an MCP session names: its user when linked, else the developer's own id it was minted for. */
function sessionPerson(claims: McpSessionClaims): NamedPerson | null {
  // sessionId: the session's sid, the conversation its calls are recorded under (lib/http/turns.ts).
  if (claims.userId) return { kind: "user", userId: claims.userId, sessionId: claims.sessionId };
  return claims.externalId ? { kind: "external", externalId: claims.externalId, fromSession: true, sessionId: claims.sessionId } : null;
}

async function namedPerson(req: RequestHeaders, ctx: { key: ResolvedKey; agent: ResolvedAgent }): Promise<NamedPerson | null> {
  const token = bearerToken(req);
  if (token) {
    const session = await readMcpSession(token);
    if (session.state === "expired") throw mcpSessionExpiredError();
    if (session.state === "valid") {
      const { claims } = session;
      // A session is bound to the developer, plane and agent it was minted for, whichever of the developer's keys calls.
      if (claims.developerId !== ctx.key.developerId || claims.plane !== ctx.key.plane || claims.agentId !== ctx.agent.id) {
        throw new ApiError("invalid_access_token", MESSAGES.invalidAccessToken);
      }
      return sessionPerson(claims);
    }
    // Not an MCP session: an agent token or an access token of this developer, plane and agent (401 otherwise).
    const user = await resolveUserToken(req, ctx);
    return user ? { kind: "user", userId: user.id, scopes: user.scopes } : null;
  }
  const externalId = req.headers.get("x-user-id")?.trim();
  return externalId ? { kind: "external", externalId, fromSession: false } : null;
}

/**
 * The user the personal tools act for: the person named, if they have approved the agent now
 * (checked on every call, so a revoked approval takes effect on the next one). An unlinked MCP
 * session has no user, even if the person has approved the agent since it was minted.
 */
export async function approvedUser(caller: McpCaller): Promise<string | null> {
  const { person, key, agent } = caller;
  if (!person) return null;
  if (person.kind === "user") return (await isApproved({ userId: person.userId, agentId: agent.id })) ? person.userId : null;
  if (person.fromSession) return null;
  const link = await findExternalUser({ developerId: key.developerId, plane: key.plane, externalId: person.externalId, agentId: agent.id });
  return link?.approved ? link.userId : null;
}
