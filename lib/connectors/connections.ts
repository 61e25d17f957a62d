// App connections: the person consents at the provider (authorization code + PKCE), the service
// keeps the tokens sealed under SERVICE_SECRET, refreshes them before they expire, notices when the
// provider has revoked the grant (the connection then needs reconnecting), and revokes and deletes
// them on disconnect, with the memories the app taught. A connection made during a flow joins the
// account when the flow finishes.
import * as oauth from "openid-client";
import { now as clockNow } from "../platform/clock";
import { keyedHash, openSecret, randomBase62, safeEqual, sealSecret } from "../platform/crypto";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import { env } from "../env";
import { cookieFromHeader, defineCookie, setCookieHeader, type CookieDefinition } from "../http/cookies";
import { processWide } from "../process-wide";
import { deleteAppMemories } from "./memories/facts";
import { queueAppMemories } from "./memories/queue";
import { AppConnectionError } from "./errors";
import { canConnectApp, connectorOf, providerFor, PROVIDERS } from "./providers";
import { REFRESH_AHEAD_SECONDS, refreshConnectionToken, TOKEN_PURPOSE } from "./token-refresh";
import type { ConnectorProvider } from "./types";
import { isApp, MAILBOX_APPS, type App } from "../catalogue";
import { emitAgentEvent } from "../webhooks/emit";

export { REFRESH_AHEAD_SECONDS } from "./token-refresh";

/** How long the person has to consent at the provider. */
export const CONNECT_ATTEMPT_TTL_SECONDS = 10 * 60;

const STATE_PURPOSE = "connect-state";
const BROWSER_PURPOSE = "connect-browser";
const COOKIE_NAME_PURPOSE = "connect-cookie-name";

export function appConnectionCallbackUrl(): string {
  return `${env().BASE_URL}/connect/callback`;
}

/** Seals a connection's token at rest (AES-256-GCM under SERVICE_SECRET). */
export function sealConnectionToken(token: string): string {
  return sealSecret(TOKEN_PURPOSE, token);
}

/**
 * The cookie that binds an attempt to the browser that started it (path /connect/callback), named
 * for the attempt so that attempts in several tabs do not replace each other's.
 */
export function attemptCookie(state: string): CookieDefinition {
  const name = `service_connect_${keyedHash(COOKIE_NAME_PURPOSE, state)
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 20)}`;
  return defineCookie({ name, path: "/connect/callback", maxAge: CONNECT_ATTEMPT_TTL_SECONDS });
}

/**
 * Starts a connection for a flow or a signed-in person: where to send the browser, and the cookie to
 * set in it (`setCookie`; `cookie` is the same pair as the browser will send it back).
 */
export async function startConnection(input: {
  app: string;
  flowId?: string;
  userId?: string;
  /** A capability the person is allowing: its scope on this app is asked for too (capabilityConsentNeeded). */
  capability?: string;
}): Promise<{ url: URL; setCookie: string; cookie: string }> {
  const provider = providerFor(input.app);
  const state = randomBase62(43);
  const browserSecret = randomBase62(32);
  const verifier = oauth.randomPKCECodeVerifier();
  const createdAt = clockNow();
  await (
    await db()
  ).connectAttempt.create({
    data: {
      stateHash: keyedHash(STATE_PURPOSE, state),
      flowId: input.flowId,
      userId: input.userId,
      app: input.app,
      verifierSealed: sealSecret(STATE_PURPOSE, verifier),
      browserHash: keyedHash(BROWSER_PURPOSE, browserSecret),
      createdAt,
      expiresAt: new Date(createdAt.getTime() + CONNECT_ATTEMPT_TTL_SECONDS * 1000),
    },
  });
  const codeChallenge = await oauth.calculatePKCECodeChallenge(verifier);
  const url = provider.authorizationUrl({ app: input.app, state, codeChallenge, redirectUri: appConnectionCallbackUrl(), capability: input.capability });
  const attempt = attemptCookie(state);
  return { url, cookie: `${attempt.name}=${browserSecret}`, setCookie: setCookieHeader(attempt, browserSecret) };
}

