"use server";
// The dashboard's webhook forms: add an endpoint (its secret shown once), enable or disable it, remove
// it, show or rotate its secret, send it a test event, and send a delivery again. Each acts for the
// signed-in dashboard user and passes the membership check in lib/dashboard/webhooks.ts for the account
// the form names; gathered with the other forms in ./actions.ts.
import { defineAction } from "@/lib/actions/define-action";
import {
  addDashboardWebhook,
  removeDashboardWebhook,
  resendDashboardWebhookDelivery,
  rotateDashboardWebhookSecret,
  sendDashboardWebhookTest,
  setDashboardWebhookEnabled,
  showDashboardWebhookSecret,
} from "@/lib/dashboard/webhooks";
import { checkbox, text } from "@/lib/http/action-input";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/catalogue";

/** A time as the dashboard states it: 2025-01-31 12:00 (UTC). */
const shownUtc = (iso: string) => iso.replace("T", " ").slice(0, 16);

/** One checkbox per event type, named event:<type>. */
const EVENT_BOXES = Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [`event:${type}`, checkbox()]));

export const addWebhookEndpointAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), plane: text(), url: text(), ...EVENT_BOXES },
  handler: async ({ actor, form }) => {
    const values = form as Record<string, unknown>;
    const events = WEBHOOK_EVENT_TYPES.filter((type) => values[`event:${type}`] === true);
    const { endpoint, secret } = await addDashboardWebhook({ actorId: actor.id, developerId: form.developer, plane: form.plane, url: form.url, events });
    return {
      ok: "Endpoint added.",
      secret: { label: `Signing secret of ${endpoint.url}`, value: secret, note: "Verify every delivery with it (docs/webhooks.md). Show it again from the endpoint's row." },
    };
  },
});

export const toggleWebhookEndpointAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), plane: text(), endpoint: text(), enabled: text() },
  handler: async ({ actor, form }) => {
    const enabled = form.enabled === "on";
    const endpoint = await setDashboardWebhookEnabled({ actorId: actor.id, developerId: form.developer, plane: form.plane, endpointId: form.endpoint, enabled });
    return { ok: enabled ? `${endpoint.url} receives events again.` : `${endpoint.url} is disabled: it receives nothing until you enable it.` };
  },
});

export const removeWebhookEndpointAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), plane: text(), endpoint: text() },
  handler: async ({ actor, form }) => {
    await removeDashboardWebhook({ actorId: actor.id, developerId: form.developer, plane: form.plane, endpointId: form.endpoint });
    return { ok: "Endpoint removed with its deliveries." };
  },
});

export const showWebhookSecretAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), plane: text(), endpoint: text() },
  handler: async ({ actor, form }) => {
    const s = await showDashboardWebhookSecret({ actorId: actor.id, developerId: form.developer, plane: form.plane, endpointId: form.endpoint });
    const note = s.previous ? `The secret it replaced also signs until ${shownUtc(s.previous.expiresAt)} UTC.` : undefined;
    return { ok: "Here is the secret.", secret: { label: `Signing secret of ${s.url}`, value: s.secret, note } };
  },
});

export const rotateWebhookSecretAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), plane: text(), endpoint: text(), overlap: text() },
  handler: async ({ actor, form }) => {
    const s = await rotateDashboardWebhookSecret({ actorId: actor.id, developerId: form.developer, plane: form.plane, endpointId: form.endpoint, overlap: form.overlap });
    const note = s.previous
      ? `Deliveries carry a signature under each secret until ${shownUtc(s.previous.expiresAt)} UTC, then under the new one only.`
      : "The old secret stopped signing now: deliveries carry a signature under the new one only.";
    return { ok: "Secret rotated.", secret: { label: `New signing secret of ${s.url}`, value: s.secret, note } };
  },
});

export const sendWebhookTestAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), plane: text(), endpoint: text() },
  handler: async ({ actor, form }) => {
    const d = await sendDashboardWebhookTest({ actorId: actor.id, developerId: form.developer, plane: form.plane, endpointId: form.endpoint });
    return { ok: `Test event ${d.eventId} queued: it appears in the delivery log below.` };
  },
});

export const resendWebhookDeliveryAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), plane: text(), delivery: text() },
  handler: async ({ actor, form }) => {
    const d = await resendDashboardWebhookDelivery({ actorId: actor.id, developerId: form.developer, plane: form.plane, deliveryId: form.delivery });
    return { ok: `Event ${d.eventId} queued again, with the same webhook-id.` };
  },
});
