// The wire schemas of the agent-scoped hosted sign-in routes: message lines, message URLs and sender
// recognition, as their answers show them.
import { z } from "zod";
import { MESSAGE_CHANNELS } from "./message-lines";
import { FALLBACK_REASONS, MESSAGE_URL_REASONS } from "./message-url";

/** A message line in a response (lineView): never its number, only the last four digits. */
export const messageLineSchema = z.strictObject({
  id: z.uuid(),
  channel: z.enum(MESSAGE_CHANNELS),
  phoneLast4: z.string().regex(/^\d{4}$/),
  label: z.string(),
  status: z.enum(["active", "revoked"]),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

/** POST /v1/auth/sign-in/message-lines (201 new line, 200 a line registered before). */
export const messageLineResponse = z.strictObject({ line: messageLineSchema });

/** GET /v1/auth/sign-in/message-lines: the acting agent's active lines in the key's plane. */
export const messageLinesResponse = z.strictObject({ lines: z.array(messageLineSchema) });

/** DELETE /v1/auth/sign-in/message-lines: the lines revoked. */
export const messageLinesDeletedResponse = z.strictObject({ deleted: z.literal(true), lines: z.array(messageLineSchema) });

/** POST /v1/auth/sign-in/message-url: always a plain link; a code-bearing shape is reserved for verified sender proof. */
export const messageUrlResponse = z.strictObject({
  mode: z.literal("plain"),
  url: z.url(),
  reason: z.enum(MESSAGE_URL_REASONS),
  fallbackReason: z.enum([FALLBACK_REASONS.missing, FALLBACK_REASONS.unsupported]),
  idempotencyKey: z.string().nullable(),
});

/** POST /v1/auth/sign-in/recognize-phone. */
export const recognizeResponse = z.strictObject({
  matched: z.boolean(),
  recognized: z.boolean(),
  approved: z.boolean(),
  linked: z.boolean(),
  token: z.string().nullable(),
  agentToken: z.string().nullable(),
  userId: z.uuid().nullable(),
  agent: z.string(),
  displayName: z.string(),
  phoneCandidateCount: z.number().int().min(0),
});