/**
 * The app whose connection must go back through its provider's consent before `capability` can be
 * used: the provider grants the capability's scope apart from reading (Gmail's gmail.send) and the
 * person's connection lacks it, or the capability is reading the app (gmail:read) and the app has no
 * working connection. Null when nothing is missing: no such scope, the app not connected
 * (connecting it asks for what it needs then), a development connection, or a provider no longer
 * configured here.
 */
export async function capabilityConsentNeeded(input: { userId: string; capability: string }): Promise<App | null> {
  const app = input.capability.split(":")[0] ?? "";
  if (!isApp(app)) return null;
  const c = await (await db()).appConnection.findUnique({ where: { userId_app: { userId: input.userId, app } }, select: { provider: true, scopes: true, status: true } });
  // Reading an app is allowed together with connecting it when the account has no working connection.
  if (input.capability === `${app}:read` && c?.status !== "active") return canConnectApp(app) ? app : null;
  const provider = c && Object.hasOwn(PROVIDERS, c.provider) ? PROVIDERS[c.provider as ConnectorProvider["id"]] : undefined;
  if (!c || !provider?.configured() || provider !== connectorOf(app)) return null;
  const scope = provider.capabilityScope?.(input.capability);
  // Microsoft may report Graph scopes with their resource (https://graph.microsoft.com/Mail.Send).
  const granted = (s: string) => s === scope || s.endsWith(`/${scope}`);
  return scope && !c.scopes.some(granted) ? app : null;
}

/**
 * The provider sent the browser back: the attempt is used up (once), the code exchanged, and the
 * connection stored for the flow or the person.
 */
export async function finishConnection(
  callbackUrl: URL,
  /** The Cookie header of the request that brought the answer: it must be the browser that started. */
  cookieHeader: string | null,
): Promise<{ id: string; app: string; flowId: string | null; userId: string | null; accountEmail: string | null }> {
  const state = callbackUrl.searchParams.get("state") ?? "";
  const prisma = await db();
  const attempt = await prisma.connectAttempt.findUnique({ where: { stateHash: keyedHash(STATE_PURPOSE, state) } });
  if (!attempt) throw new AppConnectionError("unknown_attempt");
  // Another browser (someone sent this consent link on) cannot finish it, nor use it up.
  const secret = cookieFromHeader(cookieHeader, attemptCookie(state).name);
  if (!secret || !safeEqual(attempt.browserHash, keyedHash(BROWSER_PURPOSE, secret))) throw new AppConnectionError("other_browser");
  const used = await prisma.connectAttempt.deleteMany({ where: { stateHash: attempt.stateHash } });
  if (used.count === 0) throw new AppConnectionError("unknown_attempt");
  if (attempt.expiresAt <= clockNow()) throw new AppConnectionError("expired", attempt.flowId);
  if (callbackUrl.searchParams.get("error")) throw new AppConnectionError("declined", attempt.flowId);
  const provider = providerFor(attempt.app);
  const got = await provider.exchange({ callbackUrl, state, verifier: openSecret(STATE_PURPOSE, attempt.verifierSealed) });
  const data = {
    app: attempt.app,
    provider: provider.id,
    accountId: got.account.id,
    accountEmail: got.account.email,
    scopes: got.scopes,
    accessTokenSealed: sealSecret(TOKEN_PURPOSE, got.accessToken),
    refreshTokenSealed: got.refreshToken ? sealSecret(TOKEN_PURPOSE, got.refreshToken) : null,
    accessTokenExpiresAt: got.expiresAt,
    status: "active",
  };
  const connection = await prisma.$transaction(async (tx) => {
    if (attempt.userId) {
      // Joins the account at once; the flow it was made in (if any) is kept until that flow finishes, for its
      // receipt (the sweep clears a mark left by a flow that never finished). A connection made outside a
      // flow (the account page) leaves a flow's mark alone.
      const own = { ...data, flowId: attempt.flowId };
      const saved = await tx.appConnection.upsert({
        where: { userId_app: { userId: attempt.userId, app: attempt.app } },
        create: { ...own, userId: attempt.userId },
        update: attempt.flowId ? own : data,
      });
      await recordMailboxAddress(tx, attempt.userId);
      return saved;
    }
    await tx.appConnection.deleteMany({ where: { flowId: attempt.flowId, app: attempt.app, userId: null } });
    return tx.appConnection.create({ data: { ...data, flowId: attempt.flowId } });
  });
  // What the app shows of the person is read in the background, once the connection is theirs (a
  // flow's own connections are queued when the flow finishes and they join the account).
  if (connection.userId) await queueAppMemories(connection);
  // A signed-in person's connection goes straight to the account; the browser still returns to the flow.
  return { id: connection.id, app: connection.app, flowId: attempt.flowId, userId: connection.userId, accountEmail: connection.accountEmail };
}

