// Who a request comes from, each step small: the API key, the agent, the person. The route steps
// (lib/api-edge/route-steps.ts) and the MCP servers resolve their callers with these.
import { findAgent } from "../agents/agents";
import { resolveApiKey } from "../api-keys/api-keys";
import { verifyAccessToken } from "../bearer-tokens/access-token";
import { verifyAgentToken } from "../bearer-tokens/agent-token";
import type { CallerKey, KeyRequirement, ResolvedAgent, ResolvedUser } from "../http/caller";
import { ApiError, MESSAGES } from "../http/errors";
import { bearerToken } from "../http/request";
import { PREFIX } from "../platform/ids";
import { findExternalUser, isApproved } from "../users/approvals";

export type { KeyRequirement, ResolvedAgent, ResolvedUser } from "../http/caller";

/** What these checks read of a request: its headers (a web Request, or the fast path's ApiRequest). */
type RequestHeaders = { readonly headers: Pick<Headers, "get"> };
/** The X-API-Key header → an active key of the required kind. 401 otherwise. */
export async function authenticateKey(req: RequestHeaders, required: KeyRequirement): Promise<CallerKey> {
  const raw = req.headers.get("x-api-key")?.trim();
  if (!raw) throw new ApiError("api_key_required", MESSAGES.apiKeyRequired);
  const key = await resolveApiKey(raw);
  if (!key) throw new ApiError("invalid_api_key", MESSAGES.invalidApiKey);
  if (required === "secret" && key.kind !== "secret") throw new ApiError("secret_key_required", MESSAGES.secretKeyRequired);
  return key;
}

/** X-Agent → an active agent of the key's developer. */
export async function resolveAgent(req: RequestHeaders, key: CallerKey): Promise<ResolvedAgent> {
  const handle = req.headers.get("x-agent")?.trim();
  if (!handle) throw new ApiError("agent_required", MESSAGES.agentRequired);
  return activeAgent(key.developerId, handle);
}

/** An active agent of the developer by handle (404 unknown, 409 inactive): X-Agent's, or the one an MCP session names. */
export async function activeAgent(developerId: string, handle: string): Promise<ResolvedAgent> {
  const agent = await findAgent(developerId, handle);
  if (!agent) throw new ApiError("unknown_agent", MESSAGES.unknownAgent, { agent: handle });
  if (!agent.active) throw new ApiError("agent_inactive", MESSAGES.agentInactive, { agent: handle });
  return { id: agent.id, handle: agent.handle, displayName: agent.displayName };
}

/**
 * The person a Bearer token names (an agent token, or an OpenID Connect access token of this
 * developer's client), within the key's developer and plane and for this agent; null without a
 * token. Approval is not checked here. A bad token is a 401.
 */
export async function resolveUserToken(req: RequestHeaders, ctx: { key: CallerKey; agent: ResolvedAgent }): Promise<(ResolvedUser & { scopes?: string[] }) | null> {
  const token = bearerToken(req);
  if (!token) return null;
  if (token.startsWith(PREFIX.accessToken)) {
    const grant = await verifyAccessToken(token);
    if (!grant || grant.developerId !== ctx.key.developerId || grant.plane !== ctx.key.plane || grant.agentId !== ctx.agent.id) {
      throw new ApiError("invalid_access_token", MESSAGES.invalidAccessToken);
    }
    return { id: grant.userId, plane: grant.plane, via: "access_token", scopes: grant.scopes };
  }
  const claims = await verifyAgentToken(token);
  if (!claims || claims.developerId !== ctx.key.developerId || claims.plane !== ctx.key.plane || claims.agentId !== ctx.agent.id) {
    throw new ApiError("invalid_access_token", MESSAGES.invalidAccessToken);
  }
  return { id: claims.userId, plane: claims.plane, via: "bearer" };
}

/**
 * The user, by Bearer token (agent token, or an OpenID Connect access token within its
 * scopes) or X-User-Id, bounded by the key's developer and plane, who must have approved the agent
 * (403 otherwise). Returns null only when not required and absent.
 */
export async function resolveUser(req: RequestHeaders, ctx: { key: CallerKey; agent: ResolvedAgent; required: boolean; scope?: string }): Promise<ResolvedUser | null> {
  const fromToken = await resolveUserToken(req, ctx);
  if (fromToken) {
    if (fromToken.via === "access_token") {
      if (!ctx.scope) throw new ApiError("insufficient_scope", "This route does not accept OpenID Connect access tokens.");
      if (!fromToken.scopes!.includes(ctx.scope)) {
        throw new ApiError("insufficient_scope", `This access token does not carry the scope ${ctx.scope}.`, { scope: ctx.scope });
      }
    }
    if (!(await isApproved({ userId: fromToken.id, agentId: ctx.agent.id }))) throw new ApiError("agent_not_approved", MESSAGES.agentNotApproved);
    return { id: fromToken.id, plane: fromToken.plane, via: fromToken.via };
  }

  const externalId = req.headers.get("x-user-id")?.trim();
  if (!externalId) {
    if (ctx.required) throw new ApiError("user_required", MESSAGES.userRequired);
    return null;
  }
  const link = await findExternalUser({ developerId: ctx.key.developerId, plane: ctx.key.plane, externalId, agentId: ctx.agent.id });
  if (!link) throw new ApiError("unknown_user", MESSAGES.unknownUser);
  if (!link.approved) throw new ApiError("agent_not_approved", MESSAGES.agentNotApproved);
  return { id: link.userId, plane: ctx.key.plane, via: "external_id", externalId };
}

/**
 * The person a Bearer token names, on a token-authoritative route (the connector tools): X-User-Id is
 * refused, and so is a request without a token (400 user_token_required). Approval and grants are the
 * route's to check, on every call.
 */
export async function requireUserToken(req: RequestHeaders, ctx: { key: CallerKey; agent: ResolvedAgent }): Promise<ResolvedUser> {
  if (req.headers.get("x-user-id") !== null) throw new ApiError("user_token_required", MESSAGES.userTokenRequired);
  const user = await resolveUserToken(req, ctx);
  if (!user) throw new ApiError("user_token_required", MESSAGES.userTokenRequired);
  return { id: user.id, plane: user.plane, via: user.via };
}
