// A process that must not open the database: a test file that runs without one (tests/setup.ts,
// `*.unit.test.ts`). Kept apart from ./index.ts so such a file need not load the database drivers to
// say so. The service never refuses.
import { processWideSlot } from "../../process-wide";

const refusal = processWideSlot<string>("db.refused");

/** Makes every later `database()` of this process fail with `reason`; undefined lifts the refusal. */
export function refuseDatabase(reason: string | undefined): void {
  refusal.current = reason;
}

/** Why this process may not open the database, or undefined when it may. */
export function refused(): string | undefined {
  return refusal.current;
}
