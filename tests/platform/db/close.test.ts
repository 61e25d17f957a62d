// Closing the database while it is still opening, with a query waiting on it, returns (graceful
// shutdown, a health check during start-up).
import { expect, it } from "vitest";
import { closeDatabase, database } from "@/lib/platform/db";

it("closes cleanly while the database is still opening and a statement waits on it", async () => {
  const pending = database().then((d) => d.sql.query<{ one: number }>("SELECT 1 AS one"));
  await closeDatabase();
  const settled = await pending.then(
    (rows) => rows[0]?.one,
    () => "refused",
  );
  expect([1, "refused"]).toContain(settled);
  // A new handle opens after the close.
  expect(await (await database()).sql.query("SELECT 2 AS two")).toEqual([{ two: 2 }]);
});
