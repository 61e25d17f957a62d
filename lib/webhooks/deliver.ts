// Delivering webhooks. A relay hands due deliveries (the outbox rows events leave) to the job queue;
// a job makes one try: claimed first, logged as an attempt, POSTed through the service's one outbound
// path (registered http(s) address, no private address outside development mode, pinned connection,
// no redirects, a timeout). A failed try schedules the next on the delivery's own row, by RETRY_DELAYS.
import { createHash } from "node:crypto";
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import { describeStatus, postToRegisteredAddress, type OutboundOutcome } from "../http/outbound";
import { enqueueOnce, onJobsStop, QUEUES, work } from "../platform/jobs";
import { logger } from "../platform/log";
import { processWide } from "../process-wide";
import { signingSecretsOf } from "./endpoints";
import { signWebhook, WEBHOOK_HEADERS } from "./signing";

/**
 * Seconds between a failed try and the next: 1 minute, 10 minutes, 1 hour, 6 hours, 16 hours. Six tries
 * in all; the last comes about 23 hours after the first, then the delivery is failed.
 */
export const RETRY_DELAYS_SECONDS = [60, 600, 3_600, 21_600, 57_600] as const;
export const WEBHOOK_MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/** One try's whole budget: resolving the host, connecting, and the answer's status line. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** A last try claimed by a process that died is retried after this long (it stays within the attempts). */
const LAST_TRY_LEASE_MS = 60_000;
/** How often the relay looks for due deliveries. */
export const RELAY_INTERVAL_MS = 2_000;
const USER_AGENT = "profile-signin-service/webhooks";

/**
 * The queue job of one try of one delivery, a UUID: the relay's repeated passes within a minute queue a
 * due try once; a try still due a minute later (its job lost, or failed before claiming) gets a new job.
 * Two jobs for one try send it once: the claim decides.
 */
