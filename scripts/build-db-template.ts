// The embedded database template (lib/platform/db/open.ts, PGLITE_TEMPLATE): a PGlite data directory with
// every committed migration and pg-boss's schema applied, closed cleanly. A first start copies it instead of running
// initdb, so a new data directory opens in about a second.
import { rmSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PgBoss, fromPglite } from "pg-boss";
import { jobsSchema } from "../lib/platform/jobs";
import { applyMigrations } from "../lib/platform/db/migrate";
import { PGLITE_OPTIONS, PGLITE_TEMPLATE } from "../lib/platform/db/open";
import { pgliteSql } from "../lib/platform/db/sql";

const started = performance.now();
rmSync(PGLITE_TEMPLATE, { recursive: true, force: true });
const pglite = await PGlite.create(PGLITE_TEMPLATE, PGLITE_OPTIONS);
const applied = await applyMigrations(pgliteSql(pglite));
// pg-boss's own tables too, so a first start does not create them.
const boss = new PgBoss({ db: fromPglite(pglite), backend: "pglite", schema: jobsSchema() });
await boss.start();
await boss.stop({ graceful: false, close: false });
await pglite.close();
console.log(`Embedded database template: ${applied.length} migrations → ${PGLITE_TEMPLATE} (${Math.round(performance.now() - started)} ms)`);
