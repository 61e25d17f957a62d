// Text-back sign-in URLs (POST /v1/auth/sign-in/message-url): the plain sign-in host address an agent
// sends a person from one of its message lines, with what the hosted flow needs to finish the handoff;
// or, for a permission review, the connect link that asks the person for what the agent lacks.
// Answers kept under an idempotency key are returned again for the same request and refused for another.
import { createHash } from "node:crypto";
import { z } from "zod";
import { signInUrl } from "../agents/agents";
import { now as clockNow } from "../platform/clock";
import { SIGN_IN_LINK_CONNECTORS } from "../catalogue";
import { mintConnectLink, personFor } from "../connect-links/links";
import { connectLinkBody } from "../connect-links/schemas";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import type { Plane } from "../platform/db/generated/enums";
import { ApiError } from "../http/errors";
import { isRegisteredReturnDestination } from "./destinations";
import { activeLineFor, channelSchema, phoneFrom, LINE_MESSAGES } from "./message-lines";
import { MESSAGE_LINK_TTL_SECONDS, signMessageLink } from "./message-link";

/**
 * signin and reconnect open the sign-in host; permission_review (the specification's permission-review
 * URL) is the connect link for a capability or an app the agent lacks for the person.
 */
export const MESSAGE_URL_REASONS = ["signin", "reconnect", "permission_review"] as const;
/** Why the answer is a plain link: no sender proof was sent, or the one sent cannot be verified yet. */
export const FALLBACK_REASONS = { missing: "sender_proof_missing", unsupported: "sender_proof_unsupported" } as const;
export const MAX_MESSAGE_BODY_LENGTH = 1000;

export const MESSAGE_URL_MESSAGES = {
  lineRequired: "Send the agent's message line number as agentPhone (or messageLinePhone).",
  twoLines: "agentPhone and messageLinePhone name different numbers: send one.",
  lineNotRegistered: "This number is not an active message line of the agent for this channel and key plane: register it with POST /v1/auth/sign-in/message-lines.",
  invalidCompleteUrl: "messageCompleteUrl must be an absolute https URL (http only for localhost, 127.0.0.1 or [::1]), without credentials.",
  completeUrlNotRegistered: "messageCompleteUrl is not a registered return destination of the agent in this key plane: register it with POST /v1/auth/sign-in/return-destinations.",
  idempotencyKeyReused: "This idempotencyKey was already used for a different request; use a new key for a new request.",
  reviewNeedsPerson: "A permission review is for one person: send subject.externalId, your own id for them (as X-User-Id).",
  reviewNeedsSubject: "A permission review asks for something: send capability (for example gmail:send), or one app in connectors.",
  reviewOneApp: "A permission review asks for one app at a time: send one name in connectors.",
  reviewNotCarried: (field: string) => `A permission review link is a connect link, which does not carry ${field}: leave it out, and read the link's status at <url>/status.`,
} as const;

const text = (max: number) => z.string().max(max);

/** POST /v1/auth/sign-in/message-url. Unknown fields, `required` among them, are dropped without error. */
export const messageUrlBody = z.object({
  reason: z.enum(MESSAGE_URL_REASONS).default("signin"),
  channel: channelSchema.default("sms"),
  subject: z.object({ key: text(200).optional(), externalId: text(200).optional(), senderId: text(200).optional() }).optional(),
  thread: z.object({ key: text(200).optional(), spaceId: text(200).optional(), messageId: text(200).optional() }).optional(),
  messageSenderProof: text(8192).optional(),
  connectors: z
    .array(z.enum(SIGN_IN_LINK_CONNECTORS))
    .max(SIGN_IN_LINK_CONNECTORS.length * 2)
    .optional(),
  /** permission_review only: the capability asked for (<app>:<permission>), as POST /v1/profile/connect takes it. */
  capability: connectLinkBody.shape.capability,
  agentPhone: text(64).optional(),
  messageLinePhone: text(64).optional(),
  messageBody: text(MAX_MESSAGE_BODY_LENGTH).optional(),
  messageCompleteUrl: text(2048).optional(),
  journeyId: text(200).optional(),
  idempotencyKey: z.string().min(1).max(200).optional(),
  required: z.unknown().optional(),
});
export type MessageUrlBody = z.output<typeof messageUrlBody>;

export interface MessageUrlAnswer {
  mode: "plain";
  url: string;
  reason: (typeof MESSAGE_URL_REASONS)[number];
  fallbackReason: (typeof FALLBACK_REASONS)[keyof typeof FALLBACK_REASONS];
  idempotencyKey: string | null;
}

type Scope = { developerId: string; agentId: string; plane: Plane };

