// The webhook endpoints API (/v1/webhooks/…): each route's answers and contract, bad input refused with a
// clear 400 that changes nothing, and tenancy: a key sees and touches only its own developer's endpoints
// and deliveries in its own plane; anything else is 404, as an id that does not exist.
import { beforeEach, describe, expect, it } from "vitest";
import { GET as getDelivery } from "@/app/v1/webhooks/deliveries/[deliveryId]/route";
import { POST as resend } from "@/app/v1/webhooks/deliveries/[deliveryId]/resend/route";
import { GET as listDeliveries } from "@/app/v1/webhooks/deliveries/route";
import { DELETE as removeEndpoint, GET as getEndpoint, PATCH as patchEndpoint } from "@/app/v1/webhooks/endpoints/[endpointId]/route";
import { POST as rotate } from "@/app/v1/webhooks/endpoints/[endpointId]/secret/rotate/route";
import { GET as readSecret } from "@/app/v1/webhooks/endpoints/[endpointId]/secret/route";
import { POST as sendTest } from "@/app/v1/webhooks/endpoints/[endpointId]/test/route";
import { GET as listEndpoints, POST as createEndpoint } from "@/app/v1/webhooks/endpoints/route";
import { db } from "@/lib/platform/db";
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_MESSAGES } from "@/lib/webhooks/endpoints";
import { WEBHOOK_SECRET_PATTERN } from "@/lib/webhooks/signing";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let a: Tenant;
let b: Tenant;
beforeEach(async () => {
  a = await createTenant();
  b = await createTenant();
});

const key = (k: string) => ({ "x-api-key": k });
const at = (id: string, suffix = "") => ({ path: `/v1/webhooks/endpoints/${id}${suffix}`, params: { endpointId: id } });

