// The completion callback of text-back sign-in: when a hosted sign-in reached from a message thread
// finishes, the developer's messageCompleteUrl is POSTed once, from the job queue (retried with
// backoff), signed with the developer's callback secrets (lib/sign-in/callback-secrets.ts) and carrying a fresh agent token. It goes only
// to a registered return destination on a public address (any address in development mode), over a
// connection pinned to the address that was checked, with a short timeout and no redirects followed.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { AGENT_TOKEN_USE, issueAgentToken } from "../bearer-tokens/agent-token";
import { now } from "../platform/clock";
import { db } from "../platform/db";
import type { CompletionCallback, Prisma } from "../platform/db/generated/client";
import type { Plane } from "../platform/db/generated/enums";
import { describeStatus, postToRegisteredAddress } from "../http/outbound";
import { enqueueOnce, QUEUES, retryLimitOf, work } from "../platform/jobs";
import { logger } from "../platform/log";
import { COMPLETION_EVENT_TYPE, completionPayload, type CompletionCallbackBody, type CompletionPayload } from "./callback-schemas";
import { isApproved } from "../users/approvals";
import { isRegisteredReturnDestination } from "./destinations";
import { signingSecrets } from "./callback-secrets";

/** The headers a callback carries besides its content type. */
export const CALLBACK_HEADERS = { signature: "Service-Signature", id: "Service-Callback-Id" } as const;
/** One try's whole budget: resolving the host, connecting, and the answer's status line. */
export const CALLBACK_TIMEOUT_MS = 5_000;
/** Tries in all before a callback is given up (the queue's retries and the first). */
export const CALLBACK_MAX_ATTEMPTS = retryLimitOf(QUEUES.completionCallback) + 1;
/** How far a signature's timestamp may be from the verifier's clock, by default. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** A callback still pending this long after the flow finished is not queued again at a worker's start. */
const REQUEUE_WINDOW_MS = 24 * 60 * 60 * 1000;
const USER_AGENT = "profile-signin-service/completion-callback";

// ─── Recording and queuing ──────────────────────────────────────────────────────────────────────

export interface CompletionCallbackInput {
  flowId: string;
  /** The signed text-back link's hash: one callback per link, for the first flow to finish it. */
  linkHash: string;
  developerId: string;
  agentId: string;
  /** The agent's handle, as the body names it. */
  agent: string;
  plane: Plane;
  userId: string;
  /** The flow's messageCompleteUrl, a registered return destination when the flow began. */
  url: string;
  journey: string | null;
  /** The message the person sent before signing in (the message URL's messageBody), for the agent to answer. */
  messageBody: string | null;
  channel: string;
}

/**
 * Records a finished flow's callback, in the transaction that finishes the flow: it is sent only if
 * that commits. Recording one flow's callback again changes nothing.
 */
export async function recordCompletionCallback(tx: Prisma.TransactionClient, input: CompletionCallbackInput): Promise<void> {
  const id = randomUUID();
  const createdAt = now();
  const payload: CompletionPayload = {
    type: COMPLETION_EVENT_TYPE,
    id,
    createdAt: createdAt.toISOString(),
    agent: input.agent,
    userId: input.userId,
    tokenUse: AGENT_TOKEN_USE,
    journey: input.journey,
    messageBody: input.messageBody,
    channel: input.channel,
    livemode: input.plane === "live",
  };
  // One row per flow and per link (both unique): a second finish, or a second flow from the same link,
  // inserts nothing and aborts nothing.
  await tx.completionCallback.createMany({
    data: [
      {
        id,
        flowId: input.flowId,
        linkHash: input.linkHash,
        developerId: input.developerId,
        agentId: input.agentId,
        plane: input.plane,
        url: input.url,
        payload: JSON.stringify(payload),
        createdAt,
      },
    ],
    skipDuplicates: true,
  });
}