const LOCAL_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The completion callback as sent on: an absolute https URL (http on localhost), without its fragment. */
function completeUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError("invalid_destination", MESSAGE_URL_MESSAGES.invalidCompleteUrl, { field: "messageCompleteUrl" });
  }
  const ok = url.protocol === "https:" ? !!url.hostname : url.protocol === "http:" && LOCAL_HOSTS.has(url.hostname);
  if (!ok || url.username || url.password) throw new ApiError("invalid_destination", MESSAGE_URL_MESSAGES.invalidCompleteUrl, { field: "messageCompleteUrl" });
  url.hash = "";
  return url.toString();
}

/** The line's number in E.164, from agentPhone or messageLinePhone (the two must agree when both are sent). */
function lineNumber(body: Pick<MessageUrlBody, "agentPhone" | "messageLinePhone">): string {
  const given = (["agentPhone", "messageLinePhone"] as const).filter((f) => body[f] !== undefined);
  if (!given.length) throw new ApiError("invalid_phone", MESSAGE_URL_MESSAGES.lineRequired, { field: "agentPhone" });
  const numbers = given.map((field) => {
    const e164 = phoneFrom(body[field]!);
    if (!e164) throw new ApiError("invalid_phone", LINE_MESSAGES.invalidPhone, { field });
    return e164;
  });
  if (numbers.length === 2 && numbers[0] !== numbers[1]) throw new ApiError("invalid_request", MESSAGE_URL_MESSAGES.twoLines, { field: "messageLinePhone" });
  return numbers[0]!;
}

/** JSON with every object's keys sorted: one text per request, whatever order its fields came in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The agent's sign-in name: the link's path. */
async function signInNameOf(agentId: string): Promise<string> {
  return (await (await db()).agent.findUniqueOrThrow({ where: { id: agentId }, select: { signInName: true } })).signInName;
}

/**
 * The plain sign-in host address: {sign_in_url}/<agent>[/reconnect]?delivery=message&…&exp&sig. The
 * signature (lib/sign-in/message-link.ts) covers every parameter, the agent and the key plane: the
 * sign-in host opens a text-back link only as it was made here, until it expires.
 */
function plainUrl(input: Scope & { signInName: string; body: MessageUrlBody; e164: string; complete: string | null; expiresAt: number }): string {
  const { body } = input;
  const reconnect = body.reason === "reconnect";
  const url = new URL(`${signInUrl(input.signInName)}${reconnect ? "/reconnect" : ""}`);
  const q = url.searchParams;
  q.set("delivery", "message");
  q.set("message_line_phone", input.e164);
  if (body.messageBody !== undefined) q.set("message_body", body.messageBody);
  if (input.complete) q.set("message_complete_url", input.complete);
  if (body.journeyId !== undefined) q.set("journey", body.journeyId);
  if (body.channel !== "sms") q.set("channel", body.channel);
  const connectors = [...new Set(body.connectors ?? [])];
  if (reconnect && connectors.length) q.set("connectors", connectors.join(","));
  q.set("exp", String(input.expiresAt));
  q.set("sig", signMessageLink({ agentId: input.agentId, plane: input.plane, reconnect, params: q }));
  return url.toString();
}

/**
 * The answer for a text-back sign-in: always a plain link (no code rides in it), from an active line of
 * the agent for this channel and plane, to a registered completion callback. The line and callback are
 * checked on every call, retries included; then an idempotency key returns the answer first stored under it.
 */
export async function createMessageUrl(input: Scope & { body: MessageUrlBody }): Promise<MessageUrlAnswer> {
  const { required: _dropped, ...body } = input.body;
  const review = body.reason === "permission_review" ? reviewRequest(body) : null;
  if (!review && body.capability !== undefined) {
    throw new ApiError("invalid_request", "capability is taken only with reason permission_review.", {
      fields: [{ field: "capability", message: "only with reason permission_review" }],
    });
  }
  const e164 = lineNumber(body);
  if (!(await activeLineFor({ agentId: input.agentId, plane: input.plane, channel: body.channel, e164 }))) {
    throw new ApiError("message_line_not_registered", MESSAGE_URL_MESSAGES.lineNotRegistered, { field: body.agentPhone !== undefined ? "agentPhone" : "messageLinePhone" });
  }
  const complete = body.messageCompleteUrl !== undefined ? completeUrl(body.messageCompleteUrl) : null;
  if (complete && !(await isRegisteredReturnDestination({ agentId: input.agentId, plane: input.plane, url: complete }))) {
    throw new ApiError("destination_not_registered", MESSAGE_URL_MESSAGES.completeUrlNotRegistered, { field: "messageCompleteUrl" });
  }
  const kept: KeptAnswer = {
    mode: "plain",
    reason: body.reason,
    fallbackReason: body.messageSenderProof !== undefined ? FALLBACK_REASONS.unsupported : FALLBACK_REASONS.missing,
    idempotencyKey: body.idempotencyKey ?? null,
    expiresAt: Math.floor(clockNow().getTime() / 1000) + MESSAGE_LINK_TTL_SECONDS,
  };
  const stored =
    body.idempotencyKey === undefined
      ? kept
      : await keptAnswer({ ...input, idempotencyKey: body.idempotencyKey, requestHash: createHash("sha256").update(canonicalJson(body)).digest("hex"), answer: kept });
  // The URL is built again for a retry from the same request: the line's number is never stored.
  const { expiresAt, ...answer } = stored;
  if (review) return { ...answer, url: await reviewUrl({ ...input, review }) };
  return { ...answer, url: plainUrl({ ...input, signInName: await signInNameOf(input.agentId), body, e164, complete, expiresAt }) };
}

