// The /v1 error family: one ApiError class, one code→status table, one JSON body shape.

/** Every /v1 error code and its HTTP status. docs/api.md lists them with their meaning. */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  agent_required: 400,
  user_required: 400,
  unknown_scenario: 400,
  publishable_key_required: 400,
  invalid_redirect_uri: 400,
  invalid_origin: 400,
  invalid_return_url: 400,
  no_active_agent: 400,
  too_many_redirect_uris: 400,
  too_many_clients: 400,
  link_requires_external_user: 400,
  agent_token_not_allowed: 400,
  invalid_destination: 400,
  destination_not_registered: 400,
  invalid_code: 400,
  code_expired: 400,
  code_already_used: 400,
  invalid_phone: 400,
  invalid_metadata: 400,
  message_line_not_registered: 400,
  previous_token_mismatch: 400,
  user_token_required: 400,
  api_key_required: 401,
  invalid_api_key: 401,
  secret_key_required: 401,
  invalid_access_token: 401,
  mcp_session_expired: 401,
  quota_exceeded: 402,
  agent_not_approved: 403,
  insufficient_scope: 403,
  client_not_owned: 403,
  sandbox_requires_test_key: 403,
  memory_not_owned: 403,
  invalid_publishable_key: 403,
  origin_not_approved: 403,
  permission_needed: 403,
  not_found: 404,
  unknown_agent: 404,
  unknown_user: 404,
  method_not_allowed: 405,
  agent_inactive: 409,
  agent_exists: 409,
  idempotency_key_reused: 409,
  app_not_connected: 409,
  app_needs_reconnect: 409,
  action_in_progress: 409,
  endpoint_disabled: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_format: 422,
  commit_required: 428,
  rate_limited: 429,
  internal_error: 500,
  provider_error: 502,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Messages the service repeats in several places; tests assert them verbatim. */
export const MESSAGES = {
  apiKeyRequired: "Send your API key in the X-API-Key header.",
  invalidApiKey: "The API key is invalid or has been revoked.",
  secretKeyRequired: "This route needs a secret key (sk_ or sk_test_); publishable keys are not accepted.",
  agentRequired: "Send the agent handle in the X-Agent header.",
  unknownAgent: "No agent with this handle exists for this developer account.",
  agentInactive: "This agent is inactive; reactivate it before using it.",
  userRequired: "Identify the user with an Authorization: Bearer token or the X-User-Id header.",
  unknownUser: "No user with this id is known to this developer account in this key plane.",
  invalidAccessToken: "The bearer token is invalid or has expired.",
  agentNotApproved: "This user has not approved the agent.",
  sandboxRequiresTestKey: "Sandbox routes only accept test keys (sk_test_); this is a live key.",
  invalidJson: "The request body is not valid JSON.",
  payloadTooLarge: "The request body is too large.",
  unsupportedMediaType: "Send the request body as application/json.",
  rateLimited: "Too many requests; retry after the number of seconds in retry_after.",
  internalError: "Something went wrong on our side. The request id identifies it in our logs.",
  serviceUnavailable: "The service is briefly unavailable; retry after the number of seconds in Retry-After.",
  notFound: "No such route.",
  methodNotAllowed: "This route does not accept this method.",
  userTokenRequired:
    "Connector tools act only for the person a Bearer token names (an agent token or an access token of an approved user); X-User-Id and user_id are not accepted.",
} as const;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extras: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }
}

export function errorBody(err: ApiError, requestId: string) {
  return { error: { code: err.code, message: err.message, ...err.extras }, request_id: requestId };
}

/** The wait a 503 asks for while the database is away (Retry-After and retry_after, in seconds). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The 503 for a request the database could not serve right now: retry soon. */
export function serviceUnavailable(): ApiError {
  return new ApiError(
    "service_unavailable",
    MESSAGES.serviceUnavailable,
    { retry_after: UNAVAILABLE_RETRY_AFTER_SECONDS },
    { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  );
}
