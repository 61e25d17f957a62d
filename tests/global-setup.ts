// Once per vitest run: one migrated database that every test file starts from, instead of each file
// running initdb and the migrations itself (about 2.5 s a file on PGlite).
// - Embedded PGlite: a data directory image (dumpDataDir) that tests/setup.ts loads per file (loadDataDir).
// - PostgreSQL (TEST_DATABASE_URL): a template database that each file clones (CREATE DATABASE … TEMPLATE);
//   where the URL's role may not create databases, each file migrates a schema of its own, as before.
// Both hold what a new database of the service holds (scripts/build-db-template.ts): every migration and
// the job queue's tables.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { PgBoss, fromPglite } from "pg-boss";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "@/lib/platform/db/migrate";
import { migratePostgres, parsePostgresUrl, PGLITE_OPTIONS } from "@/lib/platform/db/open";
import { pgliteSql } from "@/lib/platform/db/sql";
import { jobsSchema } from "@/lib/platform/jobs";
import { dropDatabase, POSTGRES_TEMPLATE_SCHEMA, quoteIdent, type PostgresTemplate } from "./helpers/template-database";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated PGlite image file, on the embedded leg. */
    pgliteImage: string | null;
    /** The migrated template database, on the PostgreSQL leg when the role may create databases. */
    postgresTemplate: PostgresTemplate | null;
  }
}

async function buildPgliteImage(file: string): Promise<void> {
  const pglite = await PGlite.create(PGLITE_OPTIONS);
  try {
    await applyMigrations(pgliteSql(pglite));
    const boss = new PgBoss({ db: fromPglite(pglite), backend: "pglite", schema: jobsSchema() });
    await boss.start();
    await boss.stop({ graceful: false, close: false });
    // Uncompressed: it loads about 30% faster than gzip, and the file lives for one run.
    writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
  } finally {
    await pglite.close();
  }
}

/** A migrated template database beside TEST_DATABASE_URL's, or null when its role may not create one. */
async function buildPostgresTemplate(testDatabaseUrl: string): Promise<PostgresTemplate | null> {
  const database = `test_template_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${quoteIdent(database)}`);
  } catch (err) {
    console.warn(`No template database (${(err as Error).message}): each test file migrates a schema of its own.`);
    await admin.end();
    return null;
  }
  try {
    const u = new URL(testDatabaseUrl);
    u.pathname = `/${database}`;
    u.searchParams.set("schema", POSTGRES_TEMPLATE_SCHEMA);
    await migratePostgres(u.toString());
    const boss = new PgBoss({ connectionString: parsePostgresUrl(u.toString()).connectionString, schema: jobsSchema(u.toString()), max: 1 });
    await boss.start();
    await boss.stop({ graceful: false });
    // CREATE DATABASE … TEMPLATE refuses a template anyone is connected to: wait out closing connections.
    for (let i = 0; i < 100; i++) {
      const { rows } = await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [database]);
      if (rows[0]!.n === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    return { database, schema: POSTGRES_TEMPLATE_SCHEMA };
  } catch (err) {
    await dropDatabase(testDatabaseUrl, database);
    throw err;
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const testDatabaseUrl = process.env.TEST_DATABASE_URL;
  const dir = mkdtempSync(path.join(tmpdir(), "vitest-db-"));
  let template: PostgresTemplate | null = null;
  let image: string | null = null;
  if (testDatabaseUrl) {
    template = await buildPostgresTemplate(testDatabaseUrl);
  } else {
    image = path.join(dir, "pglite.tar");
    await buildPgliteImage(image);
  }
  project.provide("pgliteImage", image);
  project.provide("postgresTemplate", template);
  return async () => {
    if (testDatabaseUrl && template) await dropDatabase(testDatabaseUrl, template.database);
    rmSync(dir, { recursive: true, force: true });
  };
}
