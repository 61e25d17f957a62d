// SSO clients (POST /v1/sso/client) and approved origins (POST /v1/sso/origins): the registration
// rules of the specification, each refusal a constant message.
import { randomBase62 } from "../platform/crypto";
import { db } from "../platform/db";
import { env } from "../env";
import { addOrigin, normalizeOrigin } from "../developers/developers";
import { ApiError } from "../http/errors";
import { isIdOf, newId, PREFIX } from "../platform/ids";
import { resolveApiKey } from "../api-keys/api-keys";
import { lazyLimiter } from "../platform/ratelimit";
import { clearClientCache, hashClientSecret, type TokenEndpointAuthMethod } from "./client-auth";
import { OIDC_SCOPES } from "./discovery";

export { hashClientSecret };

/** Callbacks one client holds at most. */
export const MAX_REDIRECT_URIS_PER_CLIENT = 25;
/**
 * Localhost callbacks a client keeps. They need no setup beyond the publishable key, which is public,
 * so anyone could add them: they are held to this many (the oldest dropped for a new one), and a
 * callback on an approved origin (which needed the secret key) takes the oldest one's place when the
 * client is full. Localhost callbacks can never crowd out real ones.
 */
export const MAX_LOCALHOST_REDIRECT_URIS_PER_CLIENT = 10;
export const MAX_REDIRECT_URI_LENGTH = 2_048;
/**
 * Confidential clients one developer account holds per key plane from POST /v1/sso/client. The
 * publishable key that makes them is public, so what it can make is bounded; a request identical to
 * one already answered (the same method and a callback the client holds) answers that client again.
 */
export const MAX_CONFIDENTIAL_CLIENTS_PER_PLANE = 10;
/**
 * New localhost callbacks (on the public client, or a confidential client for one) each publishable
 * key registers per hour: they need nothing beyond that public key, and each may take the place of
 * the developer's own oldest localhost callback.
 */
const localhostRegistrations = lazyLimiter(() => ({ name: "sso-localhost", points: env().SSO_LOCALHOST_CALLBACKS_PER_HOUR, durationSeconds: 3600 }));

export const SSO_MESSAGES = {
  originNotApproved: "Origin not approved; register it with POST /v1/sso/origins",
  invalidPublishableKey: "Unknown or non-publishable key",
  publishableKeyRequired: "publishable_key (pk_) is required",
  invalidRedirectUri: "a valid redirect_uri is required (absolute URL)",
  noActiveAgent: "the developer has no active agent to bind SSO to",
  invalidOrigin: "origin must be an https origin (or localhost)",
  tooManyRedirectUris: `a client holds at most ${MAX_REDIRECT_URIS_PER_CLIENT} redirect_uris`,
  clientNotFound: "No client with this id belongs to this developer account in this key plane.",
  redirectUriNotFound: "This client has no such redirect_uri.",
  tooManyClients: `a developer account holds at most ${MAX_CONFIDENTIAL_CLIENTS_PER_PLANE} confidential clients per key plane made with the publishable key; the same redirect_uri and token_endpoint_auth_method answer an existing one`,
  localhostRateLimited: "too many new localhost callbacks were registered with this publishable key in the last hour; retry after the number of seconds in retry_after",
} as const;

// Serialises registrations of one developer, so two at once cannot make two public clients.
const REGISTRATION_LOCK = 72707371;

function isLocalHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1";
}

/**
 * A callback as registered: an absolute https URL, or http on localhost or 127.0.0.1, with no
 * wildcard, fragment or credentials. Returned as sent: callbacks match as exact strings.
 */
export function checkRedirectUri(raw: unknown): { uri: string; url: URL } {
  const invalid = () => new ApiError("invalid_redirect_uri", SSO_MESSAGES.invalidRedirectUri, { fields: [{ field: "redirect_uri", message: SSO_MESSAGES.invalidRedirectUri }] });
  if (typeof raw !== "string" || !raw || raw.length > MAX_REDIRECT_URI_LENGTH || /[*#\s]/.test(raw)) throw invalid();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid();
  }
  if (url.username || url.password || url.hash) throw invalid();
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLocalHost(url.hostname))) {
    throw new ApiError("invalid_origin", SSO_MESSAGES.invalidOrigin, { fields: [{ field: "redirect_uri", message: SSO_MESSAGES.invalidOrigin }] });
  }
  return { uri: raw, url };
}

