// The embedded database template (lib/db/open.ts, PGLITE_TEMPLATE): a PGlite data directory with
// every committed migration applied, closed cleanly. A first start copies it instead of running
// initdb, so a new data directory opens in about a second.
import { rmSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { applyMigrations } from "../lib/db/migrate";
import { PGLITE_START_PARAMS, PGLITE_TEMPLATE } from "../lib/db/open";
import { pgliteSql } from "../lib/db/sql";

const started = performance.now();
rmSync(PGLITE_TEMPLATE, { recursive: true, force: true });
const pglite = await PGlite.create(PGLITE_TEMPLATE, { startParams: PGLITE_START_PARAMS });
const applied = await applyMigrations(pgliteSql(pglite));
await pglite.close();
console.log(`Embedded database template: ${applied.length} migrations → ${PGLITE_TEMPLATE} (${Math.round(performance.now() - started)} ms)`);
