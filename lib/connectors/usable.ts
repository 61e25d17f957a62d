// A connection ready for its provider's API, as connector tools and the app-memory runs use it: the
// token is read (and refreshed ahead of expiry) at its first request and shared by the requests after
// it; a refused token is refreshed once, shared by every call that saw it refused, and the request
// tried again; a refused refresh marks the connection as needing reconnection.
import type { App } from "../catalogue";
import { db } from "../platform/db";
import { ProviderAuthError, providerFetch, type ProviderRequest } from "./apis/http";
import { accessTokenFor, freshStoredToken } from "./connections";
import { AppConnectionError } from "./errors";
import type { UsableConnection } from "./tools/definition";

export interface ConnectionRow {
  id: string;
  app: string;
  provider: string;
  accountEmail: string | null;
  scopes: string[];
  /**
   * The sealed access token and its expiry (ms), when the row was read with them: a fresh one serves the
   * first request without reading the row again; one about to expire is refreshed by accessTokenFor.
   */
  token?: { accessTokenSealed: string; accessTokenExpiresAt: number | null };
}

/**
 * `row` ready for its provider. Made per tool call (or app-memory run): its requests share one read of
 * the token, which is refreshed when it has less than REFRESH_AHEAD_SECONDS left, so it outlasts the call.
 */
export function usableConnection(row: ConnectionRow, signal?: AbortSignal): UsableConnection {
  const app = row.app as App;
  let current: Promise<string> | undefined;
  let preread = row.token;
  /** The first request's token: the one read with the row when it is fresh, else the stored one, refreshed if due. */
  const first = (): Promise<string> => {
    const token = preread && freshStoredToken(preread);
    preread = undefined;
    return token ? Promise.resolve(token) : accessTokenFor(row.id);
  };
  const use = (next: Promise<string>): Promise<string> => {
    current = next;
    // A failed read is not kept: the next request reads again.
    next.catch(() => {
      if (current === next) current = undefined;
    });
    return next;
  };
  return {
    id: row.id,
    app,
    provider: row.provider,
    accountEmail: row.accountEmail,
    scopes: row.scopes,
    async fetch<T>(request: ProviderRequest): Promise<T> {
      const withSignal = { ...request, signal: request.signal ?? signal };
      const token = await (current ?? use(first()));
      try {
        return await providerFetch<T>(app, token, withSignal);
      } catch (err) {
        if (!(err instanceof ProviderAuthError)) throw err;
        // The token was refused before it expired (revoked, or rotated elsewhere): one refresh, shared by
        // every call that saw this token refused, and one more try.
        try {
          return await providerFetch<T>(app, await use(accessTokenFor(row.id, { refused: token })), withSignal);
        } catch (again) {
          if (again instanceof ProviderAuthError) {
            await (await db()).appConnection.update({ where: { id: row.id }, data: { status: "needs_reconnect" } });
            throw new AppConnectionError("needs_reconnect");
          }
          throw again;
        }
      }
    },
  };
}
