// Identifier and credential prefixes, verbatim from the specification, and their generators.
import { randomBase62 } from "./crypto";

export const PREFIX = {
  secretKey: "sk_",
  secretTestKey: "sk_test_",
  publishableKey: "pk_",
  publishableTestKey: "pk_test_",
  oauthClient: "oc_",
  oauthClientSecret: "ocs_",
  accessToken: "mcp_at_",
  refreshToken: "mcp_rt_",
  memory: "mem_",
  importJob: "imp_",
  connectLink: "mcc_",
  request: "req_",
} as const;

export type Prefix = (typeof PREFIX)[keyof typeof PREFIX];

/** A new identifier or credential: the prefix followed by `length` random base62 characters. */
export function newId(prefix: Prefix, length = 24): string {
  return prefix + randomBase62(length);
}