/** POST /v1/sso/origins: approves an origin for the developer's clients. */
export async function approveOrigin(input: { developerId: string; origin: string }) {
  if (!normalizeOrigin(input.origin)) {
    throw new ApiError("invalid_origin", SSO_MESSAGES.invalidOrigin, { fields: [{ field: "origin", message: SSO_MESSAGES.invalidOrigin }] });
  }
  return { ok: true as const, origin: await addOrigin(input) };
}

/**
 * POST /v1/sso/client. A public client is one per developer and plane: each new callback joins it
 * (up to 25), and a callback it holds answers its id again. A confidential client is new for a new
 * callback or method, with its ocs_ secret shown once, up to MAX_CONFIDENTIAL_CLIENTS_PER_PLANE; the
 * same request again answers that client's id (never its secret again). A request that adds a
 * localhost callback counts against SSO_LOCALHOST_CALLBACKS_PER_HOUR. `created` tells whether
 * a client was made.
 */
export async function registerClient(input: { publishableKey: unknown; redirectUri: unknown; method: TokenEndpointAuthMethod }) {
  if (typeof input.publishableKey !== "string" || !input.publishableKey.trim()) {
    throw new ApiError("publishable_key_required", SSO_MESSAGES.publishableKeyRequired, { fields: [{ field: "publishable_key", message: SSO_MESSAGES.publishableKeyRequired }] });
  }
  // A secret key sent here is refused like an unknown one (and never echoed).
  const key = await resolveApiKey(input.publishableKey.trim());
  if (!key || key.kind !== "publishable") throw new ApiError("invalid_publishable_key", SSO_MESSAGES.invalidPublishableKey);
  const { uri, url } = checkRedirectUri(input.redirectUri);
  const local = isLocalHost(url.hostname);

  const prisma = await db();
  if (!local) {
    const approved = await prisma.approvedOrigin.findUnique({ where: { developerId_origin: { developerId: key.developerId, origin: url.origin } } });
    if (!approved) throw new ApiError("origin_not_approved", SSO_MESSAGES.originNotApproved, { origin: url.origin });
  }
  const agent = await prisma.agent.findFirst({ where: { developerId: key.developerId, active: true }, select: { id: true } });
  if (!agent) throw new ApiError("no_active_agent", SSO_MESSAGES.noActiveAgent);

  // Counted only when a localhost callback is about to be added (inside the lock: a refusal changes nothing).
  const countLocalhost = async () => {
    if (!local) return;
    const limited = await localhostRegistrations.consume(`key:${key.id}`);
    if (!limited.allowed) {
      throw new ApiError("rate_limited", SSO_MESSAGES.localhostRateLimited, { retry_after: limited.retryAfter }, { "Retry-After": String(limited.retryAfter) });
    }
  };
  // Clients made over this route: they register the OpenID Connect scopes (clients made elsewhere hold none).
  const madeHere = { developerId: key.developerId, plane: key.plane, kind: "oidc", scopes: { has: "openid" } };

  const result = await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${REGISTRATION_LOCK}, hashtext(${key.developerId}))`;
    if (input.method === "none") {
      const existing = await tx.oAuthClient.findFirst({
        where: { ...madeHere, tokenEndpointAuthMethod: "none" },
        orderBy: { createdAt: "asc" },
        select: { id: true, redirectUris: { select: { id: true, uri: true }, orderBy: { createdAt: "asc" } } },
      });
      if (existing) {
        if (existing.redirectUris.some((r) => r.uri === uri)) return { created: false, client: { client_id: existing.id } };
        const localUris = existing.redirectUris.filter((r) => isLocalHost(new URL(r.uri).hostname));
        const full = existing.redirectUris.length >= MAX_REDIRECT_URIS_PER_CLIENT || (local && localUris.length >= MAX_LOCALHOST_REDIRECT_URIS_PER_CLIENT);
        if (full && !localUris.length) throw new ApiError("too_many_redirect_uris", SSO_MESSAGES.tooManyRedirectUris, { limit: MAX_REDIRECT_URIS_PER_CLIENT });
        await countLocalhost();
        if (full) await tx.oAuthRedirectUri.delete({ where: { id: localUris[0]!.id } });
        await tx.oAuthRedirectUri.create({ data: { clientId: existing.id, uri, origin: url.origin } });
        return { created: false, client: { client_id: existing.id } };
      }
    } else {
      const same = await tx.oAuthClient.findFirst({
        where: { ...madeHere, tokenEndpointAuthMethod: input.method, redirectUris: { some: { uri } } },
        orderBy: { createdAt: "asc" },
        select: { id: true },
      });
      if (same) return { created: false, client: { client_id: same.id } };
      const held = await tx.oAuthClient.count({ where: { ...madeHere, tokenEndpointAuthMethod: { not: "none" } } });
      if (held >= MAX_CONFIDENTIAL_CLIENTS_PER_PLANE) throw new ApiError("too_many_clients", SSO_MESSAGES.tooManyClients, { limit: MAX_CONFIDENTIAL_CLIENTS_PER_PLANE });
    }
    await countLocalhost();
    const secret = input.method === "none" ? undefined : PREFIX.oauthClientSecret + randomBase62(40);
    const client = await tx.oAuthClient.create({
      data: {
        id: newId(PREFIX.oauthClient),
        developerId: key.developerId,
        plane: key.plane,
        tokenEndpointAuthMethod: input.method,
        secretHash: secret ? hashClientSecret(secret) : null,
        scopes: [...OIDC_SCOPES],
        redirectUris: { create: { uri, origin: url.origin } },
      },
      select: { id: true },
    });
    return { created: true, client: secret ? { client_id: client.id, client_secret: secret } : { client_id: client.id } };
  });
  clearClientCache();
  return result;
}

/** GET /v1/sso/clients: the developer's clients in the key's plane, with their callbacks. */
export async function listClients(input: { developerId: string; plane: "live" | "test" }) {
  const clients = await (
    await db()
  ).oAuthClient.findMany({
    where: { developerId: input.developerId, plane: input.plane },
    orderBy: { createdAt: "asc" },
    select: { id: true, tokenEndpointAuthMethod: true, createdAt: true, redirectUris: { select: { uri: true }, orderBy: { createdAt: "asc" } } },
  });
  return {
    clients: clients.map((c) => ({
      client_id: c.id,
      token_endpoint_auth_method: c.tokenEndpointAuthMethod,
      redirect_uris: c.redirectUris.map((r) => r.uri),
      created_at: c.createdAt.toISOString(),
    })),
  };
}

/** DELETE /v1/sso/clients/:clientId/redirect-uris: removes one callback of the developer's own client. */
export async function removeRedirectUri(input: { developerId: string; plane: "live" | "test"; clientId: string; redirectUri: string }) {
  const prisma = await db();
  const client = isIdOf(PREFIX.oauthClient, input.clientId)
    ? await prisma.oAuthClient.findFirst({ where: { id: input.clientId, developerId: input.developerId, plane: input.plane }, select: { id: true } })
    : null;
  if (!client) throw new ApiError("not_found", SSO_MESSAGES.clientNotFound, { field: "client_id" });
  const removed = await prisma.oAuthRedirectUri.deleteMany({ where: { clientId: client.id, uri: input.redirectUri } });
  if (removed.count === 0) throw new ApiError("not_found", SSO_MESSAGES.redirectUriNotFound, { field: "redirect_uri" });
  clearClientCache();
  const left = await prisma.oAuthRedirectUri.findMany({ where: { clientId: client.id }, orderBy: { createdAt: "asc" }, select: { uri: true } });
  return { ok: true as const, client_id: client.id, redirect_uris: left.map((r) => r.uri) };
}
