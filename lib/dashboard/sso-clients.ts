// SSO clients made on the dashboard: public or confidential, per plane, with their callbacks. The
// registration rules are the API's (lib/oidc/clients.ts: a callback's form, approved origins off
// localhost, 25 callbacks a client); unlike POST /v1/sso/client, a client made here registers no
// OpenID Connect scopes (the specification's "client made elsewhere": it must send
// scope=openid email profile). Its secret, for a confidential client, is shown once.
import { z } from "zod";
import { randomBase62 } from "../platform/crypto";
import { db } from "../platform/db";
import { isRegisteredDestination } from "../developers/destinations";
import { requireMember } from "../developer-auth/accounts";
import { DashboardError } from "../developer-auth/errors";
import { ApiError } from "../http/errors";
import { isIdOf, newId, PREFIX } from "../platform/ids";
import { clearClientCache } from "../oidc/client-auth";
import { checkRedirectUri, listClients, MAX_REDIRECT_URIS_PER_CLIENT, removeRedirectUri, SSO_MESSAGES, hashClientSecret } from "../oidc/clients";
import { TOKEN_ENDPOINT_AUTH_METHODS } from "../oidc/client-auth";

const planeSchema = z.enum(["live", "test"]);
const methodSchema = z.enum(TOKEN_ENDPOINT_AUTH_METHODS);

/** The callback as registered, refused unless its form is right and (off localhost) its origin approved. */
async function registrableCallback(developerId: string, raw: unknown): Promise<{ uri: string; origin: string }> {
  const { uri, url } = checkRedirectUri(raw);
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  if (!local && !(await isRegisteredDestination({ developerId, url: uri }))) throw new ApiError("origin_not_approved", SSO_MESSAGES.originNotApproved, { origin: url.origin });
  return { uri, origin: url.origin };
}

/** The account's SSO clients of both planes, with their callbacks (the API's listing). */
export async function ssoClientsOf(developerId: string) {
  const [live, test] = await Promise.all([listClients({ developerId, plane: "live" }), listClients({ developerId, plane: "test" })]);
  return [...live.clients.map((c) => ({ ...c, plane: "live" as const })), ...test.clients.map((c) => ({ ...c, plane: "test" as const }))];
}

/** Makes a client with one callback; a confidential client's ocs_ secret is returned once. */
export async function createSsoClient(input: { actorId: string; developerId: unknown; plane: unknown; method: unknown; redirectUri: unknown }) {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const plane = planeSchema.safeParse(input.plane);
  const method = methodSchema.safeParse(input.method);
  if (!plane.success || !method.success) throw new DashboardError("invalid_input");
  const callback = await registrableCallback(developerId, input.redirectUri);
  const prisma = await db();
  const agent = await prisma.agent.findFirst({ where: { developerId, active: true }, select: { id: true } });
  if (!agent) throw new ApiError("no_active_agent", SSO_MESSAGES.noActiveAgent);
  const secret = method.data === "none" ? undefined : PREFIX.oauthClientSecret + randomBase62(40);
  const client = await prisma.oAuthClient.create({
    data: {
      id: newId(PREFIX.oauthClient),
      developerId,
      plane: plane.data,
      tokenEndpointAuthMethod: method.data,
      secretHash: secret ? hashClientSecret(secret) : null,
      scopes: [],
      redirectUris: { create: { uri: callback.uri, origin: callback.origin } },
    },
    select: { id: true },
  });
  clearClientCache();
  return { clientId: client.id, clientSecret: secret };
}

/** Adds a callback to one of the account's clients (at most 25 a client). */
export async function addSsoCallback(input: { actorId: string; developerId: unknown; clientId: unknown; redirectUri: unknown }) {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const prisma = await db();
  const client =
    typeof input.clientId === "string" && isIdOf(PREFIX.oauthClient, input.clientId)
      ? await prisma.oAuthClient.findFirst({ where: { id: input.clientId, developerId, kind: "oidc" }, select: { id: true, _count: { select: { redirectUris: true } } } })
      : null;
  if (!client) throw new DashboardError("not_found");
  const callback = await registrableCallback(developerId, input.redirectUri);
  if (client._count.redirectUris >= MAX_REDIRECT_URIS_PER_CLIENT)
    throw new ApiError("too_many_redirect_uris", SSO_MESSAGES.tooManyRedirectUris, { limit: MAX_REDIRECT_URIS_PER_CLIENT });
  await prisma.oAuthRedirectUri.upsert({
    where: { clientId_uri: { clientId: client.id, uri: callback.uri } },
    create: { clientId: client.id, uri: callback.uri, origin: callback.origin },
    update: {},
  });
  clearClientCache();
}

/** Removes a callback of one of the account's clients (the API's removal). */
export async function removeSsoCallback(input: { actorId: string; developerId: unknown; clientId: unknown; plane: unknown; redirectUri: unknown }) {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const plane = planeSchema.safeParse(input.plane);
  if (!plane.success || typeof input.clientId !== "string" || typeof input.redirectUri !== "string") throw new DashboardError("not_found");
  try {
    await removeRedirectUri({ developerId, plane: plane.data, clientId: input.clientId, redirectUri: input.redirectUri });
  } catch (err) {
    if (err instanceof ApiError && err.code === "not_found") throw new DashboardError("not_found");
    throw err;
  }
}
