// The completion callback of text-back sign-in: recorded once per flow, delivered once from the job
// queue to a registered destination, signed with the secret the developer reads from the API, retried
// on failure up to its limit, never redirected, timed out, and never sent to a private address outside
// development mode. The developer's endpoint is a real local HTTP server.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callbackSecret } from "@/app/v1/auth/sign-in/callback-secret/route";
import { POST as rotateSecret } from "@/app/v1/auth/sign-in/callback-secret/rotate/route";
import { advanceClockForTests, now, resetClockForTests } from "@/lib/platform/clock";
import { deriveKey } from "@/lib/platform/crypto";
import { POST as validate } from "@/app/v1/auth/sign-in/validate/route";
import { verifyAgentToken } from "@/lib/bearer-tokens/agent-token";
import { db } from "@/lib/platform/db";
import { jobs, QUEUES, stopJobs } from "@/lib/platform/jobs";
import { CALLBACK_SECRET_PATTERN, completionCallbackBody, completionPayload } from "@/lib/sign-in/callback-schemas";
import {
  CALLBACK_MAX_ATTEMPTS,
  deliverCompletionCallback,
  dispatchCompletionCallback,
  recordCompletionCallback,
  startCompletionCallbackWorker,
  verifyCompletionSignature,
} from "@/lib/sign-in/completion-callback";
import { registerReturnDestination, removeReturnDestination } from "@/lib/sign-in/destinations";
import { isRefusedAddress } from "@/lib/http/outbound";
import { revokeApproval } from "@/lib/users/approvals";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { outsideDevelopment } from "../helpers/env";
import { call } from "../helpers/http";
import { startRecordingServer } from "../helpers/receiver";

// ─── The developer's endpoint ────────────────────────────────────────────────────────────────────

/**
 * A receiver as docs/sign-in.md writes one: the HMAC-SHA256 of "<t>.<raw body>" under the secret it
 * holds must equal one of the header's v1 values, and t lie within 5 minutes (of the service's clock,
 * which the tests move).
 */
