// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): an MCP client whose
// client_id is an https URL publishes its metadata there. The service fetches it when the client first
// asks to sign someone in and again once it is stale, boundedly: https only outside development mode,
// no private addresses, a short timeout, a size cap, no redirects. The client's row keeps what was read.
import type { LookupAddress } from "node:dns";
import { now as clockNow } from "../clock";
import { db } from "../db";
import { developmentMode } from "../env";
import { isRefusedAddress, pinnedRequest, resolveHost } from "../http/outbound";
import { clearClientCache } from "../oidc/client-auth";
import { CLIENT_KINDS, PERSONAL_MCP_DEVELOPER_ID } from "./account";
import { DOCUMENT_MAX_AGE_SECONDS, DOCUMENT_MAX_BYTES, DOCUMENT_TIMEOUT_MS, MAX_DOCUMENT_URL_LENGTH } from "./limits";
import { ClientMetadataError, createMcpClient, mcpClientDisplayName, originOf, parseClientMetadata } from "./clients";

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
 * The client a metadata document describes, fetched now unless the stored copy is fresh; its id is
 * the document's URL. A document that cannot be read while a stored copy exists keeps the stored
 * copy until it is a day old.
 */
export async function documentClient(clientId: string): Promise<void> {
  const prisma = await db();
  const stored = await prisma.oAuthClient.findUnique({ where: { id: clientId }, select: { kind: true, metadataFetchedAt: true, agentId: true } });
  if (stored && stored.kind !== CLIENT_KINDS.document) throw new DocumentError("This client id is not a metadata document.");
  const at = clockNow();
  const age = stored?.metadataFetchedAt ? (at.getTime() - stored.metadataFetchedAt.getTime()) / 1000 : Infinity;
  if (age < DOCUMENT_MAX_AGE_SECONDS) return;

  let metadata;
  try {
    const document = await fetchDocument(clientId);
    if (document.client_id !== clientId) throw new DocumentError("The metadata document's client_id is not the address it was fetched from.");
    if ("client_secret" in document || "client_secret_expires_at" in document) throw new DocumentError("A metadata document must not carry a client secret.");
    metadata = parseClientMetadata(document);
    const method = metadata.token_endpoint_auth_method ?? "none";
    if (method !== "none") throw new DocumentError("A client known by its metadata document authenticates with none (a public client using PKCE).");
  } catch (err) {
    if (stored && age < 24 * 60 * 60 && !(err instanceof ClientMetadataError)) return;
    if (err instanceof ClientMetadataError) throw new DocumentError(`The client's metadata document is invalid: ${err.description}`);
    throw err;
  }

  const displayName = mcpClientDisplayName(metadata, clientId);
  await prisma.$transaction(async (tx) => {
    if (!stored) {
      await createMcpClient(tx, { id: clientId, kind: CLIENT_KINDS.document, method: "none", secretHash: null, metadata, displayName });
    } else {
      await tx.oAuthRedirectUri.deleteMany({ where: { clientId } });
      await tx.oAuthRedirectUri.createMany({ data: metadata.redirect_uris.map((uri) => ({ clientId, uri, origin: originOf(uri) })) });
      await tx.oAuthClient.update({
        where: { id: clientId },
        data: { clientName: metadata.client_name ?? null, clientUri: metadata.client_uri ?? null, logoUri: metadata.logo_uri ?? null },
      });
      if (stored.agentId) await tx.agent.updateMany({ where: { id: stored.agentId, developerId: PERSONAL_MCP_DEVELOPER_ID }, data: { displayName } });
    }
    await tx.oAuthClient.update({ where: { id: clientId }, data: { metadataFetchedAt: at } });
  });
  clearClientCache();
}

/** GETs the document: resolved, checked, pinned; JSON of at most DOCUMENT_MAX_BYTES within DOCUMENT_TIMEOUT_MS. */
async function fetchDocument(clientId: string): Promise<Record<string, unknown>> {
  const url = new URL(clientId);
  const signal = AbortSignal.timeout(DOCUMENT_TIMEOUT_MS);
  let addresses: LookupAddress[];
  try {
    addresses = await resolveHost(url.hostname.replace(/^\[(.*)\]$/, "$1"), signal);
  } catch {
    throw new DocumentError(`The client's metadata document could not be fetched: ${url.host} does not resolve.`);
  }
  if (!addresses.length) throw new DocumentError(`The client's metadata document could not be fetched: ${url.host} does not resolve.`);
  if (!developmentMode() && addresses.some((a) => isRefusedAddress(a.address))) {
    throw new DocumentError("The client's metadata document is on a private address, which the service does not fetch.");
  }
  let answer;
  try {
    answer = await pinnedRequest({ url, addresses, method: "GET", headers: { Accept: "application/json", "User-Agent": USER_AGENT }, signal, readBody: { maxBytes: DOCUMENT_MAX_BYTES } });
  } catch {
    throw new DocumentError(signal.aborted ? `The client's metadata document took longer than ${DOCUMENT_TIMEOUT_MS / 1000} s.` : "The client's metadata document could not be fetched.");
  }
  if (answer.status !== 200) throw new DocumentError(`The client's metadata document answered HTTP ${answer.status} (redirects are not followed).`);
  if (answer.body === null) throw new DocumentError(`The client's metadata document is larger than ${DOCUMENT_MAX_BYTES} bytes.`);
  let document: unknown;
  try {
    document = JSON.parse(answer.body.toString("utf8"));
  } catch {
    throw new DocumentError("The client's metadata document is not JSON.");
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) throw new DocumentError("The client's metadata document is not a JSON object.");
  return document as Record<string, unknown>;
}
