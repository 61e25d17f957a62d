// Applies prisma/migrations in Prisma's own format (_prisma_migrations, sha256 checksums), loudly.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SqlConnection } from "./sql";

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");
// Serialises concurrent start-ups of several instances against one PostgreSQL database.
const ADVISORY_LOCK_KEY = 72707369;

export class MigrationError extends Error {}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  // The directory is read at run time, never traced into the bundle.
  if (!existsSync(/*turbopackIgnore: true*/ dir)) throw new MigrationError(`Migrations directory not found: ${dir}`);
  return readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

type Applied = { migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null };

/**
 * Applies every pending migration, each in its own transaction. Returns the names applied.
 * Throws on a failed or edited migration instead of carrying on with a half-migrated database.
 */
export async function applyMigrations(conn: SqlConnection, opts: { dir?: string; advisoryLock?: boolean } = {}): Promise<string[]> {
  const migrations = readMigrations(opts.dir);
  if (opts.advisoryLock) await conn.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_KEY]);
  try {
    await conn.exec(CREATE_TABLE);
    const rows = await conn.query<Applied>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`);
    const applied = new Map(rows.filter((r) => !r.rolled_back_at).map((r) => [r.migration_name, r]));
    for (const row of applied.values()) {
      if (!row.finished_at) {
        throw new MigrationError(`Migration ${row.migration_name} failed earlier and is not finished; resolve it by hand before starting.`);
      }
    }
    const done: string[] = [];
    for (const m of migrations) {
      const prior = applied.get(m.name);
      if (prior) {
        if (prior.checksum !== m.checksum) {
          throw new MigrationError(`Migration ${m.name} was edited after it was applied (checksum mismatch).`);
        }
        continue;
      }
      try {
        await conn.exec("BEGIN");
        await conn.exec(m.sql);
        await conn.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await conn.exec("COMMIT");
      } catch (err) {
        await conn.exec("ROLLBACK").catch(() => undefined);
        throw new MigrationError(`Migration ${m.name} failed: ${(err as Error).message}`);
      }
      done.push(m.name);
    }
    return done;
  } finally {
    if (opts.advisoryLock) await conn.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_KEY]);
  }
}
