// Per test file: a fresh database, started from the run's migrated one (tests/global-setup.ts): an
// in-memory PGlite loaded from its image, or on TEST_DATABASE_URL's server a clone of the template
// database (a throw-away schema, migrated here, where the role may not create databases). A
// `*.unit.test.ts` file gets none: its first use of the database fails.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, expect, inject } from "vitest";
import { cloneTemplateDatabase, dropDatabase } from "./helpers/template-database";

// A file may share its worker with the files before it (vitest.config.ts): it starts from the
// environment the worker started with, and the service's clock unmoved.
const STARTING_ENV = Symbol.for("profile-service.tests.starting-env");
const holder = globalThis as { [STARTING_ENV]?: Record<string, string | undefined> };
holder[STARTING_ENV] ??= { ...process.env };
for (const name of Object.keys(process.env)) if (!(name in holder[STARTING_ENV])) delete process.env[name];
Object.assign(process.env, holder[STARTING_ENV]);
const [{ resetClockForTests }, { refuseDatabase }, { resetEnvForTests }] = await Promise.all([
  import("@/lib/platform/clock"),
  import("@/lib/platform/db/refuse"),
  import("@/lib/env"),
]);
resetClockForTests();
resetEnvForTests();
// A unit file's refusal of the database ends with it (a unit file below sets its own).
refuseDatabase(undefined);

/** This file's own name: its database or schema on PostgreSQL, and its rate-limit prefix. */
const own = `test_${randomBytes(6).toString("hex")}`;
/** A `*.unit.test.ts` file runs without a database or Redis, on the embedded leg only (vitest.config.ts). */
const testFile = expect.getState().testPath ?? "";
const unit = testFile.endsWith(".unit.test.ts");
const testDatabaseUrl = unit ? undefined : process.env.TEST_DATABASE_URL;
const template = testDatabaseUrl ? inject("postgresTemplate") : null;
const pgliteImage = testDatabaseUrl ? null : inject("pgliteImage");

// Vitest sets BASE_URL to "/" (Vite's public base); the service's BASE_URL is an absolute address.
// The tests use the development drivers (outboxes, the stand-in consent page), on PostgreSQL too.
Object.assign(process.env, {
  NODE_ENV: "test",
  DEVELOPMENT_MODE: "true",
  BASE_URL: "http://localhost:3000",
  SANDBOX_PROVISION_PER_HOUR: "1000",
  OAUTH_REQUESTS_PER_MINUTE: "100000",
  FLOWS_PER_IP_PER_HOUR: "100000",
});
delete process.env.MCP_URL;
delete process.env.SIGN_IN_URL;
if (unit) {
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = "memory://";
  refuseDatabase(`${path.basename(testFile)} is a unit test file: it runs once, without a database. A test that needs one belongs in a file without .unit in its name.`);
} else if (testDatabaseUrl && template) {
  process.env.DATABASE_URL = await cloneTemplateDatabase(testDatabaseUrl, template, own);
  delete process.env.DATA_DIR;
} else if (testDatabaseUrl) {
  const u = new URL(testDatabaseUrl);
  u.searchParams.set("schema", own);
  process.env.DATABASE_URL = u.toString();
  delete process.env.DATA_DIR;
} else {
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = "memory://";
  if (pgliteImage) {
    const { startMemoryDatabasesFrom } = await import("@/lib/platform/db/open");
    startMemoryDatabasesFrom(() => new Blob([readFileSync(pgliteImage)]));
  }
}
// Each test file counts in Redis under its own prefix: runs and files never share a rate limit.
if (process.env.TEST_REDIS_URL && !unit) Object.assign(process.env, { REDIS_URL: process.env.TEST_REDIS_URL, RATE_LIMIT_PREFIX: `rl-${own}` });
else delete process.env.REDIS_URL;

afterAll(async () => {
  // The service's own shutdown: the job workers stop, every batched log writes what waits (no timer of
  // theirs reopens the database later), and the database closes; then the file's database goes.
  // A unit file has no database, and its worker thread ends with it: it skips loading the whole service.
  if (unit) return;
  const { stopService } = await import("@/lib/startup");
  const { closeRateLimitStore } = await import("@/lib/platform/ratelimit");
  const { resetEnvForTests } = await import("@/lib/env");
  await stopService();
  await closeRateLimitStore();
  resetEnvForTests();
  if (testDatabaseUrl && template) {
    await dropDatabase(testDatabaseUrl, own);
  } else if (testDatabaseUrl) {
    const client = new pg.Client({ connectionString: testDatabaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${own}" CASCADE`);
    // The job queue's tables live beside the service's (lib/platform/jobs: jobsSchema).
    await client.query(`DROP SCHEMA IF EXISTS "${own}_jobs" CASCADE`);
    await client.end();
  }
});