/**
 * Moves a finished flow's connections to the person's account (replacing the same apps): the apps
 * connected in the flow, with those the person, signed in, connected straight to the account there.
 */
export async function attachFlowConnections(tx: Prisma.TransactionClient, input: { flowId: string; userId: string }): Promise<string[]> {
  const pending = await tx.appConnection.findMany({ where: { flowId: input.flowId, userId: null }, select: { id: true, app: true } });
  for (const c of pending) {
    await tx.appConnection.deleteMany({ where: { userId: input.userId, app: c.app } });
    await tx.appConnection.update({ where: { id: c.id }, data: { userId: input.userId, flowId: null } });
  }
  const signedIn = await tx.appConnection.findMany({ where: { flowId: input.flowId, userId: input.userId }, select: { app: true } });
  await tx.appConnection.updateMany({ where: { flowId: input.flowId, userId: input.userId }, data: { flowId: null } });
  return [...new Set([...pending, ...signedIn].map((c) => c.app))];
}

/** The account's connections as attachFlowConnections leaves them: the flow's own replace the account's of the same app. */
export function connectionsOnceJoined<C extends { app: string }>(account: readonly C[], flow: readonly C[]): C[] {
  return [...account.filter((a) => !flow.some((f) => f.app === a.app)), ...flow];
}

/**
 * A connected mailbox's own address is the account's address when it has none: the connection is
 * proof the person controls it (lib/oidc/claims.ts checks that proof at each ID token).
 */
export async function recordMailboxAddress(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
  if (user.email) return;
  const mailboxes = await tx.appConnection.findMany({
    where: { userId, app: { in: [...MAILBOX_APPS] } },
    select: { app: true, status: true, accountEmail: true, createdAt: true },
  });
  const address = mailboxAddressOf(mailboxes);
  if (address) await tx.user.update({ where: { id: userId }, data: { email: address } });
}

/** The address recordMailboxAddress gives an account without one: its first working mailbox's, of these connections. */
export function mailboxAddressOf(connections: ReadonlyArray<{ app: string; status: string; accountEmail: string | null; createdAt: Date }>): string | null {
  const mailboxes = connections.filter((c) => (MAILBOX_APPS as readonly string[]).includes(c.app) && c.status === "active" && c.accountEmail);
  return mailboxes.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0]?.accountEmail ?? null;
}

/**
 * Whether a stored access token expiring at `expiresAtMs` (null: never, as a development connection's)
 * is used as it is: it must have more than REFRESH_AHEAD_SECONDS left, so it outlasts the call.
 */
export function isTokenFresh(expiresAtMs: number | null): boolean {
  return expiresAtMs === null || expiresAtMs - clockNow().getTime() > REFRESH_AHEAD_SECONDS * 1000;
}

/** The access token a connection row holds, when it is fresh; null when it must be refreshed first (accessTokenFor). */
export function freshStoredToken(row: { accessTokenSealed: string; accessTokenExpiresAt: number | null }): string | null {
  return isTokenFresh(row.accessTokenExpiresAt) ? openSecret(TOKEN_PURPOSE, row.accessTokenSealed) : null;
}

