// Emitting an event: inside the transaction of the change it reports, one event row and one delivery
// row (the outbox) per enabled endpoint of the developer's plane that takes it. Nothing is sent here:
// the relay hands due deliveries to the job queue once they are committed (./deliver.ts), so an event
// is delivered at least once if its change commits, and never if it rolls back.
import { now as clockNow } from "../platform/clock";
import type { Prisma } from "../platform/db/generated/client";
import type { Plane } from "../platform/db/generated/enums";
import { newId, PREFIX } from "../platform/ids";
import { ALL_EVENTS, type EventData, type WebhookEventType, type WebhookPayload } from "./catalogue";

type Tx = Prisma.TransactionClient;

/** Records one event for the developer's plane; its id, or null when no endpoint takes it (nothing is stored). */
export async function emitWebhookEvent<T extends WebhookEventType>(tx: Tx, input: { developerId: string; plane: Plane; type: T; data: EventData<T> }): Promise<string | null> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { developerId: input.developerId, plane: input.plane, enabled: true, OR: [{ events: { has: ALL_EVENTS } }, { events: { has: input.type } }] },
    select: { id: true },
  });
  if (!endpoints.length) return null;
  return recordEvent(tx, { ...input, endpointIds: endpoints.map((e) => e.id) });
}

/** Stores an event and its deliveries to `endpointIds`, due now. */
export async function recordEvent(
  tx: Tx,
  input: { developerId: string; plane: Plane; type: string; data: Record<string, unknown>; endpointIds: readonly string[] },
): Promise<string> {
  const id = newId(PREFIX.webhookEvent);
  const at = clockNow();
  const payload: WebhookPayload = { id, type: input.type, createdAt: at.toISOString(), livemode: input.plane === "live", data: input.data };
  await tx.webhookEvent.create({ data: { id, developerId: input.developerId, plane: input.plane, type: input.type, payload: JSON.stringify(payload), createdAt: at } });
  await tx.webhookDelivery.createMany({
    data: input.endpointIds.map((endpointId) => ({
      id: newId(PREFIX.webhookDelivery),
      eventId: id,
      endpointId,
      developerId: input.developerId,
      plane: input.plane,
      nextAttemptAt: at,
      createdAt: at,
    })),
  });
  return id;
}

/** The developer's own ids for the person in the person's plane, sorted. */
async function externalIdsOf(tx: Tx, input: { developerId: string; userId: string }): Promise<string[]> {
  const rows = await tx.externalUserId.findMany({ where: { developerId: input.developerId, userId: input.userId }, select: { externalId: true } });
  return rows.map((r) => r.externalId).sort();
}

/**
 * An event about one person and one agent (approvals, apps), sent to the agent's developer in the
 * person's plane.
 */
export async function emitAgentEvent(
  tx: Tx,
  input: { type: "approval.granted" | "approval.revoked" } | { type: "app.connected" | "app.disconnected"; app: string },
  about: { userId: string; agentId: string },
): Promise<void> {
  const agent = await tx.agent.findUnique({ where: { id: about.agentId }, select: { developerId: true, handle: true } });
  const user = await tx.user.findUnique({ where: { id: about.userId }, select: { plane: true } });
  if (!agent || !user) return;
  const person = { userId: about.userId, externalIds: await externalIdsOf(tx, { developerId: agent.developerId, userId: about.userId }), agent: agent.handle };
  const scope = { developerId: agent.developerId, plane: user.plane };
  if (input.type === "app.connected" || input.type === "app.disconnected") await emitWebhookEvent(tx, { ...scope, type: input.type, data: { ...person, app: input.app } });
  else await emitWebhookEvent(tx, { ...scope, type: input.type, data: person });
}

/**
 * user.deleted, before the person's rows go: to every developer who knew them in their plane — by one
 * of its own user ids, or through an agent they approved (a test-plane person belongs to one developer).
 */
export async function emitUserDeleted(tx: Tx, user: { id: string; plane: Plane }): Promise<void> {
  const linked = await tx.externalUserId.findMany({ where: { userId: user.id }, select: { developerId: true, externalId: true } });
  const approved = await tx.agentApproval.findMany({ where: { userId: user.id }, select: { agent: { select: { developerId: true } } } });
  const developers = new Set([...linked.map((l) => l.developerId), ...approved.map((a) => a.agent.developerId)]);
  for (const developerId of developers) {
    const externalIds = linked
      .filter((l) => l.developerId === developerId)
      .map((l) => l.externalId)
      .sort();
    await emitWebhookEvent(tx, { developerId, plane: user.plane, type: "user.deleted", data: { userId: user.id, externalIds } });
  }
}

/** import_job.completed or import_job.failed, in the transaction that ends the job, to the job's developer and plane. */
export async function emitImportJobEnded(tx: Tx, input: { jobId: string; type: "import_job.completed" | "import_job.failed" }): Promise<void> {
  const job = await tx.importJob.findUnique({
    where: { id: input.jobId },
    select: { developerId: true, plane: true, profilesImported: true, profilesFailed: true, agent: { select: { handle: true } } },
  });
  if (!job) return;
  const data = { jobId: input.jobId, agent: job.agent.handle, profilesImported: job.profilesImported, profilesFailed: job.profilesFailed };
  await emitWebhookEvent(tx, { developerId: job.developerId, plane: job.plane, type: input.type, data });
}
