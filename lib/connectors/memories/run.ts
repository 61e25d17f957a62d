// Memories from connected apps: a run reads one connection's snapshot (names, signatures, event and
// document titles; never a message's content), distils a few durable facts through the configured
// distiller, and makes the app's memories (source apps/<app>) match them: new facts written, facts
// the app no longer shows deleted, facts the person had hidden left hidden. Runs are jobs on the
// queue, one at a time per connection: when the connection becomes the person's, then daily.
import type { App } from "../../catalogue";
import { now as clockNow } from "../../platform/clock";
import { db } from "../../platform/db";
import { QUEUES, schedule, work } from "../../platform/jobs";
import { logger } from "../../platform/log";
import { distillerFromConfig } from "../../profile/distill";
import { inTransaction, writeMemories } from "../../profile/memories";
import { recompose } from "../../profile/recompose";
import { appSource, visibleMemories } from "../../profile/sources";
import { snapshotCalendar } from "../apis/calendar";
import { snapshotDrive } from "../apis/drive";
import { snapshotGmail } from "../apis/gmail";
import { ProviderScopeError } from "../apis/http";
import { snapshotNotion } from "../apis/notion";
import { snapshotOutlook } from "../apis/outlook";
import type { AppSnapshot } from "../../profile/distill/snapshot";
import { AppConnectionError } from "../errors";
import type { UsableConnection } from "../tools/definition";
import { usableConnection } from "../usable";
import { readsForMemories } from "./facts";
import { queueAppMemories } from "./queue";

/** Every day at 03:30 UTC, each active connection is read again. */
export const APP_MEMORIES_CRON = "30 3 * * *";

const SNAPSHOTS: Readonly<Partial<Record<App, (conn: UsableConnection) => Promise<AppSnapshot>>>> = {
  gmail: snapshotGmail,
  outlook: snapshotOutlook,
  calendar: snapshotCalendar,
  drive: snapshotDrive,
  notion: snapshotNotion,
};

export interface AppMemoriesRun {
  app: App;
  /** The facts the app shows now, as distilled. */
  facts: string[];
  /** Memories written by this run. */
  written: number;
  /** Memories of the app deleted because it no longer shows them. */
  removed: number;
}

/**
 * Reads the connection's app and brings its memories up to date. Null when there is nothing to do:
 * the connection is gone, not the person's, needs reconnecting, or its app is not read.
 */
export async function runAppMemories(connectionId: string): Promise<AppMemoriesRun | null> {
  const row = await (
    await db()
  ).appConnection.findUnique({
    where: { id: connectionId },
    select: { id: true, app: true, provider: true, accountEmail: true, scopes: true, userId: true, status: true },
  });
  const snapshotOf = row && readsForMemories(row.app) ? SNAPSHOTS[row.app] : undefined;
  if (!row?.userId || row.status !== "active" || !snapshotOf) return null;
  const userId = row.userId;
  const app = row.app as App;
  const snapshot = await snapshotOf(usableConnection(row));
  const { facts } = await distillerFromConfig().distillApp({ snapshot, now: clockNow() });
  const source = appSource(app);

  return inTransaction(async (tx) => {
    // The connection's row, locked: a disconnect (which deletes the app's memories) waits for this
    // run to finish, and a run that finds the connection gone writes nothing.
    const [still] = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM app_connections WHERE id = ${row.id}::uuid AND user_id = ${userId}::uuid AND status = 'active' FOR UPDATE`;
    if (!still) return null;
    const keys = facts.map((f) => f.key);
    const stored = await tx.memory.findMany({ where: { userId, source, agentId: null }, select: { id: true, key: true, suppressedAt: true } });
    // A fact the person had hidden (forget with reason user_request, or removed on the account page),
    // from this app or any other source, is not written again.
    const hidden = new Set((await tx.memory.findMany({ where: { userId, key: { in: keys }, suppressedAt: { not: null } }, select: { key: true } })).map((m) => m.key));
    // What another source already says is not said twice (as commits and imports do).
    const elsewhere = new Set((await tx.memory.findMany({ where: { ...visibleMemories(userId), key: { in: keys }, NOT: { source } }, select: { key: true } })).map((m) => m.key));
    const written = await writeMemories(
      tx,
      { userId, source, writtenBy: source, agentId: null },
      facts
        .filter((f) => !hidden.has(f.key) && !elsewhere.has(f.key))
        .map((f) => ({ text: f.text, kind: f.kind, box: f.box, key: f.key, saidAt: f.at, provenance: { via: "app", app } })),
    );
    // What the app no longer shows goes; hidden facts stay, so that they stay hidden.
    const shown = new Set(keys);
    const stale = stored.filter((m) => !m.suppressedAt && !shown.has(m.key)).map((m) => m.id);
    if (stale.length) {
      await tx.memory.deleteMany({ where: { id: { in: stale } } });
      await recompose(tx, userId);
    }
    return { app, facts: facts.map((f) => f.text), written: written.filter((w) => w.created).length, removed: stale.length };
  });
}

/** Queues a run for every active connection of a person whose app is read (the daily schedule). */
export async function queueDailyAppMemories(): Promise<number> {
  const rows = await (
    await db()
  ).appConnection.findMany({
    where: { userId: { not: null }, status: "active", app: { in: Object.keys(SNAPSHOTS) } },
    select: { id: true, app: true },
    orderBy: { createdAt: "asc" },
  });
  for (const row of rows) await queueAppMemories(row);
  return rows.length;
}

/** Starts this process's app memories worker and makes sure the daily schedule exists. */
export async function startAppMemoriesWorker(): Promise<void> {
  await work(QUEUES.appMemories, async (data, attempt) => {
    const connectionId = String(data.connectionId);
    try {
      const run = await runAppMemories(connectionId);
      if (run) logger().info({ connection_id: connectionId, app: run.app, facts: run.facts.length, written: run.written, removed: run.removed }, "app memories");
    } catch (err) {
      // A grant the provider refused (the connection now needs reconnecting) or a missing scope: trying again changes nothing.
      if (err instanceof AppConnectionError || err instanceof ProviderScopeError) {
        logger().warn({ connection_id: connectionId, err: err.message }, "app memories skipped");
        return;
      }
      logger().error({ connection_id: connectionId, err: (err as Error).message, retry: attempt.retryCount }, "app memories failed");
      throw err; // pg-boss retries it until the last attempt
    }
  });
  await work(QUEUES.appMemoriesDaily, async () => {
    logger().info({ queued: await queueDailyAppMemories() }, "app memories: daily run queued");
  });
  await schedule(QUEUES.appMemoriesDaily, APP_MEMORIES_CRON);
}
