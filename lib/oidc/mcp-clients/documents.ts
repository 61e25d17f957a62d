// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): an MCP client whose
// client_id is an https URL publishes its metadata there. The service fetches it when the client asks
// to sign someone in and again once it is stale, boundedly: https only outside development mode, no
// private addresses, a short timeout, a size cap, no redirects. A document the service has not seen
// before is read into the flow only (counted against the per-IP registration limit, like a dynamic
// registration); its client and agent rows are made when a flow from it completes, so authorize
// requests alone store nothing for it. The client's row keeps what was read.
import type { LookupAddress } from "node:dns";
import { now as clockNow } from "../../platform/clock";
import { db } from "../../platform/db";
import type { Prisma } from "../../platform/db/generated/client";
import { developmentMode } from "../../env";
import { isRefusedAddress, pinnedRequest, resolveHost } from "../../http/outbound";
import { ipLimitKey } from "../../http/request";
import { logger } from "../../platform/log";
import { clearClientCache } from "../client-auth";
import { PERSONAL_MCP_DEVELOPER_ID } from "../../developers/personal-mcp-account";
import { CLIENT_KINDS } from "../client-kinds";
import { DOCUMENT_MAX_AGE_SECONDS, DOCUMENT_MAX_BYTES, DOCUMENT_TIMEOUT_MS, MAX_DOCUMENT_URL_LENGTH } from "./limits";
import { ClientMetadataError, createMcpClient, mcpClientDisplayName, originOf, parseClientMetadata, type ClientMetadata } from "./clients";
import { storedClientDocument, type StoredClientDocument } from "./pending";
import { registrationLimiter } from "./registration";

const USER_AGENT = "profile-signin-service/client-metadata";

/**
 * Whether a client_id names a metadata document: an https URL with a path and no fragment, query or
 * credentials (http is taken on localhost in development mode, for local clients under test).
 */
export function isMetadataDocumentId(clientId: string): boolean {
  if (clientId.length > MAX_DOCUMENT_URL_LENGTH || !URL.canParse(clientId)) return false;
  const url = new URL(clientId);
  const scheme = url.protocol === "https:" || (url.protocol === "http:" && developmentMode() && (url.hostname === "localhost" || url.hostname === "127.0.0.1"));
  return scheme && url.pathname !== "/" && !url.hash && !url.search && !url.username && !url.password && !clientId.includes("#");
}

/** Why a document could not be used, for the person's error page (never the document's content). */
export class DocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DocumentError";
  }
}

/**
 * The one answer for a document that could not be read as this client's: whether its host resolves,
 * is private, is slow, refuses, answers another status or something other than a JSON object naming
 * this address are told apart only in the log, so the error page is no probe of hosts and ports.
 */
export const DOCUMENT_UNREADABLE = "The client's metadata document could not be read from its address.";
/** Over the registration limit: new documents are read from one address as often as clients register. */
export const DOCUMENT_CLIENTS_RATE_LIMITED = "Too many new MCP clients were started from this network. Try again later.";

/** The refused registration-limit check of a new document, with when to retry. */
export class DocumentRateLimited extends Error {
  constructor(readonly retryAfter: number) {
    super(DOCUMENT_CLIENTS_RATE_LIMITED);
    this.name = "DocumentRateLimited";
  }
}

/** A document not seen before, as read for one authorize request: carried in its flow until the flow completes. */
export interface PendingDocumentClient {
  url: string;
  metadata: ClientMetadata;
  displayName: string;
  fetchedAt: Date;
}

export function toStoredClientDocument(pending: PendingDocumentClient): StoredClientDocument {
  return { url: pending.url, metadata: pending.metadata, display_name: pending.displayName, fetched_at: pending.fetchedAt.toISOString() };
}

function unreadable(clientId: string, reason: string, detail: Record<string, unknown> = {}): DocumentError {
  logger().info({ client_id: clientId, reason, ...detail }, "client metadata document unreadable");
  return new DocumentError(DOCUMENT_UNREADABLE);
}

/**
 * The client a metadata document describes. A stored client is read again when its copy is stale (a
 * document that cannot be read keeps the stored copy until it is a day old) and answered as
 * { stored: true }. A document not stored is fetched and checked — one count of the per-IP
 * registration limit — and answered as pending: nothing is written until a flow from it completes
 * (bindDocumentClient).
 */
export async function documentClient(clientId: string, ip: string): Promise<{ stored: true } | { stored: false; pending: PendingDocumentClient }> {
  const prisma = await db();
  const stored = await prisma.oAuthClient.findUnique({ where: { id: clientId }, select: { kind: true, metadataFetchedAt: true, agentId: true } });
  if (stored && stored.kind !== CLIENT_KINDS.document) throw new DocumentError("This client id is not a metadata document.");
  const at = clockNow();
  const age = stored?.metadataFetchedAt ? (at.getTime() - stored.metadataFetchedAt.getTime()) / 1000 : Infinity;
  if (stored && age < DOCUMENT_MAX_AGE_SECONDS) return { stored: true };
  if (!stored) {
    const limited = await registrationLimiter.consume(`ip:${ipLimitKey(ip)}`);
    if (!limited.allowed) throw new DocumentRateLimited(limited.retryAfter);
  }

  let metadata;
  try {
    metadata = await readDocument(clientId);
  } catch (err) {
    if (stored && age < 24 * 60 * 60 && !(err instanceof ClientMetadataError)) return { stored: true };
    if (err instanceof ClientMetadataError) throw new DocumentError(`The client's metadata document is invalid: ${err.description}`);
    throw err;
  }

  const displayName = mcpClientDisplayName(metadata, clientId);
  if (!stored) return { stored: false, pending: { url: clientId, metadata, displayName, fetchedAt: at } };
  await prisma.$transaction(async (tx) => {
    await tx.oAuthRedirectUri.deleteMany({ where: { clientId } });
    await tx.oAuthRedirectUri.createMany({ data: metadata.redirect_uris.map((uri) => ({ clientId, uri, origin: originOf(uri) })) });
    await tx.oAuthClient.update({
      where: { id: clientId },
      data: { clientName: metadata.client_name ?? null, clientUri: metadata.client_uri ?? null, logoUri: metadata.logo_uri ?? null, metadataFetchedAt: at },
    });
    if (stored.agentId) await tx.agent.updateMany({ where: { id: stored.agentId, developerId: PERSONAL_MCP_DEVELOPER_ID }, data: { displayName } });
  });
  clearClientCache();
  return { stored: true };
}

