// The webhook events the service emits: their names, what each reports, and the body every delivery
// carries. Bodies name things by id only (the person, the agent, the app, the job), never profile content.
import { z } from "zod";

/** Every event type, with the change it reports (docs/webhooks.md is this table). */
export const WEBHOOK_EVENTS = {
  "approval.granted": "A person approved one of your agents (or approved it again after revoking it).",
  "approval.revoked": "A person revoked their approval of one of your agents: stop acting for them now.",
  "user.deleted": "A person who used one of your agents, or whom you know by your own user id, deleted their account.",
  "app.connected": "A person gave one of your agents one of their connected apps (Gmail, Calendar, Drive, Notion, Outlook, Sheets).",
  "app.disconnected": "One of your agents lost a person's app: they disconnected it, or took it back from the agent.",
  "import_job.completed": "A bulk import job finished: every user was imported or failed.",
  "import_job.failed": "A bulk import job stopped after repeated errors; what it imported is kept.",
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]];

/** The event "Send test event" sends to one endpoint, whatever events it takes. */
export const TEST_EVENT_TYPE = "webhook.test";
/** In an endpoint's event list: every event type. */
export const ALL_EVENTS = "*";

/** What names the person in an event: the service's user id and the developer's own ids for them in that plane. */
const person = { userId: z.string(), externalIds: z.array(z.string()) };

/** The `data` of each event type. */
export const EVENT_DATA = {
  "approval.granted": z.strictObject({ ...person, agent: z.string() }),
  "approval.revoked": z.strictObject({ ...person, agent: z.string() }),
  "user.deleted": z.strictObject(person),
  "app.connected": z.strictObject({ ...person, agent: z.string(), app: z.string() }),
  "app.disconnected": z.strictObject({ ...person, agent: z.string(), app: z.string() }),
  "import_job.completed": z.strictObject({
    jobId: z.string(),
    agent: z.string(),
    profilesImported: z.number().int(),
    profilesFailed: z.number().int(),
  }),
  "import_job.failed": z.strictObject({
    jobId: z.string(),
    agent: z.string(),
    profilesImported: z.number().int(),
    profilesFailed: z.number().int(),
  }),
} as const satisfies Record<WebhookEventType, z.ZodType>;

export type EventData<T extends WebhookEventType> = z.infer<(typeof EVENT_DATA)[T]>;

/** The JSON body of every delivery: the same bytes at every try and every resend. */
export const webhookPayload = z.strictObject({
  id: z.string(),
  type: z.string(),
  createdAt: z.string(),
  livemode: z.boolean(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof webhookPayload>;

/** Whether an endpoint taking `events` receives an event of `type`. */
export function endpointTakes(events: readonly string[], type: string): boolean {
  return events.includes(ALL_EVENTS) || events.includes(type);
}
