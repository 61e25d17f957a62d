// The library's one error class, its thirteen codes, and how every answer of the service maps onto them.

/** The thirteen error codes a {@link ServiceError} carries. */
export const ERROR_CODES = [
  "API_KEY_MISSING",
  "AUTH_REQUIRED",
  "ACCESS_DENIED",
  "TOOL_NOT_CONNECTED",
  "COMMIT_REQUIRED",
  "PAYMENT_REQUIRED",
  "RATE_LIMITED",
  "INVALID_INPUT",
  "NOT_FOUND",
  "TOOL_ERROR",
  "TIMEOUT",
  "NETWORK_ERROR",
  "SERVER_ERROR",
] as const;

/** One of the thirteen {@link ERROR_CODES}. */
export type ServiceErrorCode = (typeof ERROR_CODES)[number];

/**
 * Every error code the service answers on /v1 (its `error.code`), and the library code it becomes.
 * A code the service adds later falls back on its HTTP status (see {@link codeForStatus}).
 */
export const WIRE_ERROR_CODES: Readonly<Record<string, ServiceErrorCode>> = {
  invalid_json: "INVALID_INPUT",
  invalid_request: "INVALID_INPUT",
  agent_required: "INVALID_INPUT",
  user_required: "INVALID_INPUT",
  unknown_scenario: "INVALID_INPUT",
  publishable_key_required: "API_KEY_MISSING",
  invalid_redirect_uri: "INVALID_INPUT",
  invalid_origin: "INVALID_INPUT",
  invalid_return_url: "INVALID_INPUT",
  no_active_agent: "INVALID_INPUT",
  too_many_redirect_uris: "INVALID_INPUT",
  too_many_clients: "INVALID_INPUT",
  link_requires_external_user: "INVALID_INPUT",
  agent_token_not_allowed: "INVALID_INPUT",
  invalid_destination: "INVALID_INPUT",
  destination_not_registered: "INVALID_INPUT",
  invalid_code: "INVALID_INPUT",
  code_expired: "INVALID_INPUT",
  code_already_used: "INVALID_INPUT",
  invalid_phone: "INVALID_INPUT",
  invalid_metadata: "INVALID_INPUT",
  message_line_not_registered: "INVALID_INPUT",
  previous_token_mismatch: "INVALID_INPUT",
  user_token_required: "INVALID_INPUT",
  api_key_required: "API_KEY_MISSING",
  invalid_api_key: "AUTH_REQUIRED",
  secret_key_required: "AUTH_REQUIRED",
  invalid_access_token: "AUTH_REQUIRED",
  mcp_session_expired: "AUTH_REQUIRED",
  quota_exceeded: "PAYMENT_REQUIRED",
  agent_not_approved: "AUTH_REQUIRED",
  insufficient_scope: "ACCESS_DENIED",
  client_not_owned: "AUTH_REQUIRED",
  sandbox_requires_test_key: "AUTH_REQUIRED",
  memory_not_owned: "ACCESS_DENIED",
  invalid_publishable_key: "AUTH_REQUIRED",
  origin_not_approved: "AUTH_REQUIRED",
  permission_needed: "ACCESS_DENIED",
  not_found: "NOT_FOUND",
  unknown_agent: "NOT_FOUND",
  unknown_user: "NOT_FOUND",
  method_not_allowed: "INVALID_INPUT",
  agent_inactive: "INVALID_INPUT",
  agent_exists: "INVALID_INPUT",
  idempotency_key_reused: "INVALID_INPUT",
  app_not_connected: "TOOL_NOT_CONNECTED",
  app_needs_reconnect: "TOOL_NOT_CONNECTED",
  action_in_progress: "INVALID_INPUT",
  endpoint_disabled: "INVALID_INPUT",
  payload_too_large: "INVALID_INPUT",
  unsupported_media_type: "INVALID_INPUT",
  invalid_format: "INVALID_INPUT",
  commit_required: "COMMIT_REQUIRED",
  rate_limited: "RATE_LIMITED",
  internal_error: "SERVER_ERROR",
  provider_error: "TOOL_ERROR",
  service_unavailable: "SERVER_ERROR",
};

