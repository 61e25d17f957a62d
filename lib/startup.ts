// What the server does once at start-up; any failure stops the process with a clear message.
import { startAppMemoriesWorker } from "./connectors/memories/run";
import { database } from "./db";
import { env } from "./env";
import { startImportWorker } from "./import-jobs/worker";
import { logger } from "./log";
import { startSweeper } from "./maintenance/sweep";
import { startCommitWorker } from "./profile/commit";
import { startCompletionCallbackWorker } from "./sign-in/completion-callback";

export async function startService(): Promise<void> {
  const started = performance.now();
  try {
    const config = env();
    const db = await database();
    // Queued jobs wait in the database, so the worker may start after the service answers.
    if (config.JOBS_WORKER === "in-process") {
      startCommitWorker().catch((err: Error) => logger().error({ err: err.message }, "the commit worker did not start; queued commits wait"));
      startCompletionCallbackWorker().catch((err: Error) => logger().error({ err: err.message }, "the completion callback worker did not start; callbacks wait"));
      startSweeper().catch((err: Error) => logger().error({ err: err.message }, "the sweep worker did not start"));
      startAppMemoriesWorker().catch((err: Error) => logger().error({ err: err.message }, "the app memories worker did not start; connected apps are read later"));
      startImportWorker().catch((err: Error) => logger().error({ err: err.message }, "the bulk import worker did not start; import jobs wait"));
    }
    logger().info(
      {
        database: db.kind,
        base_url: config.BASE_URL,
        ms: Math.round(performance.now() - started),
      },
      "service ready",
    );
  } catch (err) {
    // A half-configured or half-migrated service must not answer requests.
    console.error(`\nService failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
