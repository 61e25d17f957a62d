// Connect links (POST /v1/profile/connect): an agent asks a person for an app, a capability, or to
// bring their profile. The link is {MCP_URL}/connect/mcc_…, minted per user and agent for what it
// asks, reusable until expires_at; opening it starts a hosted flow (lib/flow/ways-in/connect.ts);
// finishing that flow approves it.
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import { returnUrlProblem } from "../developers/destinations";
import type { Plane } from "../platform/db/generated/enums";
import { env } from "../env";
import { APP_NAMES, type App } from "../catalogue";
import type { Prisma } from "../platform/db/generated/client";
import { bindExternalIdOnce } from "../users/users";
import { ApiError, MESSAGES } from "../http/errors";
import { isIdOf, newId, PREFIX } from "../platform/ids";
import { lazyLimiter } from "../platform/ratelimit";
import type { RequiredEntry } from "../required/entries";
import { findExternalUser, isApproved } from "../users/approvals";
import { readsApp } from "../app-grants/grants";
import type { ConnectLinkRequest } from "./flow-request";
import type { ConnectStatus, LinkStatus } from "./statuses";

/** How long a connect link works. */
export const CONNECT_LINK_TTL_SECONDS = 60 * 60;
/** Links one developer account may mint per minute (shared by all its keys and agents). */
export const CONNECT_MINTS_PER_MINUTE = 60;

export { CONNECT_STATUSES, LINK_STATUSES, type ConnectStatus, type LinkStatus } from "./statuses";

const mintLimiter = lazyLimiter(() => ({ name: "connect-mint", points: CONNECT_MINTS_PER_MINUTE, durationSeconds: 60 }));

export function connectLinkUrl(id: string): string {
  return `${env().MCP_URL}/connect/${id}`;
}

function what(input: { app?: string; capability?: string }): string {
  if (input.capability) return `allow ${input.capability}`;
  if (input.app) return `connect ${APP_NAMES[input.app as App] ?? input.app}`;
  return "bring their profile";
}

function instructions(status: ConnectStatus, input: { app?: string; capability?: string; url: string; expiresAt: Date }): string {
  const until = `It works until ${input.expiresAt.toISOString()}.`;
  switch (status) {
    case "authorization_required":
      return `Show the user this link to sign in and approve this agent${input.app || input.capability ? `, then ${what(input)}` : ""}: ${input.url} ${until}`;
    case "connect_app":
      return `Show the user this link to ${what(input)}: ${input.url} ${until}`;
    case "permission_needed":
      return `Show the user this link to ${what(input)} for this agent: ${input.url} ${until}`;
    default:
      return `Nothing is missing. To let the user add more to their profile, show them this link: ${input.url} ${until}`;
  }
}

export interface MintInput {
  developerId: string;
  plane: Plane;
  agent: { id: string };
  /** The person, when the request named one the service knows (bearer token or linked X-User-Id / user_id). */
  userId: string | null;
  /** The developer's own id for a person the service does not know yet. */
  externalId: string | null;
  app?: string;
  capability?: string;
  purpose?: string;
  clientName?: string;
  returnUrl?: string;
}

async function decide(input: MintInput): Promise<ConnectStatus> {
  if (!input.userId || !(await isApproved({ userId: input.userId, agentId: input.agent.id }))) return "authorization_required";
  const prisma = await db();
  if (input.capability) {
    const granted = await prisma.capabilityGrant.findUnique({
      where: { userId_agentId_capability: { userId: input.userId, agentId: input.agent.id, capability: input.capability } },
    });
    if (!granted) return "permission_needed";
  }
  if (input.app) {
    // The app is ready for this agent only when the person gave it this agent: a connection made for
    // another agent reads as not connected (connecting it here, or one tap when it is connected, grants it).
    if (!(await readsApp({ userId: input.userId, agentId: input.agent.id, app: input.app }))) return "connect_app";
    const connected = await prisma.appConnection.findFirst({ where: { userId: input.userId, app: input.app, status: "active" }, select: { id: true } });
    if (!connected) return "connect_app";
  }
  return "import_ready";
}

