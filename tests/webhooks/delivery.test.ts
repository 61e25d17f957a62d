// Webhook delivery to a developer's receiver (a real local HTTP server): signed the Standard Webhooks way
// and verified by the very snippets docs/webhooks.md shows (TypeScript here, Python through python3),
// retried with backoff under one webhook-id, logged try by try, given up after the last try, never sent
// to a private address outside development mode nor redirected, signed under both secrets during a
// rotation's overlap, sent again on request, and delivered from the job queue by the worker's relay.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as getDelivery } from "@/app/v1/webhooks/deliveries/[deliveryId]/route";
import { POST as resend } from "@/app/v1/webhooks/deliveries/[deliveryId]/resend/route";
import { POST as rotate } from "@/app/v1/webhooks/endpoints/[endpointId]/secret/rotate/route";
import { POST as sendTest } from "@/app/v1/webhooks/endpoints/[endpointId]/test/route";
import { POST as createEndpoint } from "@/app/v1/webhooks/endpoints/route";
import { advanceClockForTests, now, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { stopJobs } from "@/lib/platform/jobs";
import { revokeApproval } from "@/lib/users/approvals";
import { deliverWebhook, RETRY_DELAYS_SECONDS, startWebhookWorker, WEBHOOK_MAX_ATTEMPTS } from "@/lib/webhooks/deliver";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { outsideDevelopment } from "../helpers/env";
import { call } from "../helpers/http";
import { verifyWebhook as libraryVerifyWebhook } from "@/packages/client/src/index";
import { documentedTsVerifier, pythonLibraryVerifies, pythonVerifies, startReceiver } from "./helpers";

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let verifyWebhook: Awaited<ReturnType<typeof documentedTsVerifier>>;
let t: Tenant;

beforeAll(async () => {
  receiver = await startReceiver();
  verifyWebhook = await documentedTsVerifier();
});
afterAll(async () => {
  resetClockForTests();
  await receiver.close();
});
beforeEach(async () => {
  resetClockForTests();
  t = await createTenant();
  // Deliveries other tests left pending are not this test's to send.
  await (await db()).webhookDelivery.updateMany({ where: { status: "pending" }, data: { status: "failed", nextAttemptAt: null } });
  receiver.received.length = 0;
});

/** A test-plane endpoint at the receiver's path (http on 127.0.0.1: the test plane's local address). */
async function endpointAt(path: string, events: string[] = ["*"]) {
  const res = await call(createEndpoint, { headers: { "x-api-key": t.keys.skTest }, body: { url: `${receiver.base}${path}`, events } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.endpoint.id as string, secret: res.body.secret as string };
}

async function testEvent(endpointId: string): Promise<string> {
  const res = await call(sendTest, { headers: { "x-api-key": t.keys.skTest }, path: `/v1/webhooks/endpoints/${endpointId}/test`, params: { endpointId } });
  expect(res.status).toBe(202);
  return res.body.delivery.id as string;
}

async function delivery(id: string) {
  const res = await call(getDelivery, { headers: { "x-api-key": t.keys.skTest }, path: `/v1/webhooks/deliveries/${id}`, params: { deliveryId: id } });
  expect(res.status).toBe(200);
  return res.body.delivery;
}

const nowSeconds = () => Math.floor(now().getTime() / 1000);

describe("signing", () => {
  it("sends the event signed: the documented TypeScript and Python verifiers accept it, and refuse a changed one", async () => {
    const ep = await endpointAt("/ok");
    // A real event: the test person revokes the agent.
    await revokeApproval({ userId: t.users.test.id, agentId: t.agent.id });
    const row = await (await db()).webhookDelivery.findFirstOrThrow({ where: { endpointId: ep.id }, include: { event: true } });
    await deliverWebhook(row.id);
    const [got] = receiver.to("/ok");
    expect(receiver.to("/ok")).toHaveLength(1);
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(got!.headers["webhook-id"]).toBe(row.eventId);
    expect(got!.headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
    expect(got!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const event = verifyWebhook(ep.secret, got!.headers, got!.raw, now().getTime());
    expect(event).toEqual({
      id: row.eventId,
      type: "approval.revoked",
      createdAt: row.event.createdAt.toISOString(),
      livemode: false,
      data: { userId: t.users.test.id, externalIds: ["user-test"], agent: t.agent.handle },
    });
    expect(pythonVerifies({ secret: ep.secret, headers: got!.headers, raw: got!.raw, nowSeconds: nowSeconds() })).toEqual({ ok: true, event });

    const other = (await endpointAt("/elsewhere")).secret;
    const tampered = got!.raw.replace('"livemode":false', '"livemode":true');
    expect(() => verifyWebhook(other, got!.headers, got!.raw, now().getTime())).toThrow(/no valid signature/);
    expect(() => verifyWebhook(ep.secret, got!.headers, tampered, now().getTime())).toThrow(/no valid signature/);
    expect(() => verifyWebhook(ep.secret, got!.headers, got!.raw, now().getTime() + 301_000)).toThrow(/timestamp/);
    expect(() => verifyWebhook(ep.secret, { ...got!.headers, "webhook-id": "evt_other" }, got!.raw, now().getTime())).toThrow(/no valid signature/);
    expect(() => verifyWebhook(ep.secret, { ...got!.headers, "webhook-signature": undefined }, got!.raw, now().getTime())).toThrow(/missing/);
    expect(pythonVerifies({ secret: other, headers: got!.headers, raw: got!.raw, nowSeconds: nowSeconds() })).toEqual({ ok: false, error: "no valid signature" });
    expect(pythonVerifies({ secret: ep.secret, headers: got!.headers, raw: tampered, nowSeconds: nowSeconds() })).toEqual({ ok: false, error: "no valid signature" });
    expect(pythonVerifies({ secret: ep.secret, headers: got!.headers, raw: got!.raw, nowSeconds: nowSeconds() + 301 })).toEqual({
      ok: false,
      error: "timestamp too old or too new",
    });

    // Delivered once: the job run again sends nothing.
    await deliverWebhook(row.id);
    expect(receiver.to("/ok")).toHaveLength(1);
    const logged = await delivery(row.id);
    expect(logged).toMatchObject({ status: "delivered", responseCode: 200, lastError: null, nextAttemptAt: null, eventType: "approval.revoked" });
    expect(logged.attempts).toEqual([{ attempt: 1, status: "delivered", responseCode: 200, durationMs: expect.any(Number), error: null, startedAt: expect.any(String) }]);
  });

  it("signs under both secrets during a rotation's overlap, so either verifies (the documented snippets and both client libraries); after it, the new one only", async () => {
    const ep = await endpointAt("/ok");
    const rotated = await call(rotate, {
      headers: { "x-api-key": t.keys.skTest },
      path: `/v1/webhooks/endpoints/${ep.id}/secret/rotate`,
      params: { endpointId: ep.id },
      body: { overlapHours: 2 },
    });
    const fresh = rotated.body.secret as string;
    await deliverWebhook(await testEvent(ep.id));
    const [during] = receiver.to("/ok");
    expect(String(during!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [ep.secret, fresh]) {
      expect(verifyWebhook(secret, during!.headers, during!.raw, now().getTime())).toMatchObject({ type: "webhook.test" });
      expect(pythonVerifies({ secret, headers: during!.headers, raw: during!.raw, nowSeconds: nowSeconds() }).ok).toBe(true);
      // The client libraries' own verifiers, as a developer's receiver calls them.
      await expect(libraryVerifyWebhook(secret, during!.headers, during!.raw, { now: now().getTime() })).resolves.toMatchObject({ type: "webhook.test" });
      expect(pythonLibraryVerifies({ secret, headers: during!.headers, raw: during!.raw, nowSeconds: nowSeconds() })).toMatchObject({ ok: true, event: { type: "webhook.test" } });
    }
    const stranger = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
    await expect(libraryVerifyWebhook(stranger, during!.headers, during!.raw, { now: now().getTime() })).rejects.toMatchObject({ reason: "invalid_signature" });
    expect(pythonLibraryVerifies({ secret: stranger, headers: during!.headers, raw: during!.raw, nowSeconds: nowSeconds() })).toEqual({ ok: false, reason: "invalid_signature" });
    advanceClockForTests(2 * 3_600_000 + 1_000);
    await deliverWebhook(await testEvent(ep.id));
    const after = receiver.to("/ok")[1]!;
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifyWebhook(fresh, after.headers, after.raw, now().getTime())).toMatchObject({ type: "webhook.test" });
    expect(() => verifyWebhook(ep.secret, after.headers, after.raw, now().getTime())).toThrow(/no valid signature/);
  });
});

describe("retries", () => {
  it("tries again after a 500 once the backoff has passed, under the same webhook-id, and logs each try", async () => {
    const ep = await endpointAt("/fail-once");
    const id = await testEvent(ep.id);
    await deliverWebhook(id);
    const first = await delivery(id);
    expect(first).toMatchObject({ status: "pending", responseCode: 500, lastError: "HTTP 500" });
    expect(Date.parse(first.nextAttemptAt) - now().getTime()).toBeGreaterThan((RETRY_DELAYS_SECONDS[0] - 5) * 1000);
    // Not due yet: a job run early sends nothing.
    await deliverWebhook(id);
    expect(receiver.to("/fail-once")).toHaveLength(1);
    advanceClockForTests(RETRY_DELAYS_SECONDS[0] * 1000 + 1_000);
    await deliverWebhook(id);
    const done = await delivery(id);
    expect(done).toMatchObject({ status: "delivered", responseCode: 200, lastError: null, nextAttemptAt: null });
    expect(done.attempts.map((a: { status: string; responseCode: number }) => [a.status, a.responseCode])).toEqual([
      ["failed", 500],
      ["delivered", 200],
    ]);
    const [a, b] = receiver.to("/fail-once");
    expect(a!.headers["webhook-id"]).toBe(done.eventId);
    expect(b!.headers["webhook-id"]).toBe(done.eventId);
    expect(b!.raw).toBe(a!.raw);
    expect(verifyWebhook(ep.secret, b!.headers, b!.raw, now().getTime())).toMatchObject({ id: done.eventId });
  });

  it(`backs off ${RETRY_DELAYS_SECONDS.join(", ")} seconds and gives up after ${WEBHOOK_MAX_ATTEMPTS} tries`, async () => {
    const ep = await endpointAt("/down");
    const id = await testEvent(ep.id);
    for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS; i++) {
      const before = now().getTime();
      await deliverWebhook(id);
      const d = await delivery(id);
      if (i < RETRY_DELAYS_SECONDS.length) {
        expect(d.status).toBe("pending");
        const wait = Date.parse(d.nextAttemptAt) - before;
        expect(wait).toBeGreaterThanOrEqual(RETRY_DELAYS_SECONDS[i]! * 1000);
        expect(wait).toBeLessThan(RETRY_DELAYS_SECONDS[i]! * 1000 + 5_000);
        advanceClockForTests(RETRY_DELAYS_SECONDS[i]! * 1000 + 1_000);
      }
    }
    const d = await delivery(id);
    expect(d).toMatchObject({ status: "failed", responseCode: 500, lastError: "HTTP 500", nextAttemptAt: null });
    expect(d.attempts).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect(RETRY_DELAYS_SECONDS.reduce((s, x) => s + x, 0)).toBeLessThan(24 * 3600);
    advanceClockForTests(24 * 3_600_000);
    await deliverWebhook(id);
    expect(receiver.to("/down")).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
  });
});

describe("a worker that stops mid-try", () => {
  it("leaves the try logged without an outcome, and the next try is made when due", async () => {
    const ep = await endpointAt("/ok");
    const id = await testEvent(ep.id);
    const prisma = await db();
    // What a claim leaves when its process dies before the answer: the try counted, the next one scheduled.
    await prisma.webhookDelivery.update({ where: { id }, data: { attempts: 1, nextAttemptAt: new Date(now().getTime() + RETRY_DELAYS_SECONDS[0] * 1000) } });
    await prisma.webhookDeliveryAttempt.create({ data: { deliveryId: id, attempt: 1, startedAt: now() } });
    await deliverWebhook(id);
    expect(receiver.received).toHaveLength(0);
    advanceClockForTests(RETRY_DELAYS_SECONDS[0] * 1000 + 1_000);
    await deliverWebhook(id);
    const d = await delivery(id);
    expect(d.status).toBe("delivered");
    expect(d.attempts.map((a: { attempt: number; status: string; error: string | null }) => [a.attempt, a.status, a.error])).toEqual([
      [1, "failed", "no outcome: the worker stopped during the try"],
      [2, "delivered", null],
    ]);
    expect(receiver.to("/ok")).toHaveLength(1);
  });
});

describe("outbound safety", () => {
  it("never calls a private address outside development mode: failed at once, nothing sent", async () => {
    const ep = await endpointAt("/ok");
    const id = await testEvent(ep.id);
    await outsideDevelopment(async () => {
      await deliverWebhook(id);
    });
    expect(receiver.received).toHaveLength(0);
    const d = await delivery(id);
    expect(d).toMatchObject({ status: "failed", responseCode: null, lastError: expect.stringMatching(/private, loopback/) });
    expect(d.attempts).toHaveLength(1);
  });

  it("does not follow a redirect", async () => {
    const ep = await endpointAt("/redirect");
    const id = await testEvent(ep.id);
    await deliverWebhook(id);
    expect(receiver.to("/target")).toHaveLength(0);
    expect(await delivery(id)).toMatchObject({ status: "pending", responseCode: 302, lastError: "HTTP 302 (redirects are not followed)" });
  });

  it("sends nothing to a disabled endpoint, nor makes deliveries for it", async () => {
    const ep = await endpointAt("/ok");
    const id = await testEvent(ep.id);
    await (await db()).webhookEndpoint.update({ where: { id: ep.id }, data: { enabled: false } });
    await deliverWebhook(id);
    expect(await delivery(id)).toMatchObject({ status: "failed", lastError: "the endpoint is disabled" });
    await revokeApproval({ userId: t.users.test.id, agentId: t.agent.id });
    expect(await (await db()).webhookDelivery.count({ where: { endpointId: ep.id } })).toBe(1);
    expect(receiver.received).toHaveLength(0);
  });
});

describe("send again", () => {
  it("makes a new delivery of the same event, with the same webhook-id and body", async () => {
    const ep = await endpointAt("/ok");
    const id = await testEvent(ep.id);
    await deliverWebhook(id);
    const again = await call(resend, { headers: { "x-api-key": t.keys.skTest }, path: `/v1/webhooks/deliveries/${id}/resend`, params: { deliveryId: id } });
    expect(again.status).toBe(202);
    expect(again.body.delivery).toMatchObject({ status: "pending", attempts: [], endpointId: ep.id });
    expect(again.body.delivery.id).not.toBe(id);
    await deliverWebhook(again.body.delivery.id);
    const [a, b] = receiver.to("/ok");
    expect(b!.headers["webhook-id"]).toBe(a!.headers["webhook-id"]);
    expect(b!.raw).toBe(a!.raw);
    expect(await delivery(again.body.delivery.id)).toMatchObject({ status: "delivered" });
  });
});

describe("the worker", () => {
  it("delivers a committed event from the job queue through the relay, with its retry after a 500", async () => {
    await stopJobs();
    await startWebhookWorker();
    try {
      const ep = await endpointAt("/ok", ["approval.revoked"]);
      await revokeApproval({ userId: t.users.test.id, agentId: t.agent.id });
      const row = await (await db()).webhookDelivery.findFirstOrThrow({ where: { endpointId: ep.id } });
      await expect.poll(async () => (await delivery(row.id)).status, { timeout: 20_000, interval: 250 }).toBe("delivered");
      expect(receiver.to("/ok")).toHaveLength(1);

      const flaky = await endpointAt("/fail-once");
      const id = await testEvent(flaky.id);
      await expect.poll(async () => (await delivery(id)).attempts.length, { timeout: 20_000, interval: 250 }).toBe(1);
      advanceClockForTests(RETRY_DELAYS_SECONDS[0] * 1000 + 1_000);
      await expect.poll(async () => (await delivery(id)).status, { timeout: 20_000, interval: 250 }).toBe("delivered");
    } finally {
      await stopJobs();
    }
  });
});
