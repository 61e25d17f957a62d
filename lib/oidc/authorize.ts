// GET /oauth/authorize: the request is checked against the parameter table; a valid one is what the
// hosted flow starts with (lib/flow/ways-in/oidc.ts). Every error is shown to the person in the browser
// and never sent to the callback: the callback only ever hears of success (code, state) or a decline
// (error=access_denied, state).
import { z } from "zod";
import { oldestActiveAgent } from "../agents/agents";
import { CODE_CHALLENGE_PATTERN } from "../platform/crypto";
import type { Plane } from "../platform/db/generated/enums";
import { parseRequiredParam, type RequiredEntry } from "../required/entries";
import { findClient, type OidcClient } from "./client-auth";
import { OIDC_SCOPES } from "./discovery";
import { OAuthError, OAUTH_MESSAGES, parameterRepeated } from "./errors";
import { PERSONAL_MCP_DEVELOPER_ID, PERSONAL_MCP_PLANE } from "../developers/personal-mcp-account";
import { CLIENT_KINDS, isMcpClientKind } from "./client-kinds";
import { mcpRedirectMatches } from "./mcp-clients/clients";
import { DocumentError, DocumentRateLimited, documentClient, isMetadataDocumentId, toStoredClientDocument, type PendingDocumentClient } from "./mcp-clients/documents";
import { isPersonalMcpResource, personalResourceOnly } from "./mcp-clients/resource";
import { storedClientDocument } from "./mcp-clients/pending";

export const MAX_NONCE_LENGTH = 512;
export const MAX_STATE_LENGTH = 2_048;
// Parameters whose value the service reads; a repeat of one is ambiguous (RFC 6749 § 3.1).
const SINGLE_VALUED = ["response_type", "client_id", "redirect_uri", "code_challenge", "code_challenge_method", "scope", "state", "nonce", "required", "resource"];

/**
 * What an authorize request carries into its flow, as the flow stores it: the client (absent only for
 * a client known by a metadata document not stored yet, whose document rides along instead until the
 * flow completes and the client is made from it) and the parameters the code is issued against.
 */
export const authorizeFlowRequest = z.strictObject({
  client_id: z.string().optional(),
  redirect_uri: z.string(),
  state: z.string().nullable(),
  nonce: z.string().nullable(),
  scopes: z.array(z.string()),
  code_challenge: z.string(),
  client_document: storedClientDocument.optional(),
});
export type AuthorizeFlowRequest = z.output<typeof authorizeFlowRequest>;

/** A valid authorize request: who its flow is for, and what it stores. */
export interface CheckedAuthorizeRequest {
  /** An MCP client a person installs (registered, or known by a metadata document), not a developer's relying party. */
  mcpClient: boolean;
  developerId: string;
  /** None yet for a client known by a metadata document not stored yet: its flow makes the agent when it completes. */
  agentId: string | null;
  plane: Plane;
  request: AuthorizeFlowRequest;
  required: RequiredEntry[];
}

/** The OpenID Connect scopes of a scope parameter, in the order openid, email, profile; others are ignored. */
export function oidcScopes(scope: string): string[] {
  const asked = new Set(scope.split(/\s+/).filter(Boolean));
  return OIDC_SCOPES.filter((s) => asked.has(s));
}

/**
 * Checks an authorize request. Throws OAuthError for anything the person must be shown: the client and
 * the callback first (nothing may be sent to an unverified callback), then the request itself.
 */
export async function checkAuthorizeRequest(params: URLSearchParams, ip: string): Promise<CheckedAuthorizeRequest> {
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

  return {
    mcpClient,
    developerId: client.developerId,
    agentId: agent?.id ?? null,
    plane: client.plane,
    request: {
      ...(pending ? { client_document: toStoredClientDocument(pending) } : { client_id: client.id }),
      redirect_uri: redirectUri,
      state,
      nonce: nonce || null,
      scopes,
      code_challenge: challenge,
    },
    required: parseRequiredParam(params.get("required")),
  };
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
