// A developer's webhook endpoints, per plane: the address (the registration rule of return destinations;
// https only on the live plane), the events taken, the enabled flag, and the signing secret — stored
// sealed, shown on creation and on an explicit read, rotated with an overlap during which deliveries carry
// a signature under each, as callback secrets are (lib/sign-in/callback-secrets.ts).
import { now as clockNow } from "../platform/clock";
import { openSecret, sealSecret } from "../platform/crypto";
import { db } from "../platform/db";
import type { WebhookEndpoint } from "../platform/db/generated/client";
import type { Plane } from "../platform/db/generated/enums";
import { isIdOf, newId, PREFIX } from "../platform/ids";
import { ApiError } from "../http/errors";
import { registrableWebUrl } from "../http/outbound";
import { ALL_EVENTS } from "./catalogue";
import { newWebhookSecret } from "./signing";

const SEAL_PURPOSE = "webhooks.endpoint-secret.sealed";
/** How long a replaced secret keeps signing, by default and at most (hours), as for callback secrets. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;
export const WEBHOOK_SECRET_MAX_OVERLAP_HOURS = 168;
/** The most endpoints a developer keeps per plane. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export const WEBHOOK_MESSAGES = {
  invalidUrl: "url must be an absolute https URL without credentials (on the test plane, http://localhost too).",
  tooMany: `A developer keeps at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints per plane: remove one first.`,
  notFound: "No webhook endpoint with this id in this key's plane.",
  disabled: "This webhook endpoint is disabled: enable it first.",
} as const;

export interface WebhookScope {
  developerId: string;
  plane: Plane;
}

/** The address as stored, or null when it may not be one in this plane. */
export function normalizeEndpointUrl(value: string, plane: Plane): string | null {
  if (value.length > MAX_WEBHOOK_URL_LENGTH || !URL.canParse(value)) return null;
  const url = registrableWebUrl(new URL(value));
  if (!url) return null;
  return plane === "live" && !url.startsWith("https:") ? null : url;
}

function checkedUrl(value: string, plane: Plane): string {
  const url = normalizeEndpointUrl(value, plane);
  if (!url) throw new ApiError("invalid_request", WEBHOOK_MESSAGES.invalidUrl, { field: "url" });
  return url;
}

/** An endpoint as the API and the dashboard show it (never its secret). */
export function endpointView(e: WebhookEndpoint, at: Date = clockNow()) {
  const overlap = e.previousRetiresAt && e.previousRetiresAt > at ? e.previousRetiresAt : null;
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
    previousSecretExpiresAt: overlap?.toISOString() ?? null,
  };
}
export type WebhookEndpointView = ReturnType<typeof endpointView>;

/** The developer's endpoint in this plane; not_found for any other id (another developer's or plane's included). */
export async function findEndpoint(scope: WebhookScope, endpointId: string): Promise<WebhookEndpoint> {
  const row = isIdOf(PREFIX.webhookEndpoint, endpointId)
    ? await (await db()).webhookEndpoint.findFirst({ where: { id: endpointId, developerId: scope.developerId, plane: scope.plane } })
    : null;
  if (!row) throw new ApiError("not_found", WEBHOOK_MESSAGES.notFound);
  return row;
}

