// PostgreSQL ends a connection the pool holds idle (a restart, an administrator's terminate, a network
// cut): the process goes on, and the next statement runs on a new connection. Without a listener for
// the pool's error event, Node would end the process on the first such connection. PostgreSQL only
// (*.postgres.test.ts runs on the PostgreSQL leg): the embedded database has no connections to lose.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { database } from "@/lib/platform/db";

const serverUrl = process.env.TEST_DATABASE_URL;

describe("a lost idle connection on PostgreSQL", () => {
  it("is dropped from the pool, and the next statement reconnects", async () => {
    const d = await database();
    const pid = (await d.sql.query<{ pid: number }>("SELECT pg_backend_pid() AS pid"))[0]?.pid;
    expect(pid).toEqual(expect.any(Number));
    const errors: unknown[] = [];
    const onUncaught = (err: unknown) => errors.push(err);
    process.on("uncaughtException", onUncaught);
    const admin = new pg.Client({ connectionString: serverUrl! });
    await admin.connect();
    try {
      const ended = (await admin.query<{ ended: boolean }>("SELECT pg_terminate_backend($1) AS ended", [pid])).rows[0]?.ended;
      expect(ended).toBe(true);
      // The pool hears of it once the server's message arrives.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const other = (await d.sql.query<{ other: number }>("SELECT pg_backend_pid() AS other"))[0]?.other;
      expect(other).toEqual(expect.any(Number));
      expect(other).not.toBe(pid);
      expect(errors).toEqual([]);
    } finally {
      process.off("uncaughtException", onUncaught);
      await admin.end();
    }
  });
});
