// Per test file: a fresh database (in-memory PGlite, or a throw-away schema on TEST_DATABASE_URL).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll } from "vitest";

const schema = `test_${randomBytes(6).toString("hex")}`;
const testDatabaseUrl = process.env.TEST_DATABASE_URL;

// Vitest sets BASE_URL to "/" (Vite's public base); the service's BASE_URL is an absolute address.
// The tests use the development drivers (outboxes, the stand-in consent page), on PostgreSQL too.
Object.assign(process.env, { NODE_ENV: "test", DEVELOPMENT_MODE: "true", BASE_URL: "http://localhost:3000", SANDBOX_PROVISION_PER_HOUR: "1000", OAUTH_REQUESTS_PER_MINUTE: "100000", FLOWS_PER_IP_PER_HOUR: "100000" });
delete process.env.MCP_URL;
delete process.env.SIGN_IN_URL;
if (testDatabaseUrl) {
  const u = new URL(testDatabaseUrl);
  u.searchParams.set("schema", schema);
  process.env.DATABASE_URL = u.toString();
  delete process.env.DATA_DIR;
} else {
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = "memory://";
}
// Each test file counts in Redis under its own prefix: runs and files never share a rate limit.
if (process.env.TEST_REDIS_URL) Object.assign(process.env, { REDIS_URL: process.env.TEST_REDIS_URL, RATE_LIMIT_PREFIX: `rl-${schema}` });
else delete process.env.REDIS_URL;

afterAll(async () => {
  const { stopJobs } = await import("@/lib/jobs");
  await stopJobs();
  const { closeDatabase } = await import("@/lib/db");
  const { closeRateLimitStore } = await import("@/lib/ratelimit");
  const { resetEnvForTests } = await import("@/lib/env");
  await closeDatabase();
  await closeRateLimitStore();
  resetEnvForTests();
  if (testDatabaseUrl) {
    const client = new pg.Client({ connectionString: testDatabaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    // The job queue's tables live beside the service's (lib/jobs: jobsSchema).
    await client.query(`DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`);
    await client.end();
  }
});
