// The reliability suite (e2e/reliability/): two instances from `npm start` and a worker behind HAProxy
// (deploy/haproxy.cfg), on TEST_DATABASE_URL's PostgreSQL and TEST_REDIS_URL's Redis, under faults. It
// starts its own processes on the current build (npm test builds first), one experiment at a time.
// This file is tooling, not the service, so it reads process.env directly.
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./e2e/support/chromium";

for (const name of ["TEST_DATABASE_URL", "TEST_REDIS_URL"]) {
  if (!process.env[name]) throw new Error(`The reliability suite runs on a PostgreSQL server and a Redis: set ${name}.`);
}

export default defineConfig({
  testDir: "e2e/reliability",
  outputDir: "test-results/reliability",
  workers: 1,
  fullyParallel: false,
  timeout: 120_000,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: "list",
  // As playwright.config.ts: a failed test's trace, without the screencast.
  use: { trace: { mode: "retain-on-failure", screenshots: false } },
  projects: [{ name: "reliability", use: { browserName: "chromium", launchOptions: { executablePath: findChromium(), args: CHROMIUM_ARGS } } }],
});