/** A return_url is accepted only on a destination the developer registered (400 invalid_return_url otherwise). */
export async function checkReturnUrl(input: { developerId: string; url: string }): Promise<void> {
  const problem = await returnUrlProblem(input);
  if (problem) throw new ApiError("invalid_return_url", problem, { fields: [{ field: "return_url", message: problem }] });
}

/** The person a connect request names: by the resolved user, or by the developer's own id (known or not). */
export async function personFor(input: { developerId: string; plane: Plane; agentId: string; userId?: string | null; externalId?: string | null }) {
  if (input.userId) return { userId: input.userId, externalId: null };
  if (!input.externalId) throw new ApiError("user_required", MESSAGES.userRequired);
  const found = await findExternalUser({ developerId: input.developerId, plane: input.plane, externalId: input.externalId, agentId: input.agentId });
  return { userId: found?.userId ?? null, externalId: input.externalId };
}

/** POST /v1/profile/connect: the status and the link (the same link again while it is valid). */
export async function mintConnectLink(input: MintInput) {
  const limited = await mintLimiter.consume(input.developerId);
  if (!limited.allowed) {
    throw new ApiError("rate_limited", MESSAGES.rateLimited, { retry_after: limited.retryAfter }, { "Retry-After": String(limited.retryAfter) });
  }
  const status = await decide(input);
  const prisma = await db();
  const at = clockNow();
  const same = {
    developerId: input.developerId,
    agentId: input.agent.id,
    plane: input.plane,
    userId: input.userId,
    externalId: input.userId ? null : input.externalId,
    app: input.app ?? null,
    capability: input.capability ?? null,
  };
  const reusable = await prisma.connectLink.findFirst({ where: { ...same, expiresAt: { gt: at } }, orderBy: { createdAt: "desc" } });
  const link =
    reusable ??
    (await prisma.connectLink.create({
      data: {
        id: newId(PREFIX.connectLink),
        ...same,
        purpose: input.purpose,
        clientName: input.clientName,
        returnUrl: input.returnUrl,
        reason: status,
        createdAt: at,
        expiresAt: new Date(at.getTime() + CONNECT_LINK_TTL_SECONDS * 1000),
      },
    }));
  const url = connectLinkUrl(link.id);
  return {
    status,
    connect_url: url,
    expires_at: link.expiresAt.toISOString(),
    instructions: instructions(status, { app: input.app, capability: input.capability, url, expiresAt: link.expiresAt }),
  };
}

/** GET <connect_url>/status. Null for an unknown link. */
export async function linkStatus(id: string): Promise<LinkStatus | null> {
  if (!isIdOf(PREFIX.connectLink, id)) return null;
  const link = await (await db()).connectLink.findUnique({ where: { id }, select: { status: true, expiresAt: true } });
  if (!link) return null;
  if (link.status === "approved") return "approved";
  return link.expiresAt <= clockNow() ? "expired" : "pending";
}

/** A link a person opened, as its flow starts: who it is for, the person already signed in, and what the flow carries. */
export interface OpenedConnectLink {
  developerId: string;
  agentId: string;
  plane: Plane;
  /** The person whose session counts here; null when phone and code are asked for. */
  userId: string | null;
  request: ConnectLinkRequest;
  required: RequiredEntry[];
}

/**
 * A person opens a link: a hosted flow starts for what it asks, until expires_at, as often as it is
 * opened. A person already signed in (in the link's plane, and the one the link names, if it names
 * one) skips phone and code, except on a link that would bind the developer's id for a person. An
 * unknown or expired link opens nothing.
 */
