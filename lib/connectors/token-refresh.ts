// One refresh of a connection's tokens at a time, across every process on the database: a provider
// that rotates refresh tokens (Microsoft does) refuses the second of two refreshes made with the same
// one, which would mark a working connection as needing reconnection. The process that claims the
// row's refresh lease (a conditional update) refreshes; every other waits for its result and uses the
// token it stored. Within a process, lib/connectors/connections.ts already shares one refresh.
import { setTimeout as sleep } from "node:timers/promises";
import { now as clockNow } from "../platform/clock";
import { openSecret, sealSecret } from "../platform/crypto";
import { db } from "../platform/db";
import { AppConnectionError } from "./errors";
import { PROVIDERS } from "./providers";
import { ProviderGrantError, type ConnectorProvider } from "./types";

/** The purpose a connection's tokens are sealed under. */
export const TOKEN_PURPOSE = "connection-token";
/** A token with less than this left is refreshed before use. */
export const REFRESH_AHEAD_SECONDS = 5 * 60;
/** How long a refresh may hold the lease: longer than any provider's answer takes, so only a holder that died lets go this way. */
export const REFRESH_LEASE_MS = 30_000;
/** How often a process waiting on another's refresh looks at the row. */
const WAIT_STEP_MS = 50;

/** The row as a caller read it before deciding to refresh. */
export interface ConnectionTokens {
  id: string;
  provider: string;
  accessTokenSealed: string;
  refreshTokenSealed: string | null;
}

function freshEnough(expiresAt: Date | null): boolean {
  return !expiresAt || expiresAt.getTime() - clockNow().getTime() > REFRESH_AHEAD_SECONDS * 1000;
}

/**
 * A new access token for the connection `seen` describes: refreshed here when this process claims the
 * lease, or the one another process's refresh stored since `seen` was read. A grant the provider
 * refuses marks the connection as needing reconnection (AppConnectionError needs_reconnect).
 */
export async function refreshConnectionToken(seen: ConnectionTokens): Promise<string> {
  const prisma = await db();
  if (!seen.refreshTokenSealed) {
    await prisma.appConnection.update({ where: { id: seen.id }, data: { status: "needs_reconnect" } });
    throw new AppConnectionError("needs_reconnect");
  }
  for (;;) {
    const at = clockNow();
    const claimed = await prisma.appConnection.updateMany({
      where: { id: seen.id, status: "active", OR: [{ refreshLeaseUntil: null }, { refreshLeaseUntil: { lte: at } }] },
      data: { refreshLeaseUntil: new Date(at.getTime() + REFRESH_LEASE_MS) },
    });
    const now = await prisma.appConnection.findUnique({ where: { id: seen.id } });
    if (!now) throw new AppConnectionError("needs_reconnect");
    // Another process refreshed since `seen` was read: its token is the one to use.
    if (now.status === "active" && now.accessTokenSealed !== seen.accessTokenSealed && freshEnough(now.accessTokenExpiresAt)) {
      if (claimed.count) await prisma.appConnection.updateMany({ where: { id: seen.id }, data: { refreshLeaseUntil: null } });
      return openSecret(TOKEN_PURPOSE, now.accessTokenSealed);
    }
    if (now.status !== "active") throw new AppConnectionError("needs_reconnect");
    if (claimed.count) return refreshHolding({ ...now, refreshTokenSealed: now.refreshTokenSealed ?? seen.refreshTokenSealed });
    // Another process holds the lease: wait for what it stores (or for its lease to run out).
    await sleep(WAIT_STEP_MS);
  }
}

/** The refresh itself, by the process holding the lease; the lease ends with what it stores. */
async function refreshHolding(c: { id: string; provider: string; refreshTokenSealed: string }): Promise<string> {
  const prisma = await db();
  try {
    const next = await PROVIDERS[c.provider as ConnectorProvider["id"]].refresh(openSecret(TOKEN_PURPOSE, c.refreshTokenSealed));
    await prisma.appConnection.update({
      where: { id: c.id },
      data: {
        accessTokenSealed: sealSecret(TOKEN_PURPOSE, next.accessToken),
        refreshTokenSealed: next.refreshToken ? sealSecret(TOKEN_PURPOSE, next.refreshToken) : c.refreshTokenSealed,
        accessTokenExpiresAt: next.expiresAt,
        refreshLeaseUntil: null,
        ...(next.scopes.length ? { scopes: next.scopes } : {}),
      },
    });
    return next.accessToken;
  } catch (err) {
    if (err instanceof ProviderGrantError) {
      await prisma.appConnection.update({ where: { id: c.id }, data: { status: "needs_reconnect", refreshLeaseUntil: null } });
      throw new AppConnectionError("needs_reconnect");
    }
    // The provider unreachable, or the database: let go at once, so the next call tries again.
    await prisma.appConnection.updateMany({ where: { id: c.id }, data: { refreshLeaseUntil: null } }).catch(() => undefined);
    throw err;
  }
}