function jobIdOf(deliveryId: string, attempts: number, at: Date): string {
  const minute = Math.floor(at.getTime() / 60_000);
  const h = createHash("sha256").update(`${deliveryId}.${attempts}.${minute}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Queues every pending delivery now due (at most 200 at a time): how many it handed over. */
export async function relayDueDeliveries(at: Date = clockNow()): Promise<number> {
  const due = await (
    await db()
  ).webhookDelivery.findMany({
    where: { status: "pending", nextAttemptAt: { lte: at } },
    orderBy: { nextAttemptAt: "asc" },
    take: 200,
    select: { id: true, attempts: true },
  });
  for (const d of due) await enqueueOnce(QUEUES.webhookDeliveries, jobIdOf(d.id, d.attempts, at), { deliveryId: d.id });
  return due.length;
}

/**
 * One try at a pending, due delivery (any other is left alone). 2xx: delivered. A refused address or a
 * disabled endpoint: failed at once, nothing sent. Anything else: the next try is scheduled, or after the
 * last one the delivery is failed. Never throws for the endpoint's sake.
 */
export async function deliverWebhook(deliveryId: string): Promise<void> {
  const prisma = await db();
  const row = await prisma.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true, event: true } });
  const at = clockNow();
  if (!row || row.status !== "pending" || (row.nextAttemptAt && row.nextAttemptAt > at)) return;
  const tries = row.attempts + 1;
  if (tries > WEBHOOK_MAX_ATTEMPTS) {
    await prisma.webhookDelivery.updateMany({ where: { id: row.id, status: "pending" }, data: { status: "failed", nextAttemptAt: null } });
    return;
  }
  const next = tries < WEBHOOK_MAX_ATTEMPTS ? new Date(at.getTime() + RETRY_DELAYS_SECONDS[tries - 1]! * 1000) : new Date(at.getTime() + LAST_TRY_LEASE_MS);
  // The try is claimed first, with the next one already scheduled: of two workers holding it, one sends it,
  // and a process that dies mid-try leaves it to be tried again when that next one is due.
  const claimed = await prisma.webhookDelivery.updateMany({ where: { id: row.id, status: "pending", attempts: row.attempts }, data: { attempts: tries, nextAttemptAt: next } });
  if (claimed.count === 0) return;
  // A try a stopped worker left without an outcome is logged as such.
  await prisma.webhookDeliveryAttempt.updateMany({
    where: { deliveryId: row.id, status: "pending" },
    data: { status: "failed", error: "no outcome: the worker stopped during the try" },
  });
  const attempt = await prisma.webhookDeliveryAttempt.create({ data: { deliveryId: row.id, attempt: tries, startedAt: at } });

  const started = performance.now();
  const outcome: OutboundOutcome = !row.endpoint.enabled
    ? { kind: "refused", reason: "the endpoint is disabled" }
    : await postToRegisteredAddress({
        url: row.endpoint.url,
        timeoutMs: WEBHOOK_TIMEOUT_MS,
        prepare: async () => {
          const sentAt = clockNow();
          const timestampSeconds = Math.floor(sentAt.getTime() / 1000);
          const headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            [WEBHOOK_HEADERS.id]: row.eventId,
            [WEBHOOK_HEADERS.timestamp]: String(timestampSeconds),
            [WEBHOOK_HEADERS.signature]: signWebhook({ secrets: signingSecretsOf(row.endpoint, sentAt), id: row.eventId, timestampSeconds, body: row.event.payload }),
          };
          return { headers, body: row.event.payload };
        },
      }).catch((err: Error): OutboundOutcome => {
        logger().error({ delivery_id: row.id, err: err.message }, "webhook try failed inside the service");
        return { kind: "failed", reason: "the service could not make the request" };
      });
  const durationMs = Math.round(performance.now() - started);
  const responseCode = outcome.kind === "answered" ? outcome.status : null;
  const delivered = responseCode !== null && responseCode >= 200 && responseCode < 300;
  const error = delivered ? null : (outcome.kind === "answered" ? describeStatus(outcome.status) : outcome.reason).slice(0, 200);
  const final = !delivered && (outcome.kind === "refused" || tries >= WEBHOOK_MAX_ATTEMPTS);
  // updateMany: an endpoint removed during the try took its deliveries and their tries with it.
  await prisma.webhookDeliveryAttempt.updateMany({ where: { id: attempt.id }, data: { status: delivered ? "delivered" : "failed", responseCode, durationMs, error } });
  await prisma.webhookDelivery.updateMany({
    where: { id: row.id, status: "pending", attempts: tries },
    data: delivered
      ? { status: "delivered", deliveredAt: clockNow(), responseCode, lastError: null, nextAttemptAt: null }
      : { responseCode, lastError: error, ...(final ? { status: "failed" as const, nextAttemptAt: null } : {}) },
  });
  const log = { delivery_id: row.id, event_id: row.eventId, type: row.event.type, attempt: tries, status: responseCode, duration_ms: durationMs };
  if (delivered) logger().info(log, "webhook delivered");
  else logger().warn({ ...log, error, given_up: final }, "webhook not delivered");
}

const relay = processWide("webhooks.relay", () => ({ timer: undefined as NodeJS.Timeout | undefined, busy: false }));

/** Starts this process's webhook worker and its relay (every RELAY_INTERVAL_MS), which stops with the job system. */
export async function startWebhookWorker(): Promise<void> {
  await work(QUEUES.webhookDeliveries, async (data) => deliverWebhook(String(data.deliveryId)));
  onJobsStop(stopWebhookRelay);
  if (!relay.timer) {
    relay.timer = setInterval(() => {
      if (relay.busy) return;
      relay.busy = true;
      void relayDueDeliveries()
        .catch((err: Error) => logger().error({ err: err.message }, "webhook relay failed"))
        .finally(() => (relay.busy = false));
    }, RELAY_INTERVAL_MS);
    relay.timer.unref();
  }
  await relayDueDeliveries();
}

export async function stopWebhookRelay(): Promise<void> {
  if (relay.timer) clearInterval(relay.timer);
  relay.timer = undefined;
}