export async function connectLinkToOpen({
  linkId,
  sessionUserId,
}: {
  linkId: string;
  sessionUserId: string | null;
}): Promise<OpenedConnectLink | { refused: "unknown" | "expired" }> {
  const prisma = await db();
  const link = isIdOf(PREFIX.connectLink, linkId) ? await prisma.connectLink.findUnique({ where: { id: linkId } }) : null;
  if (!link) return { refused: "unknown" };
  // Valid until expires_at and reusable, also once approved (the spec's connect link).
  if (link.expiresAt <= clockNow()) return { refused: "expired" };
  // A link that would bind the developer's id for a person asks for phone and code whoever is signed in:
  // a long-lived session is not consent to be linked. Otherwise the session counts only for the person
  // the link names, in the link's plane (and, for a test user, the link's developer).
  const bindsExternalId = !link.userId && !!link.externalId;
  const signedIn =
    sessionUserId && !bindsExternalId && (!link.userId || link.userId === sessionUserId)
      ? await prisma.user.findFirst({
          where: { id: sessionUserId, plane: link.plane, ...(link.plane === "test" ? { developerId: link.developerId } : {}) },
          select: { id: true },
        })
      : null;
  return {
    developerId: link.developerId,
    agentId: link.agentId,
    plane: link.plane,
    userId: signedIn?.id ?? null,
    request: {
      connect_link_id: link.id,
      app: link.app,
      capability: link.capability,
      purpose: link.purpose,
      client_name: link.clientName,
      return_url: link.returnUrl,
      signed_in: !!signedIn,
      binds_external_id: bindsExternalId,
      for_user_id: link.userId,
    },
    // A one-app link's app is marked Required on its screen.
    required: link.app ? [[link.app as RequiredEntry[number]]] : [],
  };
}

/** What the flow a link opened did, as its link's approval reads it. */
export interface FinishedConnectLink {
  linkId: string;
  /** The account that finished the flow. */
  userId: string;
  /** The person allowed the capability the link asks for. */
  capabilityAllowed: boolean;
  /** The flow was opened to bind the developer's own id for the person (ConnectLinkRequest.binds_external_id). */
  bindsExternalId: boolean;
  /** The keyed hash of the number whose code was entered in the flow, if one was. */
  phoneHash: string | null;
}

/**
 * A finished flow's connect link (inside the flow's finishing transaction): what it asked for is
 * granted (a capability the person allowed), the developer's own id for the person is linked when the
 * link named one, and the link reads approved.
 */
export async function approveConnectLink(tx: Prisma.TransactionClient, input: FinishedConnectLink): Promise<void> {
  const link = await tx.connectLink.findUnique({ where: { id: input.linkId } });
  if (!link) return;
  if (link.capability && input.capabilityAllowed) {
    await tx.capabilityGrant.upsert({
      where: { userId_agentId_capability: { userId: input.userId, agentId: link.agentId, capability: link.capability } },
      create: { userId: input.userId, agentId: link.agentId, capability: link.capability },
      update: {},
    });
  }
  // The developer's id for the person is bound only by a code entered in this flow, to an account of the
  // link's plane and developer, and only while no account holds it: a later link never re-binds it.
  if (link.externalId && input.bindsExternalId && input.phoneHash) {
    const user = await tx.user.findUniqueOrThrow({ where: { id: input.userId }, select: { plane: true, developerId: true, phoneHash: true } });
    const sameDeveloper = user.plane === "live" || user.developerId === link.developerId;
    if (user.plane === link.plane && sameDeveloper && user.phoneHash === input.phoneHash) {
      await bindExternalIdOnce({ developerId: link.developerId, plane: link.plane, externalId: link.externalId, userId: input.userId }, tx);
    }
  }
  // One conditional update: the link reads approved only for the account it was minted for (or, minted
  // for none, the account that finished it); submitCode lets no other account get this far.
  const approved = await tx.connectLink.updateMany({
    where: { id: link.id, OR: [{ userId: null }, { userId: input.userId }] },
    data: { status: "approved", approvedAt: clockNow(), userId: input.userId },
  });
  if (approved.count !== 1) throw new Error("a connect link was finished by an account it was not minted for");
}
