// Applies pending migrations to the configured database (DATABASE_URL, or embedded PGlite in DATA_DIR).
import { env } from "../lib/env";
import { applyMigrations } from "../lib/platform/db/migrate";
import { migratePostgres, openDatabase } from "../lib/platform/db/open";

async function main() {
  const config = env();
  if (config.DATABASE_URL) {
    const applied = await migratePostgres(config.DATABASE_URL);
    report(applied, "PostgreSQL");
    return;
  }
  const db = await openDatabase({ dataDir: config.DATA_DIR, migrate: false });
  try {
    report(await applyMigrations(db.sql), `embedded PGlite in ${config.DATA_DIR}`);
  } finally {
    await db.close();
  }
}

function report(applied: string[], target: string) {
  console.log(applied.length ? `Applied to ${target}:\n  ${applied.join("\n  ")}` : `${target} is up to date.`);
}

main().catch((err) => {
  console.error(`Migration failed: ${(err as Error).message}`);
  process.exit(1);
});