/**
 * Queues a flow's callback once its transaction has committed. Never throws: the flow is finished
 * whatever happens here, and a callback left pending is queued again when a worker starts. The job
 * bears the callback's id, so queuing it twice queues it once; a callback no longer pending is not queued.
 */
export async function dispatchCompletionCallback(flowId: string): Promise<void> {
  try {
    const row = await (await db()).completionCallback.findUnique({ where: { flowId }, select: { id: true, status: true } });
    if (row?.status === "pending") await enqueueOnce(QUEUES.completionCallback, row.id, { callbackId: row.id });
  } catch (err) {
    logger().error({ flow_id: flowId, err: (err as Error).message }, "completion callback not queued; a worker queues it when it starts");
  }
}

/** Starts this process's callback worker, and queues callbacks a stopped process left pending. */
export async function startCompletionCallbackWorker(): Promise<void> {
  await work(QUEUES.completionCallback, async (data, attempt) => deliverCompletionCallback(String(data.callbackId), { final: attempt.final }));
  await requeuePendingCallbacks();
}

/**
 * Queues again the callbacks still pending from the last day (at most 500 at a time): those whose
 * queuing failed after their flow finished, or that a stopped process left. A worker's start and the
 * sweep call it; a callback already queued is not queued twice. Returns how many it queued.
 */
export async function requeuePendingCallbacks(at = now()): Promise<number> {
  const pending = await (
    await db()
  ).completionCallback.findMany({
    where: { status: "pending", createdAt: { gte: new Date(at.getTime() - REQUEUE_WINDOW_MS) } },
    select: { id: true },
    take: 500,
  });
  for (const row of pending) await enqueueOnce(QUEUES.completionCallback, row.id, { callbackId: row.id });
  return pending.length;
}

// ─── Delivery ────────────────────────────────────────────────────────────────────────────────────

type Outcome = { kind: "delivered" } | { kind: "refused"; reason: string } | { kind: "failed"; reason: string };

/**
 * The job: one try at a pending callback (any other is left alone, so it is delivered once). 2xx:
 * delivered. A destination no longer registered, or a private address outside development mode:
 * failed at once, nothing sent. Anything else: throws for the queue to try again, and after the last
 * try (or the queue's `final` one) marks it failed. Each try is counted before it is made.
 */
export async function deliverCompletionCallback(callbackId: string, attempt: { final?: boolean } = {}): Promise<void> {
  const prisma = await db();
  const row = await prisma.completionCallback.findUnique({ where: { id: callbackId } });
  if (!row || row.status !== "pending") return;
  const tries = row.attempts + 1;
  // The try is claimed first: of two workers holding one callback's job, one sends it.
  const claimed = await prisma.completionCallback.updateMany({ where: { id: row.id, status: "pending", attempts: row.attempts }, data: { attempts: tries } });
  if (claimed.count === 0) return;

  const outcome = await tryDelivery(row).catch((err: Error): Outcome => {
    logger().error({ callback_id: row.id, err: err.message }, "completion callback try failed inside the service");
    return { kind: "failed", reason: "the service could not make the request" };
  });
  const log = { callback_id: row.id, flow_id: row.flowId, host: hostOf(row.url), attempt: tries };
  if (outcome.kind === "delivered") {
    await prisma.completionCallback.updateMany({ where: { id: row.id, status: "pending" }, data: { status: "delivered", deliveredAt: now(), lastError: null } });
    logger().info(log, "completion callback delivered");
    return;
  }
  const final = outcome.kind === "refused" || attempt.final === true || tries >= CALLBACK_MAX_ATTEMPTS;
  await prisma.completionCallback.updateMany({
    where: { id: row.id, status: "pending" },
    data: { lastError: outcome.reason.slice(0, 200), ...(final ? { status: "failed" as const } : {}) },
  });
  logger().warn({ ...log, error: outcome.reason, given_up: final }, "completion callback not delivered");
  if (!final) throw new Error(`Completion callback ${row.id} not delivered: ${outcome.reason}`);
}

