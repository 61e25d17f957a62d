// Standard Webhooks signing (https://www.standardwebhooks.com/): webhook-id, webhook-timestamp and
// webhook-signature "v1,<base64 HMAC-SHA256 of '<id>.<timestamp>.<body>'>", one v1 per secret that
// signs (space-separated), the HMAC keyed with the base64 bytes after the secret's whsec_ prefix.
import { createHmac, randomBytes } from "node:crypto";

export const WEBHOOK_HEADERS = { id: "webhook-id", timestamp: "webhook-timestamp", signature: "webhook-signature" } as const;
export const WEBHOOK_SECRET_PREFIX = "whsec_";
/** A secret as shown: whsec_ and 32 random bytes in base64. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{43}=$/;

export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString("base64");
}

/** The webhook-signature header of a body sent at `timestampSeconds`: one "v1,<sig>" per secret, the current one first. */
export function signWebhook(input: { secrets: readonly string[]; id: string; timestampSeconds: number; body: string }): string {
  return input.secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), "base64");
      return `v1,${createHmac("sha256", key).update(`${input.id}.${input.timestampSeconds}.${input.body}`).digest("base64")}`;
    })
    .join(" ");
}
