// COPY … FROM STDIN on both engines (the embedded one reads a blob): rows arrive exactly, text with
// tabs, newlines and backslashes intact, NULLs as NULL; a refused row undoes the whole COPY; and the
// connection that ran a refused COPY serves the next statement.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyText } from "@/lib/platform/db/copy";
import { database } from "@/lib/platform/db";

const TABLE = `copy_probe_${process.pid}`;

beforeAll(async () => {
  const { sql } = await database();
  await sql.exec(`DROP TABLE IF EXISTS ${TABLE}; CREATE TABLE ${TABLE} (id text PRIMARY KEY, n int, at timestamptz(3), note text)`);
});

afterAll(async () => {
  const { sql } = await database();
  await sql.exec(`DROP TABLE IF EXISTS ${TABLE}`);
});

describe("copyText", () => {
  it("escapes backslash, tab, newline and carriage return, and writes NULL as \\N", () => {
    expect(copyText([["a\\b", "c\td", "e\nf", "g\rh", null, 7, new Date("2026-01-02T03:04:05.678Z")]])).toBe("a\\\\b\tc\\td\te\\nf\tg\\rh\t\\N\t7\t2026-01-02T03:04:05.678Z\n");
  });

  it("writes nothing for no rows", () => {
    expect(copyText([])).toBe("");
  });
});

describe("copyFrom", () => {
  it("loads every row as given: text with escapes, NULLs, numbers and times", async () => {
    const { sql } = await database();
    const at = new Date("2026-11-29T10:11:12.345Z");
    const notes = ["plain", "tab\there", "line\nbreak", "back\\slash \\N", "ünïcödé ✓", "\\", ""];
    await sql.copyFrom(
      TABLE,
      ["id", "n", "at", "note"],
      notes.map((note, i) => [`r${i}`, i, at, note]),
    );
    await sql.copyFrom(TABLE, ["id", "n", "at", "note"], [["nulls", null, null, null]]);
    const rows = await sql.query<{ id: string; n: number | null; at: Date | string | null; note: string | null }>(`SELECT id, n, at, note FROM ${TABLE} ORDER BY id`);
    const byId = new Map(rows.map((r) => [r.id, r]));
    notes.forEach((note, i) => {
      const row = byId.get(`r${i}`)!;
      expect(row.note).toBe(note);
      expect(row.n).toBe(i);
      expect(new Date(row.at!).toISOString()).toBe(at.toISOString());
    });
    expect(byId.get("nulls")).toEqual({ id: "nulls", n: null, at: null, note: null });
  });

  it("loads all or nothing: a row the table refuses rejects the COPY and leaves no row of it", async () => {
    const { sql } = await database();
    await sql.copyFrom(TABLE, ["id", "note"], [["once", "first"]]);
    await expect(
      sql.copyFrom(
        TABLE,
        ["id", "note"],
        [
          ["fresh-1", "x"],
          ["once", "again"],
          ["fresh-2", "y"],
        ],
      ),
    ).rejects.toThrow(/duplicate key/);
    const rows = await sql.query<{ id: string; note: string }>(`SELECT id, note FROM ${TABLE} WHERE id IN ('once', 'fresh-1', 'fresh-2')`);
    expect(rows).toEqual([{ id: "once", note: "first" }]);
    // The connection that ran the refused COPY is usable: every pooled connection answers.
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => sql.query<{ n: number }>(`SELECT ${i}::int AS n`)));
    expect(answers.map((r) => r[0]!.n)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it("loads a batch as large as the request log's", async () => {
    const { sql } = await database();
    const rows = Array.from({ length: 500 }, (_, i) => [`big-${i}`, i, new Date(), `note ${i}\t${"x".repeat(i % 50)}`] as const);
    await sql.copyFrom(TABLE, ["id", "n", "at", "note"], rows);
    const [count] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${TABLE} WHERE id LIKE 'big-%'`);
    expect(count!.n).toBe(500);
  });
});
