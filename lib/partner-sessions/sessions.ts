// Partner flow sessions (POST /v1/flows/sessions): a partner asks for a person's profile under its own
// user id for them (partner_ref). The session is a link, {BASE_URL}/partner/pfs_…, that opens a hosted
// flow (the "partner" way in, lib/flow/ways-in/partner.ts) until expires_at; the first flow from it to
// finish completes it, and GET /v1/flows/sessions/:id then tells the partner what the person imported
// and connected.
import { ASSISTANTS, isAssistant, type Assistant } from "../catalogue";
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import type { Plane } from "../platform/db/generated/enums";
import { env } from "../env";
import { ApiError } from "../http/errors";
import { isIdOf, newId, PREFIX } from "../platform/ids";
import { clearUserAccessCache } from "../users/approvals";
import { parseRequiredList, RequiredError, storedRequired, type RequiredEntry } from "../required/entries";
import { bindExternalIdOnce } from "../users/users";
import type { PartnerLinkRequest } from "./flow-request";
import type { PartnerFlow } from "./flows";
import type { PartnerSessionStatus } from "./statuses";

/** How long a partner session's link opens flows. */
export const PARTNER_SESSION_TTL_SECONDS = 24 * 60 * 60;

export const PARTNER_ERRORS = {
  notFound: "No partner flow session with this id.",
  noSources: "sources must name at least one assistant: chatgpt, claude, gemini, grok.",
  unknownSources: (names: string[]) => `sources names assistants this service does not offer: ${names.join(", ")}.`,
  requiredOnImport: "required is not accepted on the import-only flow (import): it offers no apps and asks for no number.",
} as const;

/** The hosted notice a browser gets for a link that opens nothing. */
export const PARTNER_LINK_REFUSED = {
  unknown: { title: "This link is not valid", text: "Ask the app for a new one.", status: 404 },
  expired: { title: "This link has expired", text: "Ask the app for a new one.", status: 410 },
  used: { title: "This link was already used", text: "Your profile was brought to the app with it. Ask the app for a new link to add more.", status: 410 },
  taken: {
    title: "This link cannot be used",
    text: "The profile it is for belongs to someone who signs in with their phone number. Ask the app for a new link.",
    status: 409,
  },
} as const;

/** A session created without `flow`: the connect flow where the installation has it, otherwise the import-only flow. */
export function defaultPartnerFlow(): PartnerFlow {
  return env().PARTNER_CONNECT_FLOW === "true" ? "connect" : "import";
}

export function partnerUrl(id: string): string {
  return `${env().BASE_URL}/partner/${id}`;
}

function badInput(field: string, message: string, rejected: string[]): ApiError {
  return new ApiError("invalid_request", message, { fields: [{ field, message }], rejected });
}

/** The assistants a session offers: the names given (each known, or a 400 naming the others), all four by default. */
function parseSources(raw: readonly string[] | undefined): Assistant[] {
  if (raw === undefined) return [...ASSISTANTS];
  const names = [...new Set(raw.map((s) => s.trim().toLowerCase()))];
  const unknown = names.filter((n) => !isAssistant(n));
  if (unknown.length) throw badInput("sources", PARTNER_ERRORS.unknownSources(unknown), unknown);
  if (!names.length) throw badInput("sources", PARTNER_ERRORS.noSources, []);
  return ASSISTANTS.filter((a) => names.includes(a));
}

/** The session's required entries: the body's JSON list (lib/required/entries.ts), refused whole when anything in it is not accepted. */
function parseRequired(raw: unknown, flow: PartnerFlow, sources: Assistant[]): RequiredEntry[] {
  if (raw === undefined) return [];
  if (flow === "import") throw badInput("required", PARTNER_ERRORS.requiredOnImport, ["required"]);
  try {
    return parseRequiredList(raw, { sources });
  } catch (err) {
    if (err instanceof RequiredError) throw badInput("required", `${err.message}.`, err.rejected);
    throw err;
  }
}

type SessionRow = NonNullable<Awaited<ReturnType<Awaited<ReturnType<typeof db>>["partnerSession"]["findUnique"]>>>;

function statusOf(row: Pick<SessionRow, "status" | "expiresAt">, at = clockNow()): PartnerSessionStatus {
  if (row.status === "completed") return "completed";
  return row.expiresAt <= at ? "expired" : "open";
}