/** Fetches and checks a document: a public client's metadata at the address it names as its client_id. */
async function readDocument(clientId: string): Promise<ClientMetadata> {
  const document = await fetchDocument(clientId);
  if (document.client_id !== clientId) throw unreadable(clientId, "client_id differs from the address", { document_client_id: String(document.client_id).slice(0, 200) });
  // From here the document names itself: what is wrong with it is told, for its publisher to fix.
  if ("client_secret" in document || "client_secret_expires_at" in document) throw new DocumentError("A metadata document must not carry a client secret.");
  const metadata = parseClientMetadata(document);
  const method = metadata.token_endpoint_auth_method ?? "none";
  if (method !== "none") throw new DocumentError("A client known by its metadata document authenticates with none (a public client using PKCE).");
  return metadata;
}

// Serialises the first completions of flows from one new document, so one client and one agent are made.
const DOCUMENT_CLIENT_LOCK = 6_863_707;

/**
 * At the completion of a flow started from a document not stored then: makes the client and its agent
 * from what the flow read (or takes the ones another flow from the same document made meanwhile) and
 * binds the flow to them, in the caller's transaction. Null for any other flow, or one already bound.
 */
export async function bindDocumentClient(
  tx: Prisma.TransactionClient,
  flow: { id: string; agentId: string | null; clientId: string | null; request: unknown },
): Promise<{ agentId: string; clientId: string } | null> {
  if (flow.agentId || flow.clientId || typeof flow.request !== "object" || flow.request === null) return null;
  const raw = (flow.request as { client_document?: unknown }).client_document;
  if (raw === undefined) return null;
  const doc = storedClientDocument.parse(raw);
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${DOCUMENT_CLIENT_LOCK}, hashtext(${doc.url}))`;
  const existing = await tx.oAuthClient.findUnique({ where: { id: doc.url }, select: { kind: true, agentId: true } });
  let agentId: string;
  if (existing) {
    if (existing.kind !== CLIENT_KINDS.document || !existing.agentId) throw new DocumentError("This client id is not a metadata document.");
    agentId = existing.agentId;
  } else {
    const metadata = parseClientMetadata(doc.metadata);
    ({ agentId } = await createMcpClient(tx, { id: doc.url, kind: CLIENT_KINDS.document, method: "none", secretHash: null, metadata, displayName: doc.display_name }));
    await tx.oAuthClient.update({ where: { id: doc.url }, data: { metadataFetchedAt: new Date(doc.fetched_at) } });
  }
  await tx.flowSession.update({ where: { id: flow.id }, data: { agentId, clientId: doc.url } });
  clearClientCache();
  return { agentId, clientId: doc.url };
}

/**
 * GETs the document: resolved, checked, pinned; JSON of at most DOCUMENT_MAX_BYTES within
 * DOCUMENT_TIMEOUT_MS. Every failure is DOCUMENT_UNREADABLE, its reason logged.
 */
async function fetchDocument(clientId: string): Promise<Record<string, unknown>> {
  const url = new URL(clientId);
  const signal = AbortSignal.timeout(DOCUMENT_TIMEOUT_MS);
  let addresses: LookupAddress[];
  try {
    addresses = await resolveHost(url.hostname.replace(/^\[(.*)\]$/, "$1"), signal);
  } catch (err) {
    throw unreadable(clientId, signal.aborted ? `timeout (${DOCUMENT_TIMEOUT_MS} ms)` : "does not resolve", { err: err instanceof Error ? err.message : String(err) });
  }
  if (!addresses.length) throw unreadable(clientId, "does not resolve");
  if (!developmentMode() && addresses.some((a) => isRefusedAddress(a.address))) throw unreadable(clientId, "private address");
  let answer;
  try {
    answer = await pinnedRequest({
      url,
      addresses,
      method: "GET",
      headers: { Accept: "application/json", "User-Agent": USER_AGENT },
      signal,
      readBody: { maxBytes: DOCUMENT_MAX_BYTES },
    });
  } catch (err) {
    throw unreadable(clientId, signal.aborted ? `timeout (${DOCUMENT_TIMEOUT_MS} ms)` : "request failed", { err: err instanceof Error ? err.message : String(err) });
  }
  if (answer.status !== 200) throw unreadable(clientId, "status", { status: answer.status });
  if (answer.body === null) throw unreadable(clientId, `larger than ${DOCUMENT_MAX_BYTES} bytes`);
  let document: unknown;
  try {
    document = JSON.parse(answer.body.toString("utf8"));
  } catch {
    throw unreadable(clientId, "not JSON");
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) throw unreadable(clientId, "not a JSON object");
  return document as Record<string, unknown>;
}
