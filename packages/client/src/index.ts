// The Profile Service client library: profile reads and writes, hosted sign-in, MCP sessions and tool
// calls over fetch, with one error class and fail-open helpers for agent turns; and the verifier of
// the service's webhooks.
export { ProfileClient, type CallOptions, type ClientOptions, type WithUser } from "./client.js";
export {
  ERROR_CODES,
  ERROR_CODE_MEANINGS,
  ERROR_DOCS_PATH,
  ServiceError,
  WIRE_ERROR_CODES,
  codeForStatus,
  errorDocUrl,
  isServiceError,
  retryAfterHeader,
  type ServiceErrorCode,
  type ServiceErrorInit,
} from "./errors.js";
export { callToolForTurn, commitForTurn, failOpen, readForTurn, type EmptyProfile, type FailOpenOptions, type FailOpenResult, type WarnLogger } from "./fail-open.js";
export { MCP_COMMIT_REQUIRED } from "./mcp.js";
export { buildSignInUrl, requiredParam, type RequiredEntries, type SignInConnector, type SignInUrlOptions } from "./sign-in.js";
export type { FetchLike, RetryOptions } from "./transport.js";
export {
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookVerificationError,
  verifyWebhook,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
  type WebhookVerificationReason,
} from "./webhooks.js";
export type * from "./types.js";
export type * as Api from "./generated/openapi.js";