const stringList = (value: Prisma.JsonValue): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/** The session as both routes answer it: what was asked, its link and status, and what the flow that finished it brought. */
async function sessionView(row: SessionRow) {
  const prisma = await db();
  const importIds = stringList(row.importIds);
  const imports = importIds.length
    ? await prisma.import.findMany({ where: { id: { in: importIds } }, select: { id: true, provider: true, memoryCount: true }, orderBy: { createdAt: "asc" } })
    : [];
  const imported = ASSISTANTS.flatMap((provider) => {
    const of = imports.filter((i) => i.provider === provider);
    return of.length ? [{ provider, memories: of.reduce((n, i) => n + i.memoryCount, 0), import_ids: of.map((i) => i.id) }] : [];
  });
  let linked: boolean | null = null;
  if (row.status === "completed" && row.userId) {
    const held = await prisma.externalUserId.findUnique({
      where: { developerId_plane_externalId: { developerId: row.developerId, plane: row.plane, externalId: row.partnerRef } },
      select: { userId: true },
    });
    linked = held?.userId === row.userId;
  }
  return {
    id: row.id,
    flow: row.flow as PartnerFlow,
    partner_ref: row.partnerRef,
    sources: stringList(row.sources).filter(isAssistant),
    required: storedRequired.parse(row.required),
    status: statusOf(row),
    url: partnerUrl(row.id),
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    imported,
    connected: stringList(row.connected),
    partner_ref_linked: linked,
  };
}

export interface CreateInput {
  developerId: string;
  plane: Plane;
  agentId: string;
  flow?: PartnerFlow;
  partnerRef: string;
  sources?: string[];
  required?: unknown;
}

/** POST /v1/flows/sessions: a new session and its link. */
export async function createPartnerSession(input: CreateInput) {
  const flow = input.flow ?? defaultPartnerFlow();
  const sources = parseSources(input.sources);
  const required = parseRequired(input.required, flow, sources);
  const at = clockNow();
  const row = await (
    await db()
  ).partnerSession.create({
    data: {
      id: newId(PREFIX.partnerSession),
      developerId: input.developerId,
      agentId: input.agentId,
      plane: input.plane,
      flow,
      partnerRef: input.partnerRef,
      sources,
      required,
      createdAt: at,
      expiresAt: new Date(at.getTime() + PARTNER_SESSION_TTL_SECONDS * 1000),
    },
  });
  return sessionView(row);
}

/** GET /v1/flows/sessions/:id: the session, for the developer, agent and key plane that created it only (404 otherwise). */
export async function getPartnerSession(input: { id: string; developerId: string; agentId: string; plane: Plane }) {
  const row = isIdOf(PREFIX.partnerSession, input.id) ? await (await db()).partnerSession.findUnique({ where: { id: input.id } }) : null;
  if (!row || row.developerId !== input.developerId || row.agentId !== input.agentId || row.plane !== input.plane) {
    throw new ApiError("not_found", PARTNER_ERRORS.notFound);
  }
  return sessionView(row);
}

/** The account partner_ref names now (in the session's developer and plane), and whether it signs in with a number. */
async function holderOf(session: Pick<SessionRow, "developerId" | "plane" | "partnerRef">, tx?: Prisma.TransactionClient) {
  const held = await (tx ?? (await db())).externalUserId.findUnique({
    where: { developerId_plane_externalId: { developerId: session.developerId, plane: session.plane, externalId: session.partnerRef } },
    select: { user: { select: { id: true, phoneHash: true } } },
  });
  return held ? { userId: held.user.id, signsIn: !!held.user.phoneHash } : null;
}

/** A session's link a person opened, as its flow starts: who it is for, and what the flow carries. */
export interface OpenedPartnerLink {
  developerId: string;
  agentId: string;
  plane: Plane;
  request: PartnerLinkRequest;
  required: RequiredEntry[];
}

/**
 * A person opens the link: a hosted flow starts for the session, as often as it is opened until
 * expires_at or until a flow from it finishes. No session in the browser counts: connect and
 * linked_account always ask for phone and code, and the import-only flow never does.
 */
