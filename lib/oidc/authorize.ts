// GET /oauth/authorize: the request is checked against the parameter table, and a valid one starts
// a hosted flow. Every error is shown to the person in the browser and never sent to the callback:
// the callback only ever hears of success (code, state) or a decline (error=access_denied, state).
import { oldestActiveAgent } from "../agents/agents";
import { CODE_CHALLENGE_PATTERN } from "../crypto";
import { createFlow, FLOW_RATE_LIMITED, FlowError } from "../flow/sessions";
import { findClient, type OidcClient } from "./client-auth";
import { OIDC_SCOPES } from "./discovery";
import { OAuthError, OAUTH_MESSAGES, parameterRepeated } from "./errors";
import { parseRequiredParam } from "../flow/required";
import { CLIENT_KINDS, isMcpClientKind, PERSONAL_MCP_DEVELOPER_ID, PERSONAL_MCP_PLANE } from "../personal-mcp/account";
import { mcpRedirectMatches } from "../personal-mcp/clients";
import { DocumentError, DocumentRateLimited, documentClient, isMetadataDocumentId, toStoredClientDocument, type PendingDocumentClient } from "../personal-mcp/documents";
import { isPersonalMcpResource, personalResourceOnly } from "../personal-mcp/metadata";

export const MAX_NONCE_LENGTH = 512;
export const MAX_STATE_LENGTH = 2_048;
// Parameters whose value the service reads; a repeat of one is ambiguous (RFC 6749 § 3.1).
const SINGLE_VALUED = ["response_type", "client_id", "redirect_uri", "code_challenge", "code_challenge_method", "scope", "state", "nonce", "required", "resource"];

/** The OpenID Connect scopes of a scope parameter, in the order openid, email, profile; others are ignored. */
export function oidcScopes(scope: string): string[] {
  const asked = new Set(scope.split(/\s+/).filter(Boolean));
  return OIDC_SCOPES.filter((s) => asked.has(s));
}

/**
 * Checks an authorize request and starts its flow. Throws OAuthError for anything the person must
 * be shown: the client and the callback first (nothing may be sent to an unverified callback),
 * then the request itself.
 */
export async function authorize(params: URLSearchParams, ip: string) {
  for (const name of SINGLE_VALUED) {
    if (params.getAll(name).length > 1) throw new OAuthError("invalid_request", parameterRepeated(name));
  }
  const clientId = params.get("client_id") ?? "";
  // An MCP client known by its metadata document is read (again, when stale) before it is looked up.
  // One not stored yet is checked from what was just read, and stored only when its flow completes.
  let pending: PendingDocumentClient | null = null;
  if (clientId && isMetadataDocumentId(clientId)) {
    const read = await documentClient(clientId, ip).catch((err: unknown) => {
      if (err instanceof DocumentRateLimited) throw new OAuthError("temporarily_unavailable", err.message, 429, { "Retry-After": String(err.retryAfter) });
      throw err instanceof DocumentError ? new OAuthError("invalid_client", err.message) : err;
    });
    if (!read.stored) pending = read.pending;
  }
  const client = pending ? pendingClient(pending) : clientId ? await findClient(clientId) : null;
  if (!client) throw new OAuthError("invalid_client", OAUTH_MESSAGES.unknownClient);
  const mcpClient = isMcpClientKind(client.kind);
  const redirectUri = params.get("redirect_uri") ?? "";
  const registered = mcpClient ? mcpRedirectMatches(client.redirectUris, redirectUri) : client.redirectUris.includes(redirectUri);
  if (!registered) throw new OAuthError("invalid_request", OAUTH_MESSAGES.redirectUriMismatch);

  if (params.get("response_type") !== "code") throw new OAuthError("unsupported_response_type", OAUTH_MESSAGES.responseTypeCode);
  const challenge = params.get("code_challenge");
  if (!challenge || params.get("code_challenge_method") !== "S256") throw new OAuthError("invalid_request", OAUTH_MESSAGES.pkceRequired);
  if (!CODE_CHALLENGE_PATTERN.test(challenge)) throw new OAuthError("invalid_request", OAUTH_MESSAGES.codeChallengeFormat);
  const nonce = params.get("nonce");
  if (nonce !== null && nonce.length > MAX_NONCE_LENGTH) throw new OAuthError("invalid_request", OAUTH_MESSAGES.nonceTooLong);
  const state = params.get("state");
  if (state !== null && state.length > MAX_STATE_LENGTH) throw new OAuthError("invalid_request", OAUTH_MESSAGES.stateTooLong);
  // A developer's client leaves resource out; an MCP client names the personal endpoint (RFC 8707), or
  // leaves it out for the same (the endpoint is the only resource its tokens are for).
  const resource = params.get("resource");
  if (resource !== null && !mcpClient) throw new OAuthError("invalid_target", OAUTH_MESSAGES.resourceNotAllowed);
  if (resource !== null && !isPersonalMcpResource(resource)) throw new OAuthError("invalid_target", personalResourceOnly());

  // A pending document client has no agent yet: its flow makes one when it completes.
  const agent = pending ? null : mcpClient ? (client.agentId ? { id: client.agentId } : null) : await oldestActiveAgent(client.developerId);
  if (!agent && !pending) throw new OAuthError("invalid_client", OAUTH_MESSAGES.clientHasNoAgent);
  // scope omitted: the client's registered scopes (none for a client made elsewhere).
  const scope = params.get("scope");
  const scopes = scope === null ? oidcScopes(client.scopes.join(" ")) : oidcScopes(scope);

  const flow = await createFlow({
    ip,
    wayIn: mcpClient ? "mcp_client" : "oidc",
    developerId: client.developerId,
    agentId: agent?.id,
    plane: client.plane,
    clientId: pending ? undefined : client.id,
    request: {
      redirect_uri: redirectUri,
      state,
      nonce: nonce || null,
      scopes,
      code_challenge: challenge,
      ...(pending ? { client_document: toStoredClientDocument(pending) } : {}),
    },
    required: parseRequiredParam(params.get("required")),
  }).catch((err: unknown) => {
    // Shown in the browser like every authorize error, never sent to the callback.
    if (err instanceof FlowError && err.reason === "rate_limited") {
      throw new OAuthError("temporarily_unavailable", FLOW_RATE_LIMITED, 429, { "Retry-After": String(err.retryAfter ?? 60) });
    }
    throw err;
  });
  return { flow };
}

/** A document client read for this request only, in the shape of a stored one: public, of the personal account. */
function pendingClient(pending: PendingDocumentClient): OidcClient {
  return {
    id: pending.url,
    developerId: PERSONAL_MCP_DEVELOPER_ID,
    plane: PERSONAL_MCP_PLANE,
    method: "none",
    secretHash: null,
    scopes: [],
    redirectUris: pending.metadata.redirect_uris,
    kind: CLIENT_KINDS.document,
    agentId: null,
  };
}