/** What a permission review asks, of whom. */
interface ReviewRequest {
  externalId: string;
  app?: string;
  capability?: string;
}

/**
 * The person and what a permission review asks: a capability, or one app, or both. The fields only a
 * sign-in host link carries are refused rather than dropped: a connect link calls no completion
 * address and carries no journey or message text.
 */
function reviewRequest(body: Omit<MessageUrlBody, "required">): ReviewRequest {
  const invalid = (field: string, message: string) => new ApiError("invalid_request", message, { fields: [{ field, message }] });
  for (const field of ["messageCompleteUrl", "journeyId", "messageBody"] as const) {
    if (body[field] !== undefined) throw invalid(field, MESSAGE_URL_MESSAGES.reviewNotCarried(field));
  }
  const externalId = body.subject?.externalId?.trim();
  if (!externalId) throw invalid("subject.externalId", MESSAGE_URL_MESSAGES.reviewNeedsPerson);
  const apps = [...new Set(body.connectors ?? [])];
  if (apps.length > 1) throw invalid("connectors", MESSAGE_URL_MESSAGES.reviewOneApp);
  if (!apps.length && body.capability === undefined) throw invalid("capability", MESSAGE_URL_MESSAGES.reviewNeedsSubject);
  return { externalId, ...(apps[0] ? { app: apps[0] } : {}), ...(body.capability !== undefined ? { capability: body.capability } : {}) };
}

/**
 * The permission-review URL: the connect link POST /v1/profile/connect would answer for this person,
 * agent and request (the same link again while it is valid, so a retry texts the same address). Its
 * page names the agent and what it asks; the person signs in if they must and grants it there.
 */
async function reviewUrl(input: Scope & { review: ReviewRequest }): Promise<string> {
  const named = await personFor({ developerId: input.developerId, plane: input.plane, agentId: input.agentId, externalId: input.review.externalId });
  const link = await mintConnectLink({
    developerId: input.developerId,
    plane: input.plane,
    agent: { id: input.agentId },
    ...named,
    app: input.review.app,
    capability: input.review.capability,
  });
  return link.connect_url;
}

/** What an idempotency key keeps: the answer without its URL (which holds the line's number), and when the link expires. */
type KeptAnswer = Omit<MessageUrlAnswer, "url"> & { expiresAt: number };

/**
 * The answer stored under the key: this one when the key is new, the stored one when the key was used
 * for the same request, 409 idempotency_key_reused for another. Parallel calls with one key insert one row
 * (the insert skips a duplicate; every call then reads the row that won).
 */
async function keptAnswer(input: Scope & { idempotencyKey: string; requestHash: string; answer: KeptAnswer }): Promise<KeptAnswer> {
  const prisma = await db();
  const where = { agentId_plane_idempotencyKey: { agentId: input.agentId, plane: input.plane, idempotencyKey: input.idempotencyKey } };
  let row = await prisma.messageUrlRequest.findUnique({ where });
  if (!row) {
    const data = {
      developerId: input.developerId,
      agentId: input.agentId,
      plane: input.plane,
      idempotencyKey: input.idempotencyKey,
      requestHash: input.requestHash,
      answer: input.answer as unknown as Prisma.InputJsonObject,
    };
    try {
      await prisma.messageUrlRequest.createMany({ data: [data], skipDuplicates: true });
    } catch (err) {
      // A unique violation still means another call stored its answer first: read it below.
      if ((err as { code?: string }).code !== "P2002") throw err;
    }
    row = await prisma.messageUrlRequest.findUniqueOrThrow({ where });
  }
  if (row.requestHash !== input.requestHash || row.developerId !== input.developerId) {
    throw new ApiError("idempotency_key_reused", MESSAGE_URL_MESSAGES.idempotencyKeyReused, { field: "idempotencyKey" });
  }
  return row.answer as unknown as KeptAnswer;
}
