// The migration that records suppressions: memories hidden before it are grouped into one suppression
// per forget (the rows one forget hid share its instant), of unrecorded origin, so each stays hidden
// and can be seen and restored.
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterEach, expect, it } from "vitest";
import { applyMigrations, MIGRATIONS_DIR, readMigrations } from "@/lib/platform/db/migrate";
import { PGLITE_EXTENSIONS } from "@/lib/platform/db/open";
import { pgliteSql } from "@/lib/platform/db/sql";
import { isIdOf, PREFIX } from "@/lib/platform/ids";

const open: PGlite[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((d) => d.close()));
});

it("groups memories hidden before suppressions were recorded into one suppression per forget", async () => {
  const all = readMigrations(MIGRATIONS_DIR);
  const ours = all.find((m) => m.name.endsWith("_memory_suppressions"))!;
  const before = mkdtempSync(path.join(tmpdir(), "migrations-before-"));
  for (const m of all.filter((m) => m.name < ours.name)) cpSync(path.join(MIGRATIONS_DIR, m.name), path.join(before, m.name), { recursive: true });
  const db = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  open.push(db);
  const sql = pgliteSql(db);
  await applyMigrations(sql, { dir: before });

  const user = "00000000-0000-4000-8000-000000000001";
  await sql.exec(`INSERT INTO users (id, plane) VALUES ('${user}', 'live')`);
  const memory = (id: string, key: string, hiddenAt: string | null) =>
    `('${id}', '${user}', 'imports/chatgpt', 'imports/chatgpt', 'preferences', 'like', 'Likes ${key}', '${key}', ${hiddenAt ? `'${hiddenAt}'` : "NULL"})`;
  await sql.exec(`INSERT INTO memories (id, user_id, source, written_by, box, kind, text, key, suppressed_at) VALUES
    ${memory("mem_a", "chess", "2026-03-01T10:00:00.000Z")}, ${memory("mem_b", "go", "2026-03-01T10:00:00.000Z")},
    ${memory("mem_c", "tea", "2026-03-02T10:00:00.000Z")}, ${memory("mem_d", "coffee", null)}`);

  await applyMigrations(sql, { dir: MIGRATIONS_DIR });
  const rows = await sql.query<{ id: string; requested_by: string; agent_id: string | null; created_at: Date; memories: string[] }>(
    `SELECT s.id, s.requested_by, s.agent_id, s.created_at, array_agg(i.memory_id ORDER BY i.memory_id) AS memories
       FROM memory_suppressions s JOIN memory_suppression_items i ON i.suppression_id = s.id
      WHERE s.user_id = $1 GROUP BY s.id ORDER BY s.created_at`,
    [user],
  );
  expect(rows.map((r) => [r.requested_by, r.agent_id, r.created_at.toISOString(), r.memories])).toEqual([
    ["earlier", null, "2026-03-01T10:00:00.000Z", ["mem_a", "mem_b"]],
    ["earlier", null, "2026-03-02T10:00:00.000Z", ["mem_c"]],
  ]);
  for (const r of rows) expect(isIdOf(PREFIX.suppression, r.id)).toBe(true);
});
