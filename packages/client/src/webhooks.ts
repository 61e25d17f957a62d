// Verifying the service's webhooks (Standard Webhooks): the `webhook-id`, `webhook-timestamp` and
// `webhook-signature` headers, each `v1,` entry the base64 HMAC-SHA256 of "<id>.<timestamp>.<body>"
// under the endpoint's `whsec_` secret. Web Crypto only, so it runs wherever the library does (Node,
// Bun, Deno, edge runtimes); crypto.subtle.verify compares in constant time.

/** How far a delivery's timestamp may be from this clock, in seconds (Standard Webhooks' default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Why verifyWebhook refused a delivery. */
export type WebhookVerificationReason = "missing_headers" | "timestamp_out_of_range" | "invalid_signature" | "invalid_secret" | "invalid_body";

/** A delivery that is not the service's, or not now (its `reason` says which): answer it with 400 and do nothing it says. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationReason;
  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
    this.reason = reason;
  }
}

/** An event as the service sends it: ids and counts, never profile content (docs/webhooks.md). */
export interface WebhookEvent {
  /** The event's id, also the `webhook-id` header: the same at every try and resend. */
  id: string;
  /** approval.granted, approval.revoked, user.deleted, app.connected, app.disconnected, import_job.completed, import_job.failed, webhook.test. */
  type: string;
  /** When the change happened (ISO 8601). */
  createdAt: string;
  /** The plane: true for live. */
  livemode: boolean;
  data: Record<string, unknown>;
}

/** A request's headers: a Fetch `Headers`, or Node's `req.headers` (lower-case names). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** verifyWebhook's options: the clock and the tolerance. */
export interface VerifyWebhookOptions {
  /** The clock, in milliseconds (tests). */
  now?: number;
  /** Seconds a timestamp may be away from the clock; WEBHOOK_TOLERANCE_SECONDS by default. */
  toleranceSeconds?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  return [(headers as Record<string, string | string[] | undefined>)[name]].flat()[0];
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Verifies a delivery and answers its event. `secret` is the endpoint's `whsec_…` secret (during a
 * rotation, either one verifies: the delivery carries a signature under each); `rawBody` the body
 * exactly as received, before any JSON parsing. Throws a WebhookVerificationError when a header is
 * missing, the timestamp is more than five minutes away, or no `v1` signature matches.
 */
export async function verifyWebhook(secret: string, headers: WebhookHeaders, rawBody: string | Uint8Array, options: VerifyWebhookOptions = {}): Promise<WebhookEvent> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError("missing_headers", "The webhook-id, webhook-timestamp and webhook-signature headers are required.");
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (!/^\d+$/.test(timestamp) || Math.abs((options.now ?? Date.now()) / 1000 - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError("timestamp_out_of_range", `The webhook-timestamp is more than ${tolerance} s from this clock.`);
  }
  const keyBytes = base64Bytes(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret);
  if (!keyBytes?.length) throw new WebhookVerificationError("invalid_secret", "The secret is not a whsec_ secret (base64 after the prefix).");
  const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  let valid = false;
  for (const entry of signatures.split(" ")) {
    const [version, signature] = entry.split(",");
    const given = version === "v1" && signature ? base64Bytes(signature) : null;
    // Every entry is checked, so the time taken does not say which one matched.
    if (given && (await crypto.subtle.verify("HMAC", key, given, signed))) valid = true;
  }
  if (!valid) throw new WebhookVerificationError("invalid_signature", "No v1 signature of the delivery matches the secret.");
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    throw new WebhookVerificationError("invalid_body", "The signed body is not JSON.");
  }
  return event as WebhookEvent;
}
