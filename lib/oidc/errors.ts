// Errors of the OAuth endpoints: { error, error_description }, with the specification's strings.
import { json, type ErrorAnswer } from "../http/define-route";
import { ApiError, UNAVAILABLE_RETRY_AFTER_SECONDS } from "../http/errors";
import { databaseUnavailable, logDatabaseUnavailable } from "../platform/db/unavailable";
import { logger } from "../platform/log";

/** Descriptions the specification gives verbatim (Errors › OAuth endpoints), and the service's own. */
export const OAUTH_MESSAGES = {
  // Authorize (shown in the browser, never sent to the callback).
  pkceRequired: "code_challenge_method=S256 is required.",
  unknownClient: "Unknown OAuth client.",
  redirectUriMismatch: "redirect_uri must exactly match client registration.",
  responseTypeCode: "response_type must be code.",
  codeChallengeFormat: "code_challenge must be the base64url SHA-256 of the code verifier (43 characters).",
  nonceTooLong: "nonce must be at most 512 characters.",
  stateTooLong: "state must be at most 2048 characters.",
  resourceNotAllowed: "resource must be left out.",
  clientHasNoAgent: "This client's developer has no active agent.",
  // Token endpoint.
  codeUsed: "Authorization code was already used.",
  codeExpired: "Authorization code expired.",
  codeInvalid: "Authorization code is invalid.",
  codeOtherClient: "Authorization code was issued to another client.",
  pkceFailed: "PKCE verification failed.",
  redirectUriDiffers: "redirect_uri does not match authorization code.",
  clientAuthRequired: "Client authentication required.",
  clientAuthFailed: "Client authentication failed.",
  publicClientSecret: "This is a public client: it sends no client secret.",
  refreshReuse: "Refresh token reuse detected.",
  refreshInvalid: "Refresh token is invalid.",
  refreshExpired: "Refresh token expired.",
  refreshRevoked: "Refresh token was revoked.",
  refreshOtherClient: "Refresh token was issued to another client.",
  grantTypeRequired: "grant_type is required.",
  unsupportedGrantType: "grant_type must be authorization_code or refresh_token.",
  formRequired: "Send the request body as application/x-www-form-urlencoded.",
  clientIdRequired: "client_id is required.",
  clientIdMismatch: "client_id differs from the HTTP Basic credentials.",
  oneAuthMethod: "Authenticate the client one way only: HTTP Basic or client_secret in the body.",
  malformedBasic: "Malformed HTTP Basic credentials.",
  serverError: "Something went wrong on our side.",
  temporarilyUnavailable: "The service is briefly unavailable; retry after the number of seconds in Retry-After.",
} as const;

/** "<parameter> is required." for a parameter the request left out. */
export const parameterRequired = (name: string) => `${name} is required.`;
/** A parameter given more than once (RFC 6749 § 3.1, § 3.2). */
export const parameterRepeated = (name: string) => `The ${name} parameter is repeated.`;
/** A parameter holding a NUL character or an unpaired surrogate (lib/http/text-input.ts). */
export const unsafeParameter = (name: string) => `The ${name} parameter holds a NUL character or an unpaired UTF-16 surrogate.`;

/**
 * The error codes the OAuth endpoints answer: RFC 6749 § 4.1.2.1 and § 5.2, RFC 6750 § 3.1 (bearer
 * tokens), RFC 8707 § 2 (resource indicators), RFC 7591 § 3.2.2 (client registration).
 */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "access_denied"
  | "server_error"
  | "temporarily_unavailable"
  | "invalid_token"
  | "insufficient_scope"
  | "invalid_target"
  | "invalid_redirect_uri"
  | "invalid_client_metadata";

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OAuthError";
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

export const invalidRequest = (description: string) => new OAuthError("invalid_request", description);
export const invalidGrant = (description: string) => new OAuthError("invalid_grant", description);
/** invalid_client is a 401; a client that should have used HTTP Basic is told so (RFC 6749 § 5.2). */
export const invalidClient = (description: string) => new OAuthError("invalid_client", description, 401, { "WWW-Authenticate": 'Basic realm="oauth", charset="UTF-8"' });

/** How the OAuth endpoints answer errors (RFC 6749 § 5.2): { error, error_description }, never cached. */
export const oauthErrorAnswer: ErrorAnswer = (err, requestId) => {
  const headers = { Pragma: "no-cache" };
  if (err instanceof OAuthError) return json(err.body(), { status: err.status, headers: { ...headers, ...err.headers } });
  if (err instanceof ApiError) {
    return json({ error: err.code, error_description: err.message, ...err.extras }, { status: err.status, headers: { ...headers, ...err.headers } });
  }
  if (databaseUnavailable(err)) {
    // RFC 6749's temporarily_unavailable, as a 503 with Retry-After: the client retries soon.
    logDatabaseUnavailable(err, { request_id: requestId });
    return json(
      { error: "temporarily_unavailable", error_description: OAUTH_MESSAGES.temporarilyUnavailable },
      { status: 503, headers: { ...headers, "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) } },
    );
  }
  logger().error({ request_id: requestId, err }, "unhandled error");
  return json({ error: "server_error", error_description: OAUTH_MESSAGES.serverError }, { status: 500, headers });
};
