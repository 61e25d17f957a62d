// Webhooks on the dashboard: one plane's endpoints and its recent deliveries, and each change a member
// makes, through the membership check and then the very functions the /v1/webhooks API calls
// (lib/webhooks). Another account's endpoint or delivery is "Not found in this account."
import { z } from "zod";
import { requireMember } from "../developer-auth/accounts";
import { DashboardError } from "../developer-auth/errors";
import { ApiError } from "../http/errors";
import type { Plane } from "../platform/db/generated/enums";
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../webhooks/catalogue";
import { listDeliveries, resendDelivery, sendTestEvent, webhookSendLimiter, type WebhookDeliveryView } from "../webhooks/deliveries";
import {
  createEndpoint,
  deleteEndpoint,
  endpointView,
  findEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  secretView,
  updateEndpoint,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  type WebhookEndpointView,
  type WebhookScope,
} from "../webhooks/endpoints";

export { WEBHOOK_SECRET_OVERLAP_HOURS };

/** How many deliveries the page shows (the API pages through more). */
export const DASHBOARD_DELIVERIES = 25;

export interface WebhooksOverview {
  plane: Plane;
  endpoints: WebhookEndpointView[];
  deliveries: Array<WebhookDeliveryView & { endpointUrl: string }>;
}

/** One plane of the account's webhooks (live unless asked). */
export async function webhooksOf(developerId: string, plane: Plane = "live"): Promise<WebhooksOverview> {
  const scope = { developerId, plane };
  const endpoints = (await listEndpoints(scope)).map((e) => endpointView(e));
  const urls = new Map(endpoints.map((e) => [e.id, e.url]));
  const deliveries = (await listDeliveries(scope, { limit: DASHBOARD_DELIVERIES })).map((d) => ({ ...d, endpointUrl: urls.get(d.endpointId) ?? "" }));
  return { plane, endpoints, deliveries };
}

const planeSchema = z.enum(["live", "test"]);

/** The member's account and the plane the form names; a stranger's account or a bad plane changes nothing. */
async function scopeOf(input: { actorId: string; developerId: unknown; plane: unknown }): Promise<WebhookScope> {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const plane = planeSchema.safeParse(input.plane);
  if (!plane.success) throw new DashboardError("invalid_input");
  return { developerId, plane: plane.data };
}

/** Runs a change, answering an id of another account or plane as the dashboard does. */
async function inAccount<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && err.code === "not_found") throw new DashboardError("not_found");
    if (err instanceof ApiError && err.code === "invalid_request") throw new DashboardError("invalid_input", err.message, "url");
    throw err;
  }
}

/** An id a form sent: its text, or "" (found nowhere) when it sent something else. */
const idOf = (value: unknown): string => (typeof value === "string" ? value : "");

type Actor = { actorId: string; developerId: unknown; plane: unknown };

/** Adds an endpoint: every event, or those ticked. Its secret is answered once. */
export async function addDashboardWebhook(input: Actor & { url: unknown; events: readonly string[] }) {
  const scope = await scopeOf(input);
  if (typeof input.url !== "string") throw new DashboardError("invalid_input", undefined, "url");
  const events = input.events.filter((e): e is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
  const url = input.url.trim();
  return inAccount(() => createEndpoint({ ...scope, url, events: events.length ? events : [ALL_EVENTS] }));
}

export async function setDashboardWebhookEnabled(input: Actor & { endpointId: unknown; enabled: boolean }) {
  const scope = await scopeOf(input);
  return inAccount(() => updateEndpoint(scope, idOf(input.endpointId), { enabled: input.enabled }));
}

export async function removeDashboardWebhook(input: Actor & { endpointId: unknown }) {
  const scope = await scopeOf(input);
  await inAccount(() => deleteEndpoint(scope, idOf(input.endpointId)));
}

/** The endpoint's secret, on the member's explicit "Show secret". */
export async function showDashboardWebhookSecret(input: Actor & { endpointId: unknown }) {
  const scope = await scopeOf(input);
  const endpoint = await inAccount(() => findEndpoint(scope, idOf(input.endpointId)));
  return { url: endpoint.url, ...secretView(endpoint) };
}

/** Rotates the secret: the old one signs on for the default overlap, or stops now (it leaked). */
export async function rotateDashboardWebhookSecret(input: Actor & { endpointId: unknown; overlap: unknown }) {
  const scope = await scopeOf(input);
  const overlap = z.enum(["keep", "end"]).safeParse(input.overlap);
  if (!overlap.success) throw new DashboardError("invalid_input");
  const endpoint = await inAccount(() => rotateEndpointSecret(scope, idOf(input.endpointId), overlap.data === "keep" ? WEBHOOK_SECRET_OVERLAP_HOURS : 0));
  return { url: endpoint.url, ...secretView(endpoint) };
}

/**
 * Each test event and resend makes the service call an address the developer chose: as the API counts
 * them per key (WEBHOOK_SENDS_PER_MINUTE), the dashboard counts them per account and plane, whichever
 * member asks.
 */
async function withinSendLimit(scope: WebhookScope): Promise<void> {
  if (!(await webhookSendLimiter.consume(`dashboard:${scope.developerId}:${scope.plane}`)).allowed) throw new DashboardError("sends_limited");
}

export async function sendDashboardWebhookTest(input: Actor & { endpointId: unknown }) {
  const scope = await scopeOf(input);
  await withinSendLimit(scope);
  return inAccount(() => sendTestEvent(scope, idOf(input.endpointId)));
}

export async function resendDashboardWebhookDelivery(input: Actor & { deliveryId: unknown }) {
  const scope = await scopeOf(input);
  await withinSendLimit(scope);
  return inAccount(() => resendDelivery(scope, idOf(input.deliveryId)));
}
