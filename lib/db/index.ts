// The one database handle of the process: opened and migrated on first use.
import { env } from "../env";
import { openDatabase, type Database } from "./open";

export type { Database } from "./open";
export type { PrismaClient } from "./generated/client";

const globalForDb = globalThis as unknown as { __serviceDb?: Promise<Database> };

/** The process-wide database, migrated before the first query. */
export function database(): Promise<Database> {
  globalForDb.__serviceDb ??= openDatabase({
    databaseUrl: env().DATABASE_URL,
    dataDir: env().DATA_DIR,
  }).catch((err) => {
    globalForDb.__serviceDb = undefined;
    throw err;
  });
  return globalForDb.__serviceDb;
}

/** The Prisma client of the process-wide database. */
export async function db() {
  return (await database()).prisma;
}

/** Closes the process-wide database (tests, CLI, graceful shutdown). */
export async function closeDatabase(): Promise<void> {
  const current = globalForDb.__serviceDb;
  globalForDb.__serviceDb = undefined;
  if (current) await (await current).close();
}