/**
 * A usable access token for the connection: refreshed first when it expires within five minutes, or
 * when the provider just refused the current one (`refused`, or `force`). Refreshes are single-flight per
 * connection: concurrent calls in the process share one refresh and its outcome, and across processes
 * the row's refresh lease lets one refresh while the others wait for its token (./token-refresh.ts). A
 * grant the provider refuses marks the connection as needing reconnection.
 */
export async function accessTokenFor(
  connectionId: string,
  /** `refused`: the token the provider just refused; a refresh happens only while it is still the stored one. */
  options: { force?: boolean; refused?: string } = {},
): Promise<string> {
  const prisma = await db();
  const c = await prisma.appConnection.findUniqueOrThrow({ where: { id: connectionId } });
  if (c.status !== "active") throw new AppConnectionError("needs_reconnect");
  const fresh = isTokenFresh(c.accessTokenExpiresAt?.getTime() ?? null);
  const stored = openSecret(TOKEN_PURPOSE, c.accessTokenSealed);
  // A call that saw the old token refused after another call's refresh replaced it uses the new one.
  const refused = options.force || (options.refused !== undefined && options.refused === stored);
  if (fresh && !(refused && c.refreshTokenSealed)) return stored;
  const refreshes = processWide("connectors.refreshes", () => new Map<string, Promise<string>>());
  let pending = refreshes.get(c.id);
  if (!pending) {
    pending = refreshConnectionToken(c).finally(() => refreshes.delete(c.id));
    refreshes.set(c.id, pending);
  }
  return pending;
}

/** The person's connected apps, for their account page. */
export async function connectionsOf(userId: string): Promise<Array<{ id: string; app: string; provider: string; accountEmail: string | null; status: string; createdAt: Date }>> {
  return (await db()).appConnection.findMany({
    where: { userId },
    select: { id: true, app: true, provider: true, accountEmail: true, status: true, createdAt: true },
    orderBy: { createdAt: "asc" },
  });
}

/** Disconnects one of the person's own apps; false when they have no such connection. */
export async function disconnectApp(userId: string, app: string): Promise<boolean> {
  const c = await (await db()).appConnection.findUnique({ where: { userId_app: { userId, app } }, select: { id: true } });
  if (!c) return false;
  await deleteAppConnection(c.id);
  return true;
}

/**
 * Disconnects: the provider is asked to revoke the grant (best effort), and the tokens are deleted
 * with every memory the app taught the person's profile (source apps/<app>) and every agent's grants
 * on the app, in one transaction.
 */
export async function deleteAppConnection(connectionId: string): Promise<void> {
  const prisma = await db();
  const c = await prisma.appConnection.findUnique({ where: { id: connectionId } });
  if (!c) return;
  const token = c.refreshTokenSealed ?? c.accessTokenSealed;
  try {
    // The development provider has nothing to revoke.
    await PROVIDERS[c.provider as ConnectorProvider["id"]].revoke(openSecret(TOKEN_PURPOSE, token));
  } catch {
    // Already revoked, the provider unreachable or no longer configured: the tokens are deleted all the same.
  }
  await prisma.$transaction(async (tx) => {
    const deleted = await tx.appConnection.deleteMany({ where: { id: c.id } });
    if (deleted.count && c.userId) {
      const userId = c.userId;
      await deleteAppMemories(tx, { userId, app: c.app });
      // Every agent's grants on the app end with it: connecting it again gives it to no one by itself.
      const grants = { userId, capability: { startsWith: `${c.app}:` } };
      const holders = await tx.capabilityGrant.findMany({ where: grants, select: { agentId: true }, distinct: ["agentId"] });
      await tx.capabilityGrant.deleteMany({ where: grants });
      for (const h of holders) await emitAgentEvent(tx, { type: "app.disconnected", app: c.app }, { userId, agentId: h.agentId });
    }
  });
}