/** The library code for an HTTP status whose error code the library does not know. */
export function codeForStatus(status: number): ServiceErrorCode {
  if (status === 401 || status === 403) return "AUTH_REQUIRED";
  if (status === 402) return "PAYMENT_REQUIRED";
  if (status === 404) return "NOT_FOUND";
  if (status === 408) return "TIMEOUT";
  if (status === 428) return "COMMIT_REQUIRED";
  if (status === 429) return "RATE_LIMITED";
  if (status >= 500) return "SERVER_ERROR";
  return "INVALID_INPUT";
}

const RETRYABLE: ReadonlySet<ServiceErrorCode> = new Set(["RATE_LIMITED", "TIMEOUT", "NETWORK_ERROR", "SERVER_ERROR"]);

const SUGGESTED_ACTIONS: Partial<Record<ServiceErrorCode, string>> = {
  API_KEY_MISSING: "set_api_key",
  AUTH_REQUIRED: "reauthenticate",
  ACCESS_DENIED: "request_access",
  TOOL_NOT_CONNECTED: "connect",
  COMMIT_REQUIRED: "commit",
  PAYMENT_REQUIRED: "upgrade_plan",
  RATE_LIMITED: "retry_later",
  INVALID_INPUT: "fix_request",
  TIMEOUT: "retry",
  NETWORK_ERROR: "retry",
  SERVER_ERROR: "retry_later",
};

/** What each code means and when it comes: the text of the error table in the library reference. */
export const ERROR_CODE_MEANINGS: Readonly<Record<ServiceErrorCode, string>> = {
  API_KEY_MISSING: "No API key configured, or none sent.",
  AUTH_REQUIRED:
    "401: a wrong, revoked or publishable key, a bad or expired token, an expired MCP session; 403: the user has not approved the agent, a client of another developer, a live key on the sandbox.",
  ACCESS_DENIED: "A tool outside the declared `tools` set or not listed by the server; an access token without the route's scope; another writer's memory.",
  TOOL_NOT_CONNECTED: "A tool for a user who has not connected the app or approved the agent: mint a connect link.",
  COMMIT_REQUIRED: "428, or MCP error -32009: the agent kept reading for 30 minutes without committing; commit the turn, then retry.",
  PAYMENT_REQUIRED: "402: the account is over a quota.",
  RATE_LIMITED: "429: over a rate limit; `retryAfter` says how long to wait.",
  INVALID_INPUT: "400, 405, 409, 413, 415 or 422: the request was refused as sent and changed nothing.",
  NOT_FOUND: "404: an unknown user, agent, memory or route.",
  TOOL_ERROR: "A tool (a connector) failed.",
  TIMEOUT: "No answer within `timeoutMs` (default 10 s), or a fail-open budget ran out.",
  NETWORK_ERROR: "The request failed before an answer (refused, reset, DNS).",
  SERVER_ERROR: "500 and above.",
};

/** Where an error code is explained: its row in the library reference the service publishes at `/docs/client`. */
export const ERROR_DOCS_PATH = "/docs/client";

/** The `docUrl` of a code: `{baseUrl}/docs/client#error-<code>`, or the path alone when the error came from no client. */
export function errorDocUrl(code: ServiceErrorCode, baseUrl = ""): string {
  return `${baseUrl.replace(/\/+$/, "")}${ERROR_DOCS_PATH}#error-${code.toLowerCase().replaceAll("_", "-")}`;
}

/** What a {@link ServiceError} is made from. */
export interface ServiceErrorInit {
  /** The library code. */
  code: ServiceErrorCode;
  /** A sentence for people: the service's `error.message`, or what failed on the way. */
  message: string;
  /** The HTTP status; 0 when no answer came (time-out, network failure, or refused before sending). */
  statusCode?: number;
  /** The service's own error code (`error.code` on the wire), or `timeout` / `network_error` / `client`. */
  type?: string;
  /** The service's `suggested_action`; else the code's default. */
  suggestedAction?: string | null;
  /** The service's `doc_url`; else {@link errorDocUrl}. */
  docUrl?: string;
  /** The service's address, for the default `docUrl`. */
  baseUrl?: string;
  /** Seconds to wait before trying again, from `retry_after` or `Retry-After`. */
  retryAfter?: number | null;
  /** The service's `request_id` or X-Request-Id. */
  requestId?: string | null;
  /** The whole error object of the answer, for fields beyond these (`fields`, `field`, `scope`, …). */
  details?: Record<string, unknown>;
  /** The failure underneath (a fetch error, an abort). */
  cause?: unknown;
}

