// Start-up: validate configuration and open (and migrate) the database before serving anything.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startService } = await import("./lib/startup");
  await startService();
}
