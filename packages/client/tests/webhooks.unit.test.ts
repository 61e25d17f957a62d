// verifyWebhook: Standard Webhooks' published example verifies; deliveries signed here with node:crypto
// (as the service signs) verify under either secret of a rotation; anything else is refused with its reason.
import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { WEBHOOK_TOLERANCE_SECONDS, WebhookVerificationError, verifyWebhook, type WebhookVerificationReason } from "../src/index";

// The example of the Standard Webhooks specification (and Svix's documentation).
const EXAMPLE = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: "1614265330",
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

function sign(secret: string, id: string, timestamp: string, body: string): string {
  return `v1,${createHmac("sha256", Buffer.from(secret.slice(6), "base64"))
    .update(`${id}.${timestamp}.${body}`)
    .digest("base64")}`;
}

async function refused(promise: Promise<unknown>): Promise<WebhookVerificationReason> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebhookVerificationError);
  return (err as WebhookVerificationError).reason;
}

describe("verifyWebhook", () => {
  const now = 1_800_000_000_000;
  const timestamp = String(now / 1000);
  const body = JSON.stringify({ id: "evt_1", type: "approval.revoked", createdAt: "2027-01-15T08:00:00.000Z", livemode: true, data: { userId: "u", externalIds: [], agent: "a" } });

  it("verifies the Standard Webhooks example", async () => {
    const headers = { "webhook-id": EXAMPLE.id, "webhook-timestamp": EXAMPLE.timestamp, "webhook-signature": EXAMPLE.signature };
    await expect(verifyWebhook(EXAMPLE.secret, headers, EXAMPLE.body, { now: Number(EXAMPLE.timestamp) * 1000 })).resolves.toEqual({ test: 2432232314 });
  });

  it("answers the event of a delivery, from Node's headers or a Fetch Headers, the body as text or bytes", async () => {
    const secret = newSecret();
    const headers = { "webhook-id": "evt_1", "webhook-timestamp": timestamp, "webhook-signature": sign(secret, "evt_1", timestamp, body) };
    await expect(verifyWebhook(secret, headers, body, { now })).resolves.toMatchObject({ id: "evt_1", type: "approval.revoked", livemode: true });
    await expect(verifyWebhook(secret, new Headers(headers), new TextEncoder().encode(body), { now })).resolves.toMatchObject({ id: "evt_1" });
  });

  it("during a rotation, the delivery's two signatures verify under either secret", async () => {
    const [current, previous] = [newSecret(), newSecret()];
    const signature = `${sign(current, "evt_1", timestamp, body)} ${sign(previous, "evt_1", timestamp, body)}`;
    for (const secret of [current, previous]) {
      await expect(verifyWebhook(secret, { "webhook-id": "evt_1", "webhook-timestamp": timestamp, "webhook-signature": signature }, body, { now })).resolves.toMatchObject({
        id: "evt_1",
      });
    }
    expect(await refused(verifyWebhook(newSecret(), { "webhook-id": "evt_1", "webhook-timestamp": timestamp, "webhook-signature": signature }, body, { now }))).toBe(
      "invalid_signature",
    );
  });

  it("refuses a changed body, id or timestamp, another version's entry, and a missing header", async () => {
    const secret = newSecret();
    const good = { "webhook-id": "evt_1", "webhook-timestamp": timestamp, "webhook-signature": sign(secret, "evt_1", timestamp, body) };
    expect(await refused(verifyWebhook(secret, good, body.replace("revoked", "granted"), { now }))).toBe("invalid_signature");
    expect(await refused(verifyWebhook(secret, { ...good, "webhook-id": "evt_2" }, body, { now }))).toBe("invalid_signature");
    expect(await refused(verifyWebhook(secret, { ...good, "webhook-timestamp": String(Number(timestamp) + 1) }, body, { now }))).toBe("invalid_signature");
    expect(await refused(verifyWebhook(secret, { ...good, "webhook-signature": good["webhook-signature"].replace("v1,", "v2,") }, body, { now }))).toBe("invalid_signature");
    expect(await refused(verifyWebhook(secret, { ...good, "webhook-signature": "v1,not base64!" }, body, { now }))).toBe("invalid_signature");
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
      expect(await refused(verifyWebhook(secret, { ...good, [name]: undefined }, body, { now }))).toBe("missing_headers");
    }
  });

  it(`refuses a timestamp more than ${WEBHOOK_TOLERANCE_SECONDS} s away, either way, and one that is not a number`, async () => {
    const secret = newSecret();
    for (const [skew, ok] of [
      [WEBHOOK_TOLERANCE_SECONDS, true],
      [-WEBHOOK_TOLERANCE_SECONDS, true],
      [WEBHOOK_TOLERANCE_SECONDS + 1, false],
      [-(WEBHOOK_TOLERANCE_SECONDS + 1), false],
    ] as const) {
      const ts = String(Number(timestamp) + skew);
      const verified = verifyWebhook(secret, { "webhook-id": "evt_1", "webhook-timestamp": ts, "webhook-signature": sign(secret, "evt_1", ts, body) }, body, { now });
      if (ok) await expect(verified).resolves.toMatchObject({ id: "evt_1" });
      else expect(await refused(verified)).toBe("timestamp_out_of_range");
    }
    expect(await refused(verifyWebhook(secret, { "webhook-id": "evt_1", "webhook-timestamp": "1e9", "webhook-signature": "v1,x" }, body, { now }))).toBe("timestamp_out_of_range");
  });

  it("refuses a secret that is not base64, and a signed body that is not JSON", async () => {
    expect(await refused(verifyWebhook("whsec_***", { "webhook-id": "e", "webhook-timestamp": timestamp, "webhook-signature": "v1,x" }, body, { now }))).toBe("invalid_secret");
    const secret = newSecret();
    expect(
      await refused(
        verifyWebhook(secret, { "webhook-id": "e", "webhook-timestamp": timestamp, "webhook-signature": sign(secret, "e", timestamp, "not json") }, "not json", { now }),
      ),
    ).toBe("invalid_body");
  });
});