/** Every failure of the library: an error answer of the service, a time-out or a network failure. */
export class ServiceError extends Error {
  /** One of the thirteen {@link ERROR_CODES}. */
  readonly code: ServiceErrorCode;
  /** The HTTP status, or 0 when no answer came. */
  readonly statusCode: number;
  /** The service's own code (for example `code_already_used`), or `timeout`, `network_error`, `client`. */
  readonly type: string;
  /** Whether the same request may succeed when tried again (the library retries these itself). */
  readonly retryable: boolean;
  /** What the caller should do: the service's `suggested_action` when it sends one (`commit`, `reauthenticate`), else the code's default. */
  readonly suggestedAction: string | null;
  /** Where the code is explained. */
  readonly docUrl: string;
  /** Seconds to wait before trying again, when the service said so. */
  readonly retryAfter: number | null;
  /** The service's request id (`request_id`, `X-Request-Id`): quote it when reporting a problem. */
  readonly requestId: string | null;
  /** The answer's whole error object. */
  readonly details: Record<string, unknown>;

  /** An error of `init.code`; `retryable` and the defaults follow from the code. */
  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "ServiceError";
    this.code = init.code;
    this.statusCode = init.statusCode ?? 0;
    this.type = init.type ?? init.code.toLowerCase();
    this.retryable = RETRYABLE.has(init.code);
    this.suggestedAction = init.suggestedAction ?? SUGGESTED_ACTIONS[init.code] ?? null;
    this.docUrl = init.docUrl ?? errorDocUrl(init.code, init.baseUrl);
    this.retryAfter = init.retryAfter ?? null;
    this.requestId = init.requestId ?? null;
    this.details = init.details ?? {};
  }
}

/** Whether a value is a {@link ServiceError}, optionally of one code. */
export function isServiceError(value: unknown, code?: ServiceErrorCode): value is ServiceError {
  return value instanceof ServiceError && (code === undefined || value.code === code);
}

function seconds(value: unknown): number | null {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : null;
}

/** Seconds from a Retry-After header: delta-seconds or an HTTP date. */
export function retryAfterHeader(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const delta = seconds(value);
  if (delta !== null) return delta;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The ServiceError for an error answer of the service (any status ≥ 400). */
export function errorFromAnswer(input: { status: number; body: unknown; headers: Headers; baseUrl?: string }): ServiceError {
  const body = (input.body && typeof input.body === "object" ? input.body : {}) as Record<string, unknown>;
  const raw = body.error;
  const error: Record<string, unknown> =
    raw && typeof raw === "object" ? (raw as Record<string, unknown>) : typeof raw === "string" ? { code: raw, message: body.error_description } : {};
  const wire = typeof error.code === "string" ? error.code : undefined;
  const code = (wire !== undefined ? WIRE_ERROR_CODES[wire] : undefined) ?? codeForStatus(input.status);
  const message = typeof error.message === "string" ? error.message : `The service answered ${input.status}.`;
  return new ServiceError({
    code,
    message,
    statusCode: input.status,
    type: wire ?? `http_${input.status}`,
    suggestedAction: typeof error.suggested_action === "string" ? error.suggested_action : undefined,
    docUrl: typeof error.doc_url === "string" ? error.doc_url : undefined,
    baseUrl: input.baseUrl,
    retryAfter: seconds(error.retry_after) ?? retryAfterHeader(input.headers.get("retry-after")),
    requestId: (typeof body.request_id === "string" ? body.request_id : null) ?? input.headers.get("x-request-id"),
    details: error,
  });
}