function receiverAccepts(secret: string, header: string | undefined, rawBody: string): boolean {
  const parts = String(header ?? "")
    .split(",")
    .map((p) => p.trim().split("="));
  const t = parts.find(([k]) => k === "t")?.[1];
  if (!t || !/^\d+$/.test(t) || Math.abs(now().getTime() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest();
  return parts.some(([k, v]) => k === "v1" && /^[0-9a-f]{64}$/.test(v ?? "") && timingSafeEqual(Buffer.from(v!, "hex"), expected));
}

/** The secret each /verify/<name> receiver holds: it answers 200 to a callback it verifies, 401 otherwise. */
const receiverSecrets = new Map<string, string>();

/** Answers by path: /ok 200, /fail-once 500 then 200, /down 503, /redirect 302 to /target, /hang never, /verify/<name> as above. */
function startEndpoint() {
  return startRecordingServer(({ path, headers, raw }, res, n) => {
    if (path.startsWith("/verify/")) {
      const held = receiverSecrets.get(path.slice("/verify/".length));
      const ok = held !== undefined && receiverAccepts(held, headers["service-signature"] as string | undefined, raw);
      return void res.writeHead(ok ? 200 : 401, { "content-type": "application/json" }).end("{}");
    }
    if (path === "/hang") return; // never answers
    if (path === "/redirect") return void res.writeHead(302, { location: "/target" }).end();
    const status = path === "/down" ? 503 : path === "/fail-once" && n === 1 ? 500 : 200;
    res.writeHead(status, { "content-type": "application/json" }).end("{}");
  });
}

let endpoint: Awaited<ReturnType<typeof startEndpoint>>;
let t: Tenant;

beforeAll(async () => {
  endpoint = await startEndpoint();
});
afterAll(async () => {
  await endpoint.close();
});
beforeEach(async () => {
  t = await createTenant();
  // A worker started by a test queues what earlier tests left pending: leave it nothing.
  await (await db()).completionCallback.updateMany({ where: { status: "pending" }, data: { status: "failed" } });
  endpoint.received.length = 0;
});

// ─── Helpers ─────────────────────────────────────────────────────────────────────────────────────

/** Records a finished flow's callback as finishing does, with the destination registered unless told not to. */
async function recorded(path: string, opts: { plane?: "live" | "test"; register?: boolean; url?: string } = {}) {
  const plane = opts.plane ?? "live";
  const url = opts.url ?? `${endpoint.base}${path}`;
  const scope = { developerId: t.developer.id, agentId: t.agent.id, plane };
  if (opts.register !== false) {
    // The registration route's rules (https, http only on localhost) do not hold for the addresses the guard refuses.
    if (!(await registerReturnDestination({ ...scope, url }))) await (await db()).returnDestination.create({ data: { ...scope, url } });
  }
  const flowId = `flow_${randomBytes(8).toString("hex")}`;
  const user = plane === "live" ? t.users.live : t.users.test;
  const input = {
    ...scope,
    flowId,
    linkHash: `link_${flowId}`,
    agent: t.agent.handle,
    userId: user.id,
    url,
    journey: "thread-42",
    messageBody: "Is my flight on time?",
    channel: "sms",
  };
  await (await db()).$transaction((tx) => recordCompletionCallback(tx, input));
  const row = await (await db()).completionCallback.findUniqueOrThrow({ where: { flowId } });
  return { flowId, id: row.id, url, userId: user.id, input };
}

async function row(id: string) {
  return (await db()).completionCallback.findUniqueOrThrow({ where: { id } });
}

async function secretFor(key: string): Promise<string> {
  const res = await call(callbackSecret, { headers: { "x-api-key": key } });
  expect(res.status).toBe(200);
  return res.body.secret;
}

// ─── Tests ───────────────────────────────────────────────────────────────────────────────────────

describe("GET /v1/auth/sign-in/callback-secret", () => {
  it("answers the same secret at every read, one per developer and plane", async () => {
    const live = await secretFor(t.keys.sk);
    expect(live).toMatch(CALLBACK_SECRET_PATTERN);
    expect(await secretFor(t.keys.sk)).toBe(live);
    const test = await call(callbackSecret, { headers: { "x-api-key": t.keys.skTest } });
    expect(test.body).toEqual({ secret: expect.stringMatching(CALLBACK_SECRET_PATTERN), createdAt: expect.any(String), previous: null, livemode: false });
    expect(test.body.secret).not.toBe(live);
    const other = await createTenant();
    expect(await secretFor(other.keys.sk)).not.toBe(live);
  });

  it("takes a secret key only", async () => {
    expect((await call(callbackSecret, {})).status).toBe(401);
    const pk = await call(callbackSecret, { headers: { "x-api-key": t.keys.pk } });
    expect(pk.status).toBe(401);
    expect(pk.body.error.code).toBe("secret_key_required");
  });
});

describe("rotating the callback secret", () => {
  afterEach(() => resetClockForTests());

  const rotate = (key: string, body?: unknown) => call(rotateSecret, { headers: { "x-api-key": key }, body: body ?? {} });

  /** Delivers one fresh live callback to /verify/<name> and says whether that receiver accepted it. */
  async function deliveredTo(name: string): Promise<{ accepted: boolean; header: string }> {
    const cb = await recorded(`/verify/${name}`);
    // One try, the last: a receiver's refusal marks the callback failed instead of throwing for a retry.
    await deliverCompletionCallback(cb.id, { final: true });
    const got = endpoint.to(`/verify/${name}`).at(-1)!;
    return { accepted: (await row(cb.id)).status === "delivered", header: String(got.headers["service-signature"]) };
  }

  it("gives a new secret; for the overlap callbacks carry both signatures, so receivers holding either verify; after it, only the new one", async () => {
    const old = await secretFor(t.keys.sk);
    receiverSecrets.set(`old-${t.developer.id}`, old);
    expect((await deliveredTo(`old-${t.developer.id}`)).accepted).toBe(true);

    const rotatedAt = now().getTime();
    const rotated = await rotate(t.keys.sk);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).toMatch(CALLBACK_SECRET_PATTERN);
    expect(fresh).not.toBe(old);
    expect(rotated.body.livemode).toBe(true);
    expect(Date.parse(rotated.body.previous.expiresAt) - rotatedAt).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(Date.parse(rotated.body.previous.expiresAt) - now().getTime()).toBeLessThanOrEqual(24 * 3_600_000);
    // Read again: the new secret, and when the old one stops.
    const read = await call(callbackSecret, { headers: { "x-api-key": t.keys.sk } });
    expect(read.body).toEqual(rotated.body);
    receiverSecrets.set(`new-${t.developer.id}`, fresh);

    // During the overlap: two v1 values, the new secret's first; the old receiver and the new both accept.
    const during = await deliveredTo(`old-${t.developer.id}`);
    expect(during.header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(during.accepted).toBe(true);
    expect((await deliveredTo(`new-${t.developer.id}`)).accepted).toBe(true);
    const got = endpoint.to(`/verify/new-${t.developer.id}`).at(-1)!;
    expect(verifyCompletionSignature(fresh, String(got.headers["service-signature"]), got.raw)).toBe(true);
    expect(verifyCompletionSignature(old, String(got.headers["service-signature"]), got.raw)).toBe(true);

    // A minute before the overlap ends the old secret still signs; after it, only the new one does.
    advanceClockForTests(24 * 3_600_000 - 60_000);
    expect((await deliveredTo(`old-${t.developer.id}`)).accepted).toBe(true);
    advanceClockForTests(61_000);
    const after = await deliveredTo(`old-${t.developer.id}`);
    expect(after.header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(after.accepted).toBe(false);
    expect((await deliveredTo(`new-${t.developer.id}`)).accepted).toBe(true);
    expect((await call(callbackSecret, { headers: { "x-api-key": t.keys.sk } })).body).toMatchObject({ secret: fresh, previous: null });
  });

  it("ends the old secret at once with overlapHours 0, and a second rotation ends the first one's overlap: never more than two signatures", async () => {
    const first = await secretFor(t.keys.sk);
    const second = (await rotate(t.keys.sk)).body.secret as string;
    const rotatedAt = now().getTime();
    const third = await rotate(t.keys.sk, { overlapHours: 2 });
    expect(Date.parse(third.body.previous.expiresAt) - rotatedAt).toBeGreaterThanOrEqual(2 * 3_600_000);
    expect(Date.parse(third.body.previous.expiresAt) - now().getTime()).toBeLessThanOrEqual(2 * 3_600_000);
    receiverSecrets.set(`first-${t.developer.id}`, first);
    receiverSecrets.set(`second-${t.developer.id}`, second);
    receiverSecrets.set(`third-${t.developer.id}`, third.body.secret);
    const signed = await deliveredTo(`first-${t.developer.id}`);
    expect(signed.accepted).toBe(false);
    expect(signed.header.split(",").filter((p) => p.startsWith("v1="))).toHaveLength(2);
    expect((await deliveredTo(`second-${t.developer.id}`)).accepted).toBe(true);
    expect((await deliveredTo(`third-${t.developer.id}`)).accepted).toBe(true);

    const now0 = await rotate(t.keys.sk, { overlapHours: 0 });
    expect(now0.body.previous).toBeNull();
    receiverSecrets.set(`fourth-${t.developer.id}`, now0.body.secret);
    expect((await deliveredTo(`third-${t.developer.id}`)).accepted).toBe(false);
    expect((await deliveredTo(`fourth-${t.developer.id}`)).accepted).toBe(true);
  });

  it("rotates only the key's developer and plane", async () => {
    const other = await createTenant();
    const [otherLive, otherTest, ownTest] = [await secretFor(other.keys.sk), await secretFor(other.keys.skTest), await secretFor(t.keys.skTest)];
    await rotate(t.keys.sk);
    expect(await secretFor(other.keys.sk)).toBe(otherLive);
    expect(await secretFor(other.keys.skTest)).toBe(otherTest);
    expect(await secretFor(t.keys.skTest)).toBe(ownTest);
    // A test key rotates the test plane's, and says so.
    const test = await rotate(t.keys.skTest);
    expect(test.body.livemode).toBe(false);
    expect(await secretFor(t.keys.skTest)).toBe(test.body.secret);
    expect(await secretFor(other.keys.skTest)).toBe(otherTest);
    // Another developer's receiver never verifies this developer's callbacks, before or after a rotation.
    receiverSecrets.set(`other-${t.developer.id}`, otherLive);
    expect((await deliveredTo(`other-${t.developer.id}`)).accepted).toBe(false);
  });

  it("keeps the secret a developer had before secrets were stored until it rotates, so its receivers keep verifying", async () => {
    // As the migration leaves a developer that existed before it: generation 1, the derived secret (sealed null).
    const prisma = await db();
    await prisma.callbackSecret.deleteMany({ where: { developerId: t.developer.id } });
    await prisma.callbackSecret.createMany({ data: (["live", "test"] as const).map((plane) => ({ developerId: t.developer.id, plane, generation: 1, sealed: null })) });
    // What the service answered, and signed with, before: whsec_ and the HMAC of "<developer>.<plane>" under its derived key.
    const before = "whsec_" + createHmac("sha256", deriveKey("sign-in.completion-callback-secret")).update(`${t.developer.id}.live`).digest("base64url");
    expect(await secretFor(t.keys.sk)).toBe(before);
    receiverSecrets.set(`legacy-${t.developer.id}`, before);
    expect((await deliveredTo(`legacy-${t.developer.id}`)).accepted).toBe(true);
    await rotate(t.keys.sk);
    expect((await deliveredTo(`legacy-${t.developer.id}`)).accepted).toBe(true);
    advanceClockForTests(24 * 3_600_000 + 1_000);
    expect((await deliveredTo(`legacy-${t.developer.id}`)).accepted).toBe(false);
  });

  it("refuses a bad overlap and a publishable key, changing nothing", async () => {
    const before = await call(callbackSecret, { headers: { "x-api-key": t.keys.sk } });
    for (const body of [{ overlapHours: 169 }, { overlapHours: -1 }, { overlapHours: 1.5 }, { overlapHours: "24" }, { overlap: 24 }]) {
      const res = await rotate(t.keys.sk, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    const pk = await rotate(t.keys.pk);
    expect(pk.status).toBe(401);
    expect(pk.body.error.code).toBe("secret_key_required");
    expect((await call(rotateSecret, { body: {} })).status).toBe(401);
    expect((await call(callbackSecret, { headers: { "x-api-key": t.keys.sk } })).body).toEqual(before.body);
  });
});

describe("recording", () => {
  it("keeps one callback per flow, its payload without any token", async () => {
    const cb = await recorded("/ok");
    await (await db()).$transaction((tx) => recordCompletionCallback(tx, { ...cb.input, url: `${endpoint.base}/other`, journey: "changed" }));
    // A second flow opened from the same signed link: its callback is not recorded (one per link).
    await (await db()).$transaction((tx) => recordCompletionCallback(tx, { ...cb.input, flowId: `${cb.flowId}_2` }));
    expect(await (await db()).completionCallback.count({ where: { linkHash: cb.input.linkHash } })).toBe(1);
    const rows = await (await db()).completionCallback.findMany({ where: { flowId: cb.flowId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: cb.id, url: cb.url, status: "pending", attempts: 0, lastError: null, deliveredAt: null, plane: "live" });
    const payload = completionPayload.parse(JSON.parse(rows[0]!.payload));
    expect(payload).toEqual({
      type: "sign_in.completed",
      id: cb.id,
      createdAt: rows[0]!.createdAt.toISOString(),
      agent: t.agent.handle,
      userId: t.users.live.id,
      tokenUse: "agent",
      journey: "thread-42",
      messageBody: "Is my flight on time?",
      channel: "sms",
      livemode: true,
    });
    expect(rows[0]!.payload).not.toMatch(/token"|eyJ/);
  });
});

describe("delivery", () => {
  it("is queued on dispatch and delivered once, signed, with an agent token that validates", async () => {
    await stopJobs();
    await startCompletionCallbackWorker();
    const cb = await recorded("/ok");
    await dispatchCompletionCallback(cb.flowId);
    await expect.poll(async () => (await row(cb.id)).status, { timeout: 20_000, interval: 200 }).toBe("delivered");
    const done = await row(cb.id);
    expect(done.attempts).toBe(1);
    expect(done.deliveredAt).not.toBeNull();
    expect(done.lastError).toBeNull();

    const [got] = endpoint.to("/ok");
    expect(endpoint.to("/ok")).toHaveLength(1);
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(got!.headers["service-callback-id"]).toBe(cb.id);
    const body = completionCallbackBody.parse(JSON.parse(got!.raw));
    expect(body).toMatchObject({
      type: "sign_in.completed",
      id: cb.id,
      agent: t.agent.handle,
      userId: t.users.live.id,
      tokenUse: "agent",
      journey: "thread-42",
      messageBody: "Is my flight on time?",
      channel: "sms",
      livemode: true,
    });
    expect(await verifyAgentToken(body.token)).toEqual({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
    const valid = await call(validate, { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle }, body: { token: body.token } });
    expect(valid.body).toMatchObject({ valid: true, userId: t.users.live.id, tokenUse: "agent", approved: true, agent: t.agent.handle });
    // The token was minted for the try: the stored payload still holds none.
    expect(done.payload).not.toContain(body.token);

    // A second dispatch, or the job run again, sends nothing.
    await dispatchCompletionCallback(cb.flowId);
    await deliverCompletionCallback(cb.id);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(endpoint.to("/ok")).toHaveLength(1);
    expect((await row(cb.id)).attempts).toBe(1);
    await stopJobs();
  });

  it("signs the raw body with the plane's secret: a tampered body, an old timestamp or the other plane's secret fail", async () => {
    const cb = await recorded("/ok", { plane: "test" });
    await deliverCompletionCallback(cb.id);
    const [got] = endpoint.to("/ok");
    const header = String(got!.headers["service-signature"]);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const secret = await secretFor(t.keys.skTest);
    expect(verifyCompletionSignature(secret, header, got!.raw)).toBe(true);
    expect(verifyCompletionSignature(secret, header, Buffer.from(got!.raw))).toBe(true);
    expect(verifyCompletionSignature(secret, header, got!.raw.replace('"livemode":false', '"livemode":true'))).toBe(false);
    expect(verifyCompletionSignature(secret, header, `${got!.raw} `)).toBe(false);
    expect(verifyCompletionSignature(await secretFor(t.keys.sk), header, got!.raw)).toBe(false);
    const t0 = Number(/t=(\d+)/.exec(header)![1]) * 1000;
    expect(verifyCompletionSignature(secret, header, got!.raw, { now: t0 + 299_000 })).toBe(true);
    expect(verifyCompletionSignature(secret, header, got!.raw, { now: new Date(t0 + 301_000) })).toBe(false);
    expect(verifyCompletionSignature(secret, header, got!.raw, { now: t0 + 301_000, toleranceSeconds: 600 })).toBe(true);
    // Another timestamp under the same signature, or a missing part, is refused.
    expect(
      verifyCompletionSignature(
        secret,
        header.replace(/t=(\d+)/, (_, s: string) => `t=${Number(s) - 1}`),
        got!.raw,
      ),
    ).toBe(false);
    for (const bad of ["", "v1=abc", header.split(",")[0]!, "t=x,v1=y", "garbage"]) expect(verifyCompletionSignature(secret, bad, got!.raw)).toBe(false);
    expect(verifyCompletionSignature(secret, undefined, got!.raw)).toBe(false);
    const body = completionCallbackBody.parse(JSON.parse(got!.raw));
    expect(await verifyAgentToken(body.token)).toMatchObject({ plane: "test", userId: t.users.test.id, agentId: t.agent.id });
  });

  it("is tried again after a 500 and delivered on the next try", async () => {
    const cb = await recorded("/fail-once");
    await expect(deliverCompletionCallback(cb.id)).rejects.toThrow(/HTTP 500/);
    expect(await row(cb.id)).toMatchObject({ status: "pending", attempts: 1, lastError: "HTTP 500" });
    await deliverCompletionCallback(cb.id);
    expect(await row(cb.id)).toMatchObject({ status: "delivered", attempts: 2, lastError: null });
    const [first, second] = endpoint.to("/fail-once");
    // Each try carries a token minted for it, under the same callback id.
    for (const got of [first!, second!]) {
      expect(got.headers["service-callback-id"]).toBe(cb.id);
      expect(await verifyAgentToken(JSON.parse(got.raw).token)).toMatchObject({ userId: t.users.live.id, plane: "live" });
    }
  });

  it(`is given up after ${CALLBACK_MAX_ATTEMPTS} failed tries, or at the queue's final one`, async () => {
    const cb = await recorded("/down");
    for (let i = 1; i < CALLBACK_MAX_ATTEMPTS; i++) await expect(deliverCompletionCallback(cb.id)).rejects.toThrow(/HTTP 503/);
    await deliverCompletionCallback(cb.id); // the last try marks it failed instead of asking for another
    expect(await row(cb.id)).toMatchObject({ status: "failed", attempts: CALLBACK_MAX_ATTEMPTS, lastError: "HTTP 503", deliveredAt: null });
    await deliverCompletionCallback(cb.id);
    expect(endpoint.to("/down")).toHaveLength(CALLBACK_MAX_ATTEMPTS);

    const last = await recorded("/down");
    await deliverCompletionCallback(last.id, { final: true });
    expect(await row(last.id)).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("retries on the job queue with exponential backoff, at most the limit", async () => {
    const queue = await (await jobs()).getQueue(QUEUES.completionCallback);
    expect(queue).toMatchObject({ retryLimit: CALLBACK_MAX_ATTEMPTS - 1, retryBackoff: true });
    expect(CALLBACK_MAX_ATTEMPTS).toBeLessThanOrEqual(5);
    await stopJobs();
  });

  it("never calls a destination that is not registered, or no longer is", async () => {
    const cb = await recorded("/ok", { register: false });
    await deliverCompletionCallback(cb.id);
    expect(await row(cb.id)).toMatchObject({ status: "failed", attempts: 1, lastError: expect.stringMatching(/not a registered return destination/) });

    const removed = await recorded("/ok");
    await removeReturnDestination({ developerId: t.developer.id, agentId: t.agent.id, plane: "live", url: removed.url });
    await deliverCompletionCallback(removed.id);
    expect((await row(removed.id)).status).toBe("failed");

    // Registered for the other plane only.
    const otherPlane = await recorded("/ok", { register: false, plane: "test" });
    await registerReturnDestination({ developerId: t.developer.id, agentId: t.agent.id, plane: "live", url: otherPlane.url });
    await deliverCompletionCallback(otherPlane.id);
    expect((await row(otherPlane.id)).status).toBe("failed");
    expect(endpoint.received).toHaveLength(0);
  });

  it("sends nothing, and mints no token, once the person no longer approves the agent", async () => {
    const t2 = await createTenant();
    const keep = t;
    t = t2;
    try {
      const cb = await recorded("/ok");
      await revokeApproval({ userId: t2.users.live.id, agentId: t2.agent.id });
      await deliverCompletionCallback(cb.id);
      expect(await row(cb.id)).toMatchObject({ status: "failed", attempts: 1, lastError: "the person no longer approves the agent" });
      expect(endpoint.received).toHaveLength(0);
    } finally {
      t = keep;
    }
  });

  it("does not follow a redirect", async () => {
    const cb = await recorded("/redirect");
    await expect(deliverCompletionCallback(cb.id)).rejects.toThrow(/302/);
    expect(await row(cb.id)).toMatchObject({ status: "pending", attempts: 1, lastError: "HTTP 302 (redirects are not followed)" });
    expect(endpoint.to("/redirect")).toHaveLength(1);
    expect(endpoint.to("/target")).toHaveLength(0);
  });

  it("gives up a try that gets no answer in time", async () => {
    const cb = await recorded("/hang");
    await expect(deliverCompletionCallback(cb.id)).rejects.toThrow(/timed out/);
    expect(await row(cb.id)).toMatchObject({ status: "pending", attempts: 1, lastError: "timed out after 5 s" });
  });

  it("connects to the addresses it resolved and checked, for a host name too", async () => {
    const cb = await recorded("/ok", { url: `http://localhost:${new URL(endpoint.base).port}/ok` });
    await deliverCompletionCallback(cb.id);
    expect(await row(cb.id)).toMatchObject({ status: "delivered", attempts: 1 });
    expect(endpoint.to("/ok")[0]!.headers.host).toBe(`localhost:${new URL(endpoint.base).port}`);
  });

  it("records a refused connection without the request's details", async () => {
    const closed = await startEndpoint();
    const url = `${closed.base}/ok`;
    await closed.close();
    const cb = await recorded("/ok", { url });
    await expect(deliverCompletionCallback(cb.id)).rejects.toThrow(/connection failed/);
    expect((await row(cb.id)).lastError).toBe("connection failed (ECONNREFUSED)");
  });

  it("is queued by a worker that starts after the process that finished the flow stopped", async () => {
    await stopJobs();
    const cb = await recorded("/ok"); // finished, never dispatched
    await startCompletionCallbackWorker();
    await expect.poll(async () => (await row(cb.id)).status, { timeout: 20_000, interval: 200 }).toBe("delivered");
    expect(endpoint.to("/ok")).toHaveLength(1);
    await stopJobs();
  });
});

describe("outside development mode", () => {
  it("refuses loopback, private, link-local and mapped addresses without making a request", async () => {
    const port = new URL(endpoint.base).port;
    const urls = [
      `${endpoint.base}/ok`,
      `http://localhost:${port}/ok`,
      `https://10.0.0.1:${port}/ok`,
      `https://169.254.169.254/latest/meta-data`,
      `https://[::ffff:127.0.0.1]:${port}/ok`,
      `https://[::1]:${port}/ok`,
    ];
    const ids: string[] = [];
    for (const url of urls) ids.push((await recorded("/ok", { url })).id);
    await outsideDevelopment(async () => {
      for (const id of ids) await deliverCompletionCallback(id);
    });
    for (const id of ids) {
      expect(await row(id), (await row(id)).url).toMatchObject({
        status: "failed",
        attempts: 1,
        lastError: "the host resolves to a private, loopback, link-local or reserved address",
      });
    }
    expect(endpoint.received).toHaveLength(0);
  });
});

describe("isRefusedAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.255.254",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "0.0.0.0",
    "0.1.2.3",
    "224.0.0.1",
    "239.255.255.250",
    "255.255.255.255",
    "::1",
    "::",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "febf::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:a9fe:a9fe",
    "::ffff:192.168.0.1",
    "0:0:0:0:0:ffff:7f00:0001",
    "::127.0.0.1",
    "64:ff9b::a00:1",
    "64:ff9b::169.254.169.254",
    "2002:7f00:1::1",
    "2002:a00:1::",
    "localhost",
    "example.com",
    "",
    "1.2.3",
  ])("refuses %s", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "172.15.255.255",
    "100.128.0.1",
    "100.63.255.255",
    "192.169.0.1",
    "11.0.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("allows %s", (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });
});
