// Identifier and credential prefixes, verbatim from the specification, and their generators.
import { randomBase62 } from "./crypto";

export const PREFIX = {
  secretKey: "sk_",
  secretTestKey: "sk_test_",
  publishableKey: "pk_",
  publishableTestKey: "pk_test_",
  oauthClient: "oc_",
  oauthClientSecret: "ocs_",
  /** An MCP client registered at POST /oauth/register (the personal MCP endpoint's clients). */
  mcpClient: "mcpc_",
  accessToken: "mcp_at_",
  refreshToken: "mcp_rt_",
  memory: "mem_",
  importJob: "imp_",
  connectLink: "mcc_",
  /** A partner flow session (POST /v1/flows/sessions). */
  partnerSession: "pfs_",
  request: "req_",
  /** A suppression: memories hidden at the person's request, restorable from the account page. */
  suppression: "sup_",
  /** A developer's webhook endpoint, one of its events, and one event's delivery to one endpoint. */
  webhookEndpoint: "whe_",
  webhookEvent: "evt_",
  webhookDelivery: "whd_",
} as const;

export type Prefix = (typeof PREFIX)[keyof typeof PREFIX];

/** A new identifier or credential: the prefix followed by `length` random base62 characters. */
export function newId(prefix: Prefix, length = 24): string {
  return prefix + randomBase62(length);
}

/**
 * Whether `value` can be an id of ours with this prefix: the prefix, then base62 only. Every id that
 * arrives in a URL is checked with it before any lookup, so NUL, control characters or a huge value
 * answer "unknown" (404), never a database error.
 */
export function isIdOf(prefix: Prefix, value: string, length = 24): boolean {
  return value.length === prefix.length + length && value.startsWith(prefix) && /^[A-Za-z0-9]+$/.test(value.slice(prefix.length));
}
