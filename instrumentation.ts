// Start-up: validate configuration and open (and migrate) the database before serving anything.
export async function register() {
  // eslint-disable-next-line no-restricted-properties -- Next.js's own runtime marker, not configuration: lib/platform/env.ts cannot load in the edge runtime this guards against
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startService } = await import("./lib/startup");
  await startService();
}