async function create(k: string, body: Record<string, unknown> = { url: "https://hooks.example.com/profile" }) {
  const res = await call(createEndpoint, { headers: key(k), body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { endpoint: { id: string; url: string; events: string[]; enabled: boolean }; secret: string; livemode: boolean };
}

async function endpointCount(developerId: string) {
  return (await db()).webhookEndpoint.count({ where: { developerId } });
}

describe("endpoints", () => {
  it("creates an endpoint in the key's plane and shows its secret once; reads never carry it", async () => {
    const made = await create(a.keys.sk, { url: "https://hooks.example.com/profile#frag", description: "prod", events: ["user.deleted", "approval.revoked", "user.deleted"] });
    expect(made).toMatchObject({
      endpoint: {
        id: expect.stringMatching(/^whe_[A-Za-z0-9]{24}$/),
        url: "https://hooks.example.com/profile",
        description: "prod",
        events: ["approval.revoked", "user.deleted"],
        enabled: true,
        previousSecretExpiresAt: null,
      },
      livemode: true,
    });
    expect(made.secret).toMatch(WEBHOOK_SECRET_PATTERN);
    const row = await (await db()).webhookEndpoint.findUniqueOrThrow({ where: { id: made.endpoint.id } });
    expect(row.plane).toBe("live");
    expect(row.secretSealed).not.toContain(made.secret.slice(6, 20));

    const list = await call(listEndpoints, { headers: key(a.keys.sk) });
    expect(list.body.endpoints).toEqual([made.endpoint]);
    expect(JSON.stringify(list.body)).not.toContain(made.secret);
    const one = await call(getEndpoint, { headers: key(a.keys.sk), ...at(made.endpoint.id) });
    expect(one.body.endpoint).toEqual(made.endpoint);
    const secret = await call(readSecret, { headers: key(a.keys.sk), ...at(made.endpoint.id, "/secret") });
    expect(secret.body).toEqual({ secret: made.secret, previous: null, livemode: true });
  });

  it("takes every event by default, and http://localhost on the test plane only", async () => {
    const test = await create(a.keys.skTest, { url: "http://localhost:4000/hook" });
    expect(test).toMatchObject({ endpoint: { url: "http://localhost:4000/hook", events: ["*"] }, livemode: false });
    const live = await call(createEndpoint, { headers: key(a.keys.sk), body: { url: "http://localhost:4000/hook" } });
    expect(live.status).toBe(400);
    expect(live.body.error).toMatchObject({ code: "invalid_request", message: WEBHOOK_MESSAGES.invalidUrl, field: "url" });
  });

  it("refuses bad input with a clear 400 and changes nothing", async () => {
    const made = await create(a.keys.skTest, { url: "https://hooks.example.com/a" });
    const before = await (await db()).webhookEndpoint.findUniqueOrThrow({ where: { id: made.endpoint.id } });
    for (const body of [
      { url: "http://hooks.example.com/a" },
      { url: "ftp://hooks.example.com/a" },
      { url: "https://user:pw@hooks.example.com/a" },
      { url: "myapp://callback" },
      { url: "not a url" },
      { url: "https://hooks.example.com/a", events: ["approval.maybe"] },
      { url: "https://hooks.example.com/a", events: [] },
      { url: "https://hooks.example.com/a", extra: 1 },
      {},
    ]) {
      const res = await call(createEndpoint, { headers: key(a.keys.skTest), body });
      expect([res.status, res.body.error.code], JSON.stringify(body)).toEqual([400, "invalid_request"]);
    }
    for (const body of [{}, { url: "http://hooks.example.com/b" }, { enabled: "yes" }, { events: ["nope"] }]) {
      const res = await call(patchEndpoint, { headers: key(a.keys.skTest), ...at(made.endpoint.id), body });
      expect([res.status, res.body.error.code], JSON.stringify(body)).toEqual([400, "invalid_request"]);
    }
    for (const body of [{ overlapHours: -1 }, { overlapHours: 169 }, { overlapHours: 1.5 }]) {
      const res = await call(rotate, { headers: key(a.keys.skTest), ...at(made.endpoint.id, "/secret/rotate"), body });
      expect(res.status).toBe(400);
    }
    expect(await (await db()).webhookEndpoint.findUniqueOrThrow({ where: { id: made.endpoint.id } })).toEqual(before);
    expect(await endpointCount(a.developer.id)).toBe(1);
    const query = await call(listDeliveries, { headers: key(a.keys.skTest), query: { status: "lost" } });
    expect(query.status).toBe(400);
  });

  it(`keeps at most ${MAX_WEBHOOK_ENDPOINTS} endpoints per plane`, async () => {
    await (
      await db()
    ).webhookEndpoint.createMany({
      data: Array.from({ length: MAX_WEBHOOK_ENDPOINTS }, (_, i) => ({
        id: `whe_${String(i).padStart(24, "x")}`,
        developerId: a.developer.id,
        plane: "live" as const,
        url: "https://h.example.com/",
        events: ["*"],
        secretSealed: "v1.x.y.z",
      })),
    });
    const res = await call(createEndpoint, { headers: key(a.keys.sk), body: { url: "https://hooks.example.com/a" } });
    expect(res.body.error).toMatchObject({ code: "invalid_request", message: WEBHOOK_MESSAGES.tooMany });
    await create(a.keys.skTest);
  });

  it("updates, disables and removes an endpoint", async () => {
    const made = await create(a.keys.sk);
    const patched = await call(patchEndpoint, {
      headers: key(a.keys.sk),
      ...at(made.endpoint.id),
      body: { enabled: false, events: ["import_job.failed"], url: "https://other.example.com/x" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.endpoint).toMatchObject({ enabled: false, events: ["import_job.failed"], url: "https://other.example.com/x" });
    const test = await call(sendTest, { headers: key(a.keys.sk), ...at(made.endpoint.id, "/test") });
    expect([test.status, test.body.error.code]).toEqual([409, "endpoint_disabled"]);
    const removed = await call(removeEndpoint, { headers: key(a.keys.sk), ...at(made.endpoint.id) });
    expect(removed.body).toEqual({ deleted: true, id: made.endpoint.id, livemode: true });
    expect((await call(getEndpoint, { headers: key(a.keys.sk), ...at(made.endpoint.id) })).status).toBe(404);
  });

  it("rotates the secret: the old one signs on for the overlap, then a second rotation ends it", async () => {
    const made = await create(a.keys.sk);
    const first = await call(rotate, { headers: key(a.keys.sk), ...at(made.endpoint.id, "/secret/rotate"), body: {} });
    expect(first.body).toMatchObject({ secret: expect.stringMatching(WEBHOOK_SECRET_PATTERN), previous: { expiresAt: expect.any(String) } });
    expect(first.body.secret).not.toBe(made.secret);
    const hours = (Date.parse(first.body.previous.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const now = await call(rotate, { headers: key(a.keys.sk), ...at(made.endpoint.id, "/secret/rotate"), body: { overlapHours: 0 } });
    expect(now.body.previous).toBeNull();
    expect((await call(readSecret, { headers: key(a.keys.sk), ...at(made.endpoint.id, "/secret") })).body.secret).toBe(now.body.secret);
  });
});

describe("sends on request", () => {
  it("limits test events and resends together, per key and minute", async () => {
    const { WEBHOOK_SENDS_PER_MINUTE } = await import("@/lib/webhooks/deliveries");
    const made = await create(a.keys.skTest, { url: "https://hooks.example.com/t" });
    let last = await call(sendTest, { headers: key(a.keys.skTest), ...at(made.endpoint.id, "/test") });
    for (let i = 1; i < WEBHOOK_SENDS_PER_MINUTE; i++) last = await call(sendTest, { headers: key(a.keys.skTest), ...at(made.endpoint.id, "/test") });
    expect(last.status).toBe(202);
    const refused = await call(resend, {
      headers: key(a.keys.skTest),
      path: `/v1/webhooks/deliveries/${last.body.delivery.id}/resend`,
      params: { deliveryId: last.body.delivery.id },
    });
    expect([refused.status, refused.body.error.code]).toEqual([429, "rate_limited"]);
    expect(await (await db()).webhookDelivery.count({ where: { endpointId: made.endpoint.id } })).toBe(WEBHOOK_SENDS_PER_MINUTE);
  });
});

describe("tenancy", () => {
  it("never shows or changes another developer's endpoint, nor the other plane's", async () => {
    const mine = await create(a.keys.sk);
    for (const other of [b.keys.sk, a.keys.skTest, b.keys.skTest]) {
      const calls = [
        call(getEndpoint, { headers: key(other), ...at(mine.endpoint.id) }),
        call(patchEndpoint, { headers: key(other), ...at(mine.endpoint.id), body: { enabled: false } }),
        call(readSecret, { headers: key(other), ...at(mine.endpoint.id, "/secret") }),
        call(rotate, { headers: key(other), ...at(mine.endpoint.id, "/secret/rotate"), body: {} }),
        call(sendTest, { headers: key(other), ...at(mine.endpoint.id, "/test") }),
        call(removeEndpoint, { headers: key(other), ...at(mine.endpoint.id) }),
        call(listDeliveries, { headers: key(other), query: { endpointId: mine.endpoint.id } }),
      ];
      for (const res of await Promise.all(calls)) expect([res.status, res.body.error.code]).toEqual([404, "not_found"]);
      expect((await call(listEndpoints, { headers: key(other) })).body.endpoints).toEqual([]);
    }
    const still = await (await db()).webhookEndpoint.findUniqueOrThrow({ where: { id: mine.endpoint.id } });
    expect(still).toMatchObject({ enabled: true });
    expect((await call(readSecret, { headers: key(a.keys.sk), ...at(mine.endpoint.id, "/secret") })).body.secret).toBe(mine.secret);
  });

  it("never shows or resends another developer's delivery, nor the other plane's", async () => {
    const mine = await create(a.keys.sk);
    const sent = await call(sendTest, { headers: key(a.keys.sk), ...at(mine.endpoint.id, "/test") });
    expect(sent.status).toBe(202);
    const id = sent.body.delivery.id as string;
    expect(sent.body.delivery).toMatchObject({ id: expect.stringMatching(/^whd_/), eventType: "webhook.test", endpointId: mine.endpoint.id, status: "pending", attempts: [] });
    for (const other of [b.keys.sk, a.keys.skTest]) {
      const one = await call(getDelivery, { headers: key(other), path: `/v1/webhooks/deliveries/${id}`, params: { deliveryId: id } });
      expect([one.status, one.body.error.code]).toEqual([404, "not_found"]);
      const again = await call(resend, { headers: key(other), path: `/v1/webhooks/deliveries/${id}/resend`, params: { deliveryId: id } });
      expect(again.status).toBe(404);
      expect((await call(listDeliveries, { headers: key(other) })).body.deliveries).toEqual([]);
    }
    const own = await call(listDeliveries, { headers: key(a.keys.sk) });
    expect(own.body.deliveries.map((d: { id: string }) => d.id)).toEqual([id]);
    expect(await (await db()).webhookDelivery.count({ where: { endpointId: mine.endpoint.id } })).toBe(1);
  });

  it("answers 404 for ids of the wrong shape without a lookup", async () => {
    for (const id of ["whe_short", "x".repeat(300), "whe_\u0000aaaaaaaaaaaaaaaaaaaaaaa"]) {
      const res = await call(getEndpoint, { headers: key(a.keys.sk), path: "/v1/webhooks/endpoints/x", params: { endpointId: id } });
      expect(res.status).toBe(404);
    }
  });
});

describe("docs/webhooks.md", () => {
  it("lists every event type, the test event and the retry schedule the service keeps", async () => {
    const { readFileSync } = await import("node:fs");
    const { WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE } = await import("@/lib/webhooks/catalogue");
    const { RETRY_DELAYS_SECONDS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_TIMEOUT_MS } = await import("@/lib/webhooks/deliver");
    const doc = readFileSync(new URL("../../docs/webhooks.md", import.meta.url), "utf8");
    for (const type of [...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE]) expect(doc, type).toContain(`| \`${type}\` |`);
    expect(RETRY_DELAYS_SECONDS).toEqual([60, 600, 3_600, 21_600, 57_600]);
    expect(doc).toContain("1 minute later, then 10 minutes, 1 hour, 6 hours and\n  16 hours: **six tries in all");
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(6);
    expect(doc).toContain(`A try** has ${WEBHOOK_TIMEOUT_MS / 1000} seconds`);
  });
});
