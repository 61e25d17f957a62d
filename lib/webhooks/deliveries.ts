// The delivery log of a developer's plane (each delivery with its tries), "send again", and the test event.
import { z } from "zod";
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import { isIdOf, newId, PREFIX } from "../platform/ids";
import { ApiError } from "../http/errors";
import { lazyLimiter } from "../platform/ratelimit";
import { TEST_EVENT_TYPE } from "./catalogue";
import { recordEvent } from "./emit";
import { findEndpoint, WEBHOOK_MESSAGES, type WebhookScope } from "./endpoints";

/** Test events and resends a key may ask for in a minute: each makes the service call an address the developer chose. */
export const WEBHOOK_SENDS_PER_MINUTE = 30;
export const webhookSendLimiter = lazyLimiter(() => ({ name: "webhook-sends", points: WEBHOOK_SENDS_PER_MINUTE, durationSeconds: 60 }));

/** How long events and their deliveries are kept (the sweep deletes older ones). */
export const WEBHOOK_LOG_KEPT_MS = 30 * 24 * 3_600_000;
export const DELIVERY_NOT_FOUND = "No webhook delivery with this id in this key's plane.";
export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

const include = { event: { select: { type: true } }, tries: { orderBy: { attempt: "asc" } } } satisfies Prisma.WebhookDeliveryInclude;
type Row = Prisma.WebhookDeliveryGetPayload<{ include: typeof include }>;

/** A delivery as the API and the dashboard show it: its state and every try, oldest first. */
export function deliveryView(d: Row) {
  return {
    id: d.id,
    eventId: d.eventId,
    eventType: d.event.type,
    endpointId: d.endpointId,
    status: d.status,
    responseCode: d.responseCode,
    lastError: d.lastError,
    nextAttemptAt: d.status === "pending" ? (d.nextAttemptAt?.toISOString() ?? null) : null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    attempts: d.tries.map((t) => ({
      attempt: t.attempt,
      status: t.status,
      responseCode: t.responseCode,
      durationMs: t.durationMs,
      error: t.error,
      startedAt: t.startedAt.toISOString(),
    })),
  };
}
export type WebhookDeliveryView = ReturnType<typeof deliveryView>;

export const deliveriesQuery = z.strictObject({
  endpointId: z.string().max(64).optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** The plane's deliveries, newest first, optionally of one endpoint (which must be the developer's) or status. */
export async function listDeliveries(scope: WebhookScope, query: z.infer<typeof deliveriesQuery>): Promise<WebhookDeliveryView[]> {
  if (query.endpointId !== undefined) await findEndpoint(scope, query.endpointId);
  const rows = await (
    await db()
  ).webhookDelivery.findMany({
    where: { developerId: scope.developerId, plane: scope.plane, endpointId: query.endpointId, status: query.status },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
    include,
  });
  return rows.map(deliveryView);
}

export async function getDelivery(scope: WebhookScope, deliveryId: string): Promise<WebhookDeliveryView> {
  const row = isIdOf(PREFIX.webhookDelivery, deliveryId)
    ? await (await db()).webhookDelivery.findFirst({ where: { id: deliveryId, developerId: scope.developerId, plane: scope.plane }, include })
    : null;
  if (!row) throw new ApiError("not_found", DELIVERY_NOT_FOUND);
  return deliveryView(row);
}

/**
 * Send again: a new delivery of the same event to the same endpoint, due now, with its own tries (the
 * same webhook-id and body, so a receiver that already has the event can tell).
 */
export async function resendDelivery(scope: WebhookScope, deliveryId: string): Promise<WebhookDeliveryView> {
  const original = await getDelivery(scope, deliveryId);
  const endpoint = await findEndpoint(scope, original.endpointId);
  if (!endpoint.enabled) throw new ApiError("endpoint_disabled", WEBHOOK_MESSAGES.disabled);
  const at = clockNow();
  const id = newId(PREFIX.webhookDelivery);
  await (
    await db()
  ).webhookDelivery.create({
    data: { id, eventId: original.eventId, endpointId: endpoint.id, developerId: scope.developerId, plane: scope.plane, nextAttemptAt: at, createdAt: at },
  });
  return getDelivery(scope, id);
}

/** A webhook.test event to one endpoint, whatever events it takes: its delivery. */
export async function sendTestEvent(scope: WebhookScope, endpointId: string): Promise<WebhookDeliveryView> {
  const endpoint = await findEndpoint(scope, endpointId);
  if (!endpoint.enabled) throw new ApiError("endpoint_disabled", WEBHOOK_MESSAGES.disabled);
  const prisma = await db();
  const eventId = await prisma.$transaction((tx) =>
    recordEvent(tx, { ...scope, type: TEST_EVENT_TYPE, data: { endpointId: endpoint.id, message: "A test event from the dashboard or the API." }, endpointIds: [endpoint.id] }),
  );
  const row = await prisma.webhookDelivery.findFirstOrThrow({ where: { eventId, endpointId: endpoint.id }, include });
  return deliveryView(row);
}
