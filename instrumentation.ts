// Start-up: validate configuration and open (and migrate) the database before serving anything.
export async function register() {
  // eslint-disable-next-line no-restricted-properties -- Next.js's own runtime marker, not configuration: lib/env.ts cannot load in the edge runtime this guards against
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startService } = await import("./lib/startup");
  await startService();
}

/**
 * A page or route that failed inside Next.js: one JSON line in the service's log, with the digest the
 * person's page shows as its reference (components/unavailable.tsx). A database away is a warning.
 */
export async function onRequestError(
  err: unknown,
  request: { path: string; method: string },
  context: { routerKind: string; routePath: string; routeType: string },
): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- Next.js's own runtime marker, as in register()
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ logger, markLogged }, { databaseUnavailable, logDatabaseUnavailable }] = await Promise.all([import("./lib/platform/log"), import("./lib/platform/db/unavailable")]);
  // Logged here, once: Next.js's own console line for it follows and is dropped (consoleToLog).
  markLogged(err);
  const digest = (err as { digest?: unknown }).digest;
  // The route's pattern, never the path with its ids (as the request log).
  const fields = { method: request.method, route: context.routePath, route_type: context.routeType, digest };
  if (databaseUnavailable(err)) logDatabaseUnavailable(err, fields);
  else logger().error({ ...fields, err }, "request failed");
}
