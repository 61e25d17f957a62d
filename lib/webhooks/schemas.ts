// The wire schemas of the webhook routes (/v1/webhooks/…), shared by the route files and the API reference.
import { z } from "zod";
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from "./catalogue";
import { DELIVERY_STATUSES } from "./deliveries";
import { MAX_WEBHOOK_URL_LENGTH, WEBHOOK_SECRET_MAX_OVERLAP_HOURS } from "./endpoints";
import { WEBHOOK_SECRET_PATTERN } from "./signing";

const eventList = z
  .array(z.enum([ALL_EVENTS, ...WEBHOOK_EVENT_TYPES]))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length + 1)
  .describe(`The event types the endpoint receives; ["${ALL_EVENTS}"] (the default) is every type.`);
const url = z.string().min(1).max(MAX_WEBHOOK_URL_LENGTH);
const description = z.string().max(200);

export const createEndpointBody = z.strictObject({ url, description: description.optional(), events: eventList.optional(), enabled: z.boolean().optional() });
export const updateEndpointBody = z
  .strictObject({ url: url.optional(), description: description.optional(), events: eventList.optional(), enabled: z.boolean().optional() })
  .refine((b) => Object.keys(b).length > 0, "name at least one field to change");
export const rotateSecretBody = z.strictObject({ overlapHours: z.int().min(0).max(WEBHOOK_SECRET_MAX_OVERLAP_HOURS).optional() });

const endpoint = z.strictObject({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  previousSecretExpiresAt: z.iso.datetime().nullable(),
});
const secret = z.string().regex(WEBHOOK_SECRET_PATTERN);

export const endpointResponse = z.strictObject({ endpoint, livemode: z.boolean() });
export const createdEndpointResponse = z.strictObject({ endpoint, secret, livemode: z.boolean() });
export const endpointsResponse = z.strictObject({ endpoints: z.array(endpoint), livemode: z.boolean() });
export const endpointDeletedResponse = z.strictObject({ deleted: z.literal(true), id: z.string(), livemode: z.boolean() });
export const endpointSecretResponse = z.strictObject({
  secret,
  previous: z.strictObject({ expiresAt: z.iso.datetime() }).nullable(),
  livemode: z.boolean(),
});

const status = z.enum(DELIVERY_STATUSES);
const delivery = z.strictObject({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  endpointId: z.string(),
  status,
  responseCode: z.int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  attempts: z.array(
    z.strictObject({
      attempt: z.int(),
      status,
      responseCode: z.int().nullable(),
      durationMs: z.int().nullable(),
      error: z.string().nullable(),
      startedAt: z.iso.datetime(),
    }),
  ),
});
export const deliveryResponse = z.strictObject({ delivery, livemode: z.boolean() });
export const deliveriesResponse = z.strictObject({ deliveries: z.array(delivery), livemode: z.boolean() });
