// The migration runner: applies Prisma-format migrations once, and fails loudly on a bad or edited one.
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterEach, describe, expect, it } from "vitest";
import { applyMigrations, MIGRATIONS_DIR, MigrationError, readMigrations } from "@/lib/platform/db/migrate";
import { PGLITE_EXTENSIONS } from "@/lib/platform/db/open";
import { pgliteSql } from "@/lib/platform/db/sql";

const open: PGlite[] = [];
async function fresh() {
  const db = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  open.push(db);
  return { db, sql: pgliteSql(db) };
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((d) => d.close()));
});

function copyMigrations(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

describe("applyMigrations", () => {
  it("applies every committed migration once and records Prisma's checksums", async () => {
    const { sql } = await fresh();
    const names = readMigrations().map((m) => m.name);
    expect(await applyMigrations(sql)).toEqual(names);
    expect(await applyMigrations(sql)).toEqual([]);
    const rows = await sql.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    for (const m of readMigrations()) {
      expect(rows.find((r) => r.migration_name === m.name)?.checksum).toBe(createHash("sha256").update(m.sql).digest("hex"));
    }
    expect(rows.every((r) => r.finished_at)).toBe(true);
  });

  it("fails loudly on a failing migration, records nothing and leaves no partial change", async () => {
    const dir = copyMigrations();
    mkdirSync(path.join(dir, "99999999999999_broken"));
    writeFileSync(path.join(dir, "99999999999999_broken", "migration.sql"), `CREATE TABLE "half" (id int);\nSELECT * FROM no_such_table;`);
    const { sql } = await fresh();
    await expect(applyMigrations(sql, { dir })).rejects.toThrow(MigrationError);
    await expect(applyMigrations(sql, { dir })).rejects.toThrow(/99999999999999_broken failed/);
    const recorded = await sql.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '99999999999999_broken'`);
    expect(recorded).toEqual([]);
    const half = await sql.query(`SELECT to_regclass('half') AS t`);
    expect(half[0]!.t).toBeNull();
  });

  it("refuses to start when an applied migration was edited", async () => {
    const dir = copyMigrations();
    const { sql } = await fresh();
    await applyMigrations(sql, { dir });
    const first = readMigrations(dir)[0]!;
    writeFileSync(path.join(dir, first.name, "migration.sql"), `${first.sql}\n-- edited`);
    await expect(applyMigrations(sql, { dir })).rejects.toThrow(/edited after it was applied/);
  });
});

describe("embedded database lock", () => {
  it("refuses a second process on the same data directory and recovers a stale lock", async () => {
    const { lockDataDir, DatabaseInUseError } = await import("@/lib/platform/db/lock");
    const dir = mkdtempSync(path.join(tmpdir(), "lock-"));
    const file = path.join(dir, "pglite.lock");
    // The parent of this test process stands in for another live process holding the lock.
    writeFileSync(file, String(process.ppid));
    expect(() => lockDataDir(file)).toThrow(DatabaseInUseError);
    // A pid that cannot exist is a stale lock: it is taken over.
    writeFileSync(file, "2147483646");
    const release = lockDataDir(file);
    release();
  });

  it("keeps the flows stored before the way in, status and screen became enums", async () => {
    const all = copyMigrations();
    const before = mkdtempSync(path.join(tmpdir(), "migrations-before-"));
    const enums = readMigrations(all).find((m) => m.name.endsWith("_flow_enums"))!;
    for (const m of readMigrations(all).filter((m) => m.name < enums.name)) cpSync(path.join(all, m.name), path.join(before, m.name), { recursive: true });
    const { sql } = await fresh();
    await applyMigrations(sql, { dir: before });
    await sql.exec(`INSERT INTO flow_sessions (id, way_in, plane, browser_hash, status, screen, expires_at, created_at)
      VALUES ('${"F".repeat(32)}', 'connect', 'live', 'h', 'declined', 'capability', now(), now())`);
    expect(await applyMigrations(sql, { dir: all })).toEqual([
      enums.name,
      ...readMigrations(all)
        .filter((m) => m.name > enums.name)
        .map((m) => m.name),
    ]);
    const [row] = await sql.query<{ way_in: string; status: string; screen: string; t: string }>(
      `SELECT way_in::text, status::text, screen::text, pg_typeof(screen)::text AS t FROM flow_sessions`,
    );
    expect(row).toEqual({ way_in: "connect", status: "declined", screen: "capability", t: '"FlowScreen"' });
  });
});
