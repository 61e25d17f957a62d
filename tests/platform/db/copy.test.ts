// COPY … FROM STDIN on both engines (the embedded one reads a blob): rows arrive exactly, text with
// tabs, newlines and backslashes intact, NULLs as NULL; a refused row undoes the whole COPY; the
// connection that ran a refused COPY serves the next statement; and the two logs' batches load by
// COPY itself, not through their INSERT fallback.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessLogCopy } from "@/lib/access-log/access-log";
import { copyElse, copyText } from "@/lib/platform/db/copy";
import { database } from "@/lib/platform/db";
import { requestLogCopy } from "@/lib/request-log/record";
import { createTenant } from "../../helpers/fixtures";

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

describe("the logs' batches", () => {
  it("load by COPY into the access log and the request log as their tables are, without the fallback", async () => {
    const { sql } = await database();
    const t = await createTenant();
    const at = new Date("2026-11-29T12:00:00.123Z");
    const entry = {
      id: randomUUID(),
      userId: t.users.live.id,
      agentId: t.agent.id,
      agentName: "Assistant\twith a tab",
      plane: "live" as const,
      surface: "rest" as const,
      action: "GET /v1/profile",
      outcome: "ok",
      at,
      conversation: "cv_abc",
      turn: null,
    };
    const row = {
      id: `req_${randomUUID()}`,
      developerId: t.developer.id,
      plane: "test" as const,
      agentId: null,
      method: "POST",
      route: "/v1/profile/commit/[commitId]",
      status: 422,
      errorCode: "invalid_request",
      latencyMs: 12,
      at,
    };
    // copyFrom rejects on any refusal, where the writers would fall back to their INSERT.
    const access = accessLogCopy([entry]);
    const request = requestLogCopy([row]);
    await sql.copyFrom(access.table, access.columns, access.rows);
    await sql.copyFrom(request.table, request.columns, request.rows);
    const [a] = await sql.query<Record<string, unknown>>(
      `SELECT user_id, agent_id, agent_name, plane::text AS plane, surface, action, outcome, at, conversation, turn FROM access_log WHERE id = $1`,
      [entry.id],
    );
    expect({ ...a, at: new Date(a!.at as string).toISOString() }).toEqual({
      user_id: t.users.live.id,
      agent_id: t.agent.id,
      agent_name: "Assistant\twith a tab",
      plane: "live",
      surface: "rest",
      action: "GET /v1/profile",
      outcome: "ok",
      at: at.toISOString(),
      conversation: "cv_abc",
      turn: null,
    });
    const [r] = await sql.query<Record<string, unknown>>(
      `SELECT developer_id, plane::text AS plane, agent_id, method, route, status, error_code, latency_ms FROM request_log WHERE id = $1`,
      [row.id],
    );
    expect(r).toEqual({
      developer_id: t.developer.id,
      plane: "test",
      agent_id: null,
      method: "POST",
      route: "/v1/profile/commit/[commitId]",
      status: 422,
      error_code: "invalid_request",
      latency_ms: 12,
    });
  });

  it("go to the fallback only when COPY refuses the batch", async () => {
    const { sql } = await database();
    const table = TABLE;
    let fallbacks = 0;
    await copyElse(sql, { table, columns: ["id"], rows: [["else-1"]] }, async () => void fallbacks++);
    expect(fallbacks).toBe(0);
    await copyElse(sql, { table, columns: ["id"], rows: [["else-2"], ["else-1"]] }, async () => void fallbacks++);
    expect(fallbacks).toBe(1);
    const rows = await sql.query<{ id: string }>(`SELECT id FROM ${TABLE} WHERE id LIKE 'else-%' ORDER BY id`);
    expect(rows.map((r) => r.id)).toEqual(["else-1"]);
  });
});