export async function listEndpoints(scope: WebhookScope): Promise<WebhookEndpoint[]> {
  return (await db()).webhookEndpoint.findMany({ where: { developerId: scope.developerId, plane: scope.plane }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** Events as stored: ["*"] for every event (the default), else the types named, each once, sorted. */
function storedEvents(events: readonly string[] | undefined): string[] {
  if (!events || events.includes(ALL_EVENTS)) return [ALL_EVENTS];
  return [...new Set(events)].sort();
}

/** Creates an endpoint; the answer carries its secret, shown here and on an explicit read only. */
export async function createEndpoint(
  input: WebhookScope & { url: string; description?: string; events?: readonly string[]; enabled?: boolean },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = checkedUrl(input.url, input.plane);
  const prisma = await db();
  const secret = newWebhookSecret();
  const endpoint = await prisma.$transaction(async (tx) => {
    // Creations of one developer run one at a time, so the limit holds.
    await tx.$queryRaw`SELECT id FROM developers WHERE id = ${input.developerId}::uuid FOR UPDATE`;
    if ((await tx.webhookEndpoint.count({ where: { developerId: input.developerId, plane: input.plane } })) >= MAX_WEBHOOK_ENDPOINTS) {
      throw new ApiError("invalid_request", WEBHOOK_MESSAGES.tooMany);
    }
    return tx.webhookEndpoint.create({
      data: {
        id: newId(PREFIX.webhookEndpoint),
        developerId: input.developerId,
        plane: input.plane,
        url,
        description: input.description ?? "",
        events: storedEvents(input.events),
        enabled: input.enabled ?? true,
        secretSealed: sealSecret(SEAL_PURPOSE, secret),
      },
    });
  });
  return { endpoint, secret };
}

export async function updateEndpoint(
  scope: WebhookScope,
  endpointId: string,
  patch: { url?: string; description?: string; events?: readonly string[]; enabled?: boolean },
): Promise<WebhookEndpoint> {
  const current = await findEndpoint(scope, endpointId);
  const url = patch.url === undefined ? undefined : checkedUrl(patch.url, scope.plane);
  return (await db()).webhookEndpoint.update({
    where: { id: current.id },
    data: { url, description: patch.description, events: patch.events && storedEvents(patch.events), enabled: patch.enabled, updatedAt: clockNow() },
  });
}

/** Removes an endpoint with its deliveries (pending ones are never sent). */
export async function deleteEndpoint(scope: WebhookScope, endpointId: string): Promise<void> {
  const current = await findEndpoint(scope, endpointId);
  await (await db()).webhookEndpoint.deleteMany({ where: { id: current.id, developerId: scope.developerId } });
}

/** The secret signing the endpoint's deliveries now, and until when the replaced one still signs. */
export function secretView(e: WebhookEndpoint, at: Date = clockNow()) {
  const overlap = e.previousSecretSealed && e.previousRetiresAt && e.previousRetiresAt > at ? e.previousRetiresAt : null;
  return { secret: openSecret(SEAL_PURPOSE, e.secretSealed), previous: overlap && { expiresAt: overlap.toISOString() } };
}

/** Every secret a delivery sent at `at` is signed with: the current one first, then one in its overlap. */
export function signingSecretsOf(e: WebhookEndpoint, at: Date): string[] {
  const current = openSecret(SEAL_PURPOSE, e.secretSealed);
  if (!e.previousSecretSealed || !e.previousRetiresAt || e.previousRetiresAt <= at) return [current];
  return [current, openSecret(SEAL_PURPOSE, e.previousSecretSealed)];
}

/**
 * A new random secret; the one replaced keeps signing beside it for `overlapHours` (0 ends it now). One
 * replaced earlier and still in its overlap ends now: a delivery never carries more than two signatures.
 */
export async function rotateEndpointSecret(scope: WebhookScope, endpointId: string, overlapHours = WEBHOOK_SECRET_OVERLAP_HOURS): Promise<WebhookEndpoint> {
  if (!Number.isInteger(overlapHours) || overlapHours < 0 || overlapHours > WEBHOOK_SECRET_MAX_OVERLAP_HOURS) throw new RangeError("overlapHours out of range");
  const current = await findEndpoint(scope, endpointId);
  const at = clockNow();
  // Conditional on the secret read: of two rotations at once, one wins and the other is told to try again.
  const done = await (
    await db()
  ).webhookEndpoint.updateMany({
    where: { id: current.id, secretSealed: current.secretSealed },
    data: {
      secretSealed: sealSecret(SEAL_PURPOSE, newWebhookSecret()),
      previousSecretSealed: overlapHours > 0 ? current.secretSealed : null,
      previousRetiresAt: overlapHours > 0 ? new Date(at.getTime() + overlapHours * 3_600_000) : null,
      updatedAt: at,
    },
  });
  if (!done.count) throw new ApiError("invalid_request", "The secret was rotated at the same moment by another request: read it again.");
  return findEndpoint(scope, endpointId);
}