async function tryDelivery(row: CompletionCallback): Promise<Outcome> {
  // Checked again at each try: a destination the developer removed since receives nothing.
  if (!(await isRegisteredReturnDestination({ agentId: row.agentId, plane: row.plane, url: row.url }))) {
    return { kind: "refused", reason: "not a registered return destination of the agent in this plane" };
  }
  // And the person still approves the agent: a token is never minted for an approval revoked since.
  const { userId } = completionPayload.parse(JSON.parse(row.payload));
  if (!(await isApproved({ userId, agentId: row.agentId }))) return { kind: "refused", reason: "the person no longer approves the agent" };
  const outcome = await postToRegisteredAddress({
    url: row.url,
    timeoutMs: CALLBACK_TIMEOUT_MS,
    prepare: async () => {
      const at = now();
      const body = JSON.stringify(await callbackBody(row, at));
      const headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        [CALLBACK_HEADERS.signature]: signCompletionBody(await signingSecrets({ developerId: row.developerId, plane: row.plane }, at), body, at),
        [CALLBACK_HEADERS.id]: row.id,
      };
      return { headers, body };
    },
  });
  if (outcome.kind !== "answered") return outcome;
  return outcome.status >= 200 && outcome.status < 300 ? { kind: "delivered" } : { kind: "failed", reason: describeStatus(outcome.status) };
}

/** The body of one try: the stored payload and an agent token minted now (never stored). */
async function callbackBody(row: CompletionCallback, at: Date): Promise<CompletionCallbackBody> {
  const p = completionPayload.parse(JSON.parse(row.payload));
  const { token } = await issueAgentToken({ userId: p.userId, developerId: row.developerId, agentId: row.agentId, agent: p.agent, plane: row.plane }, at);
  return {
    type: p.type,
    id: p.id,
    createdAt: p.createdAt,
    agent: p.agent,
    userId: p.userId,
    token,
    tokenUse: p.tokenUse,
    journey: p.journey,
    messageBody: p.messageBody,
    channel: p.channel,
    livemode: p.livemode,
  };
}

function hostOf(url: string): string | null {
  return URL.canParse(url) ? new URL(url).host : null;
}

// ─── Signing ─────────────────────────────────────────────────────────────────────────────────────

function signatureHex(secret: string, timestamp: string, rawBody: string | Uint8Array): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/**
 * The Service-Signature header for a body sent at `at`: "t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">", one v1 per secret (the current one first; during a rotation's overlap the replaced
 * one too), so a receiver holding either secret verifies it.
 */
export function signCompletionBody(secrets: string | readonly string[], rawBody: string, at: Date): string {
  const t = String(Math.floor(at.getTime() / 1000));
  return [`t=${t}`, ...(typeof secrets === "string" ? [secrets] : secrets).map((secret) => `v1=${signatureHex(secret, t, rawBody)}`)].join(",");
}

/**
 * Whether a callback is genuine: `header` is its Service-Signature, `rawBody` the bytes received (not
 * re-serialized JSON). A v1 signature must match in constant time and t lie within toleranceSeconds
 * (300) of `now` (a Date or milliseconds; the service's clock by default). Never throws.
 */
export function verifyCompletionSignature(
  secret: string,
  header: string | null | undefined,
  rawBody: string | Uint8Array,
  options: { toleranceSeconds?: number; now?: Date | number } = {},
): boolean {
  if (!header) return false;
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const [key, value] = [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    if (key === "t") timestamp = value;
    else if (key === "v1") signatures.push(value);
  }
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  const at = options.now === undefined ? now().getTime() : typeof options.now === "number" ? options.now : options.now.getTime();
  if (Math.abs(Math.floor(at / 1000) - Number(timestamp)) > (options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(signatureHex(secret, timestamp, rawBody), "hex");
  return signatures.some((s) => /^[0-9a-f]{64}$/.test(s) && timingSafeEqual(Buffer.from(s, "hex"), expected));
}
