// npm run worker: a process that only runs queued jobs (commits, completion callbacks, webhooks, connected apps'
// memories, bulk import jobs, the sweep), for deployments on PostgreSQL that set JOBS_WORKER=off on their web instances.
// It stops gracefully on SIGINT or SIGTERM. Its start-up and shutdown are in lib/startup.ts, beside the server's.
import { startWorker, stopService } from "../lib/startup";
import { requireSupportedNode } from "./node-version.mjs";

requireSupportedNode();

await startWorker();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stopService().finally(() => process.exit(0)));
}
