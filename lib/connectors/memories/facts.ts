// What the profile holds from connected apps (source apps/<app>): what each app is read for, the
// facts learned per app (the receipt and the account page show them), a fact the person removes,
// and every fact of an app deleted when it is disconnected.
import { isApp, type App } from "../../catalogue";
import { db } from "../../platform/db";
import { inTransaction, type Tx } from "../../profile/memories";
import { recompose } from "../../profile/recompose";
import { appSource, visibleMemories } from "../../profile/sources";
import { hideMemories } from "../../profile/suppressions";

/** What the service reads from each app to learn about the person; docs/distillation.md says it in full. Sheets is not read. */
export const APP_READS: Readonly<Partial<Record<App, string>>> = {
  gmail: "The name and signature on your last five sent emails",
  outlook: "The name and signature on your last five sent emails",
  calendar: "The titles and repeat schedules of your upcoming events",
  drive: "The titles of your most recently changed documents",
  notion: "The titles of the pages you shared, most recently edited first",
};

/** Whether an app is read for memories. */
export function readsForMemories(app: string): app is App {
  return isApp(app) && Object.hasOwn(APP_READS, app);
}

export interface AppFacts {
  app: App;
  facts: Array<{ id: string; text: string }>;
}

/** The facts each of `apps` taught the profile (visible ones, newest first), in the order of `apps`. */
export async function appFactsOf(userId: string, apps: readonly App[]): Promise<AppFacts[]> {
  const read = apps.filter(readsForMemories);
  if (!read.length) return [];
  const rows = await (
    await db()
  ).memory.findMany({
    where: { ...visibleMemories(userId), agentId: null, source: { in: read.map(appSource) } },
    select: { id: true, text: true, source: true },
    orderBy: [{ learnedAt: "desc" }, { id: "asc" }],
  });
  return read.map((app) => ({ app, facts: rows.filter((r) => r.source === appSource(app)).map((r) => ({ id: r.id, text: r.text })) }));
}

/** Deletes every memory that came from the person's app, hidden ones too, inside the disconnect's transaction. */
export async function deleteAppMemories(tx: Tx, input: { userId: string; app: string }): Promise<number> {
  const { count } = await tx.memory.deleteMany({ where: { userId: input.userId, source: appSource(input.app), agentId: null } });
  if (count) await recompose(tx, input.userId);
  return count;
}

/**
 * The person removes a fact an app taught: it is hidden as forget with reason user_request hides it,
 * and the app's next run leaves it hidden. False when there is no such visible fact of theirs.
 */
export async function removeAppFact(input: { userId: string; memoryId: string }): Promise<boolean> {
  return inTransaction(async (tx) => {
    const fact = await tx.memory.findFirst({
      where: { id: input.memoryId, ...visibleMemories(input.userId), agentId: null, source: { startsWith: "apps/" } },
      select: { id: true },
    });
    if (!fact) return false;
    // Only this memory (not every one saying the same), as a suppression of the person's own.
    const hidden = await hideMemories(tx, { userId: input.userId, requester: "person", spare: null, ids: [fact.id], keys: [] });
    if (hidden) await recompose(tx, input.userId);
    return hidden > 0;
  });
}
