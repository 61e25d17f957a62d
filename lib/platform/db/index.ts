// The one database handle of the process: opened and migrated on first use.
import { env } from "../../env";
import { processWideSlot } from "../../process-wide";
import { openDatabase, type Database } from "./open";
import { refused } from "./refuse";

export type { Database } from "./open";
export type { PrismaClient } from "./generated/client";

const opened = processWideSlot<Promise<Database>>("db");

/** The process-wide database, migrated before the first query. */
export function database(): Promise<Database> {
  const refusal = refused();
  if (refusal) return Promise.reject(new Error(refusal));
  opened.current ??= openDatabase({
    databaseUrl: env().DATABASE_URL,
    dataDir: env().DATA_DIR,
  }).catch((err) => {
    opened.current = undefined;
    throw err;
  });
  return opened.current;
}

/** The Prisma client of the process-wide database. */
export async function db() {
  return (await database()).prisma;
}

/** Closes the process-wide database (tests, CLI, graceful shutdown). */
export async function closeDatabase(): Promise<void> {
  const current = opened.current;
  opened.current = undefined;
  if (current) await (await current).close();
}
