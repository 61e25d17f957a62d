// Queueing an app's memories run (lib/connectors/memories/run.ts) when a connection becomes the
// person's: after the transaction that made it theirs, never inside it. A failure to queue never
// fails the connection; the daily run reads the app then.
import { db } from "../../platform/db";
import { enqueueSingleton, QUEUES } from "../../platform/jobs";
import { logger } from "../../platform/log";
import { readsForMemories } from "./facts";

/** Queues one run for the connection, unless one is already waiting (a singleton key per connection). */
export async function queueAppMemories(connection: { id: string; app: string }): Promise<void> {
  if (!readsForMemories(connection.app)) return;
  try {
    await enqueueSingleton(QUEUES.appMemories, connection.id, { connectionId: connection.id });
  } catch (err) {
    logger().error({ connection_id: connection.id, err: (err as Error).message }, "could not queue the app's memories; the daily run reads it");
  }
}

/** Queues a run for each of the person's active connections to `apps` (those a finished flow brought to the account). */
export async function queueAppMemoriesOf(userId: string, apps: readonly string[]): Promise<void> {
  const read = apps.filter(readsForMemories);
  if (!read.length) return;
  try {
    const rows = await (await db()).appConnection.findMany({ where: { userId, app: { in: read }, status: "active" }, select: { id: true, app: true } });
    for (const row of rows) await queueAppMemories(row);
  } catch (err) {
    logger().error({ err: (err as Error).message }, "could not queue the apps' memories; the daily run reads them");
  }
}
