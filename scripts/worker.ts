// npm run worker: a process that only runs queued jobs (commits, completion callbacks, connected apps'
// memories, bulk import jobs, the sweep), for deployments on PostgreSQL that set JOBS_WORKER=off on their web instances.
// It stops gracefully on SIGINT or SIGTERM.
import { startAppMemoriesWorker } from "../lib/connectors/memories/run";
import { closeDatabase, database } from "../lib/db";
import { env } from "../lib/env";
import { startImportWorker } from "../lib/import-jobs/worker";
import { stopJobs } from "../lib/jobs";
import { logger } from "../lib/log";
import { startSweeper } from "../lib/maintenance/sweep";
import { startCommitWorker } from "../lib/profile/commit";
import { startCompletionCallbackWorker } from "../lib/sign-in/completion-callback";

env();
await database();
await startCommitWorker();
await startCompletionCallbackWorker();
await startSweeper();
await startAppMemoriesWorker();
await startImportWorker();
logger().info("worker ready");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void stopJobs()
      .then(closeDatabase)
      .finally(() => process.exit(0));
  });
}