export async function partnerLinkToOpen(sessionId: string): Promise<OpenedPartnerLink | { refused: keyof typeof PARTNER_LINK_REFUSED }> {
  const prisma = await db();
  const session = isIdOf(PREFIX.partnerSession, sessionId) ? await prisma.partnerSession.findUnique({ where: { id: sessionId } }) : null;
  if (!session) return { refused: "unknown" };
  const status = statusOf(session);
  if (status !== "open") return { refused: status === "completed" ? "used" : "expired" };
  const flow = session.flow as PartnerFlow;
  const holder = await holderOf(session);
  // The import-only flow writes under partner_ref's own account: never into the profile of a person who
  // signs in with their number, which only a code in the browser may add to.
  if (flow === "import" && holder?.signsIn) return { refused: "taken" };
  const phoneFirst =
    flow === "linked_account" && !!(await prisma.developer.findUnique({ where: { id: session.developerId }, select: { partnerPhoneFirst: true } }))?.partnerPhoneFirst;
  return {
    developerId: session.developerId,
    agentId: session.agentId,
    plane: session.plane,
    request: {
      partner_session_id: session.id,
      flow,
      sources: stringList(session.sources).filter(isAssistant),
      phone_first: phoneFirst,
      binds_external_id: flow !== "import" && !holder,
    },
    required: storedRequired.parse(session.required),
  };
}

/** The import-only flow's Continue on a link that can no longer write where it would. */
export const PARTNER_REF_TAKEN = "This link can no longer be used: the profile it is for belongs to someone who signs in with their phone number. Ask the app for a new link.";

/**
 * The account the import-only flow saves to: the one partner_ref already names (made by an earlier
 * import-only flow), or a new account with no number, named by partner_ref in the session's developer
 * and plane. Null when partner_ref names a person who signs in with a number (PARTNER_REF_TAKEN).
 */
export async function partnerImportUser(sessionId: string): Promise<string | null> {
  const prisma = await db();
  const session = await prisma.partnerSession.findUniqueOrThrow({ where: { id: sessionId } });
  const existing = await holderOf(session);
  if (existing) return existing.signsIn ? null : existing.userId;
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.create({ data: { plane: session.plane, developerId: session.developerId }, select: { id: true } });
    const bound = await bindExternalIdOnce({ developerId: session.developerId, plane: session.plane, externalId: session.partnerRef, userId: user.id }, tx);
    if (bound) return user.id;
    // Another flow named partner_ref meanwhile: its account is the one.
    await tx.user.delete({ where: { id: user.id } });
    const now = await holderOf(session, tx);
    return now && !now.signsIn ? now.userId : null;
  });
}

/** What the flow a session's link opened did, as the session's completion reads it. */
export interface FinishedPartnerLink {
  sessionId: string;
  /** The account that finished the flow. */
  userId: string;
  /** The imports saved from what was brought in, and the apps connected. */
  importIds: string[];
  connected: string[];
  /** The flow was opened to bind partner_ref (PartnerLinkRequest.binds_external_id). */
  bindsExternalId: boolean;
  /** The keyed hash of the number whose code was entered in the flow, if one was. */
  phoneHash: string | null;
}

/**
 * Inside the finishing transaction of a flow opened from a partner link: the first flow to finish
 * completes the session (with the account, the imports saved and the apps connected); a later one
 * leaves it as it is. A connect or linked_account flow binds partner_ref to the account behind the
 * number entered in this flow, only while no account holds it: an id once bound is never moved.
 */
export async function completePartnerSession(tx: Prisma.TransactionClient, input: FinishedPartnerLink): Promise<void> {
  const session = await tx.partnerSession.findUnique({ where: { id: input.sessionId } });
  if (!session) return;
  if (input.bindsExternalId && input.phoneHash) {
    const user = await tx.user.findUniqueOrThrow({ where: { id: input.userId }, select: { plane: true, developerId: true, phoneHash: true } });
    const sameDeveloper = user.plane === "live" || user.developerId === session.developerId;
    if (user.plane === session.plane && sameDeveloper && user.phoneHash === input.phoneHash) {
      await bindExternalIdOnce({ developerId: session.developerId, plane: session.plane, externalId: session.partnerRef, userId: input.userId }, tx);
    }
  }
  await tx.partnerSession.updateMany({
    where: { id: session.id, status: "open" },
    data: { status: "completed", userId: input.userId, importIds: input.importIds, connected: input.connected, completedAt: clockNow() },
  });
  clearUserAccessCache();
}
