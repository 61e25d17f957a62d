// The embedded database's parser map (lib/platform/db/open.ts, slimPgliteParsers): PGlite copies it for
// every statement, so it keeps only the database's own enum arrays; the built-in array types parse
// through PGlite's shared parsers. What a statement answers is unchanged, arrays of every kind the
// service reads included, and an array type made after opening parses once the map is slimmed again.
import { PGlite, types } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGLITE_OPTIONS, slimPgliteParsers } from "@/lib/platform/db/open";
import { database } from "@/lib/platform/db";

const READ = `SELECT ARRAY['a', 'b,c']::text[] AS texts, ARRAY[1, 2]::int4[] AS ints, ARRAY[3]::int8[] AS bigs,
  ARRAY['0190d0c4-0000-7000-8000-000000000001']::uuid[] AS uuids, ARRAY['{"a":[1]}']::jsonb[] AS docs,
  ARRAY['2026-11-29T01:00:00Z']::timestamptz[] AS times, ARRAY[true, false] AS flags, ARRAY[1.5]::float8[] AS floats,
  '{"x":1}'::jsonb AS doc, 7::int8 AS big, now() - now() AS nothing`;

describe("on a fresh embedded database", () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create(PGLITE_OPTIONS);
  });
  afterAll(async () => {
    await db.close();
  });

  it("answers the same rows with the slim map as with PGlite's own, in a fraction of the keys", async () => {
    const full = Object.keys(db.parsers).length;
    const before = (await db.query(READ)).rows;
    await db.exec(`CREATE TYPE mood AS ENUM ('calm', 'busy'); CREATE TABLE things (id int, moods mood[])`);
    await slimPgliteParsers(db);
    expect(full).toBeGreaterThan(200);
    expect(Object.keys(db.parsers).length).toBeLessThan(5);
    const after = (await db.query(READ)).rows;
    expect(after).toEqual(before);
    expect(after[0]).toMatchObject({ texts: ["a", "b,c"], ints: [1, 2], docs: [{ a: [1] }], flags: [true, false], doc: { x: 1 } });
    expect((after[0] as { times: Date[] }).times[0]).toEqual(new Date("2026-11-29T01:00:00Z"));
    // The enum made after opening, and its array type: parsed as PGlite parses an enum array it knows.
    await db.exec(`INSERT INTO things VALUES (1, ARRAY['calm', 'busy']::mood[])`);
    expect((await db.query("SELECT moods FROM things")).rows).toEqual([{ moods: ["calm", "busy"] }]);
    // The built-in array types parse through the shared defaults, each with its element's parser.
    expect(types.parsers[1007]!("{1,2}", 1007)).toEqual([1, 2]);
  });

  it("Prisma's queries (array rows, its own parsers) read the same", async () => {
    const rows = (await db.query(READ, [], { rowMode: "array" })).rows;
    expect((rows[0] as unknown[])[0]).toEqual(["a", "b,c"]);
  });
});

it("the service's embedded database opens with the slim map", async () => {
  const { kind, pglite } = await database();
  expect(kind).toBe("pglite");
  expect(Object.keys(pglite!.parsers).length).toBeLessThan(40);
  expect(Object.keys(pglite!.parsers).every((k) => Number(k) >= 16384)).toBe(true);
  const [row] = await (await database()).sql.query<{ planes: string[] }>(`SELECT ARRAY['live', 'test']::"Plane"[] AS planes`);
  expect(row!.planes).toEqual(["live", "test"]);
});
