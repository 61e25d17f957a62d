// npm test: lint (npm run lint) beside the production build, integration tests (embedded PGlite; again
// on PostgreSQL when TEST_DATABASE_URL is set), then the browser tests in Debian's Chromium, and with
// TEST_DATABASE_URL, TEST_REDIS_URL and HAProxy the reliability suite (playwright.reliability.config.ts).
// Prints how long each leg took and one summary line.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { requireSupportedNode } from "./node-version.mjs";

requireSupportedNode();

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const out = ".test-data/reports";
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
let ok = true;

const legs = [];
function run(label, args, extraEnv = {}) {
  console.log(`\n=== ${label} ===`);
  const started = performance.now();
  const res = spawnSync(process.execPath, args, { stdio: "inherit", env: { ...env, ...extraEnv } });
  legs.push(`${label}: ${Math.round((performance.now() - started) / 1000)} s`);
  if (res.status !== 0) ok = false;
  return res.status === 0;
}

/** Runs several steps at once (each mostly on one core), printing each one's output once it ends; whether each passed. */
async function runTogether(steps) {
  const label = steps.map((step) => step.label).join(" ‖ ");
  console.log(`\n=== ${label} ===`);
  const started = performance.now();
  const results = await Promise.all(
    steps.map(
      (step) =>
        new Promise((resolve) => {
          const child = spawn(process.execPath, step.args, { stdio: ["ignore", "pipe", "pipe"], env });
          let output = "";
          child.stdout.on("data", (c) => (output += c));
          child.stderr.on("data", (c) => (output += c));
          child.on("close", (code) => {
            console.log(`\n--- ${step.label} (exit ${code}) ---\n${output}`);
            resolve(code === 0);
          });
        }),
    ),
  );
  legs.push(`${label}: ${Math.round((performance.now() - started) / 1000)} s`);
  if (results.includes(false)) ok = false;
  return results;
}

function countVitest(file) {
  if (!existsSync(file)) return void (ok = false);
  const r = JSON.parse(readFileSync(file, "utf8"));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests + (r.numTotalTests === 0 ? 1 : 0);
  totals.skipped += r.numPendingTests + r.numTodoTests;
}

function countPlaywright(file) {
  if (!existsSync(file)) return void (ok = false);
  const s = JSON.parse(readFileSync(file, "utf8")).stats;
  totals.passed += s.expected + s.flaky;
  totals.failed += s.unexpected + (s.expected + s.unexpected + s.flaky === 0 ? 1 : 0);
  totals.skipped += s.skipped;
}

// The house rules and typescript-eslint's type-checked rules (eslint.config.mjs), the layers and the
// cycles (.dependency-cruiser.mjs), as npm run lint runs them: a finding fails the run. The build runs
// beside it: each keeps about one core busy, and the browser tests need the build.
const [linted, built] = await runTogether([
  { label: "lint", args: ["scripts/lint.mjs"] },
  { label: "production build", args: ["scripts/build.mjs"] },
]);
if (!linted) totals.failed += 1;

const vitest = ["node_modules/vitest/vitest.mjs", "run", "--reporter=default", "--reporter=json"];
const pgUrl = process.env.TEST_DATABASE_URL;
const pgliteEnv = { TEST_DATABASE_URL: "", TEST_REDIS_URL: "" };
run("integration tests · embedded PGlite · in-memory rate limits", [...vitest, `--outputFile.json=${out}/vitest-pglite.json`], pgliteEnv);
countVitest(`${out}/vitest-pglite.json`);
if (pgUrl) {
  const label = `integration tests · PostgreSQL${process.env.TEST_REDIS_URL ? " · Redis rate limits" : ""}`;
  run(label, [...vitest, `--outputFile.json=${out}/vitest-postgres.json`]);
  countVitest(`${out}/vitest-postgres.json`);
}

if (built) {
  run("browser tests · Chromium", ["node_modules/@playwright/test/cli.js", "test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/playwright.json`,
  });
  countPlaywright(`${out}/playwright.json`);
  // Two instances and a worker behind HAProxy on the PostgreSQL leg's servers, under faults
  // (e2e/reliability/, docs/operations.md).
  if (pgUrl && process.env.TEST_REDIS_URL) {
    if (spawnSync("haproxy", ["-v"], { stdio: "ignore" }).status === 0) {
      run(
        "reliability · two instances and a worker behind HAProxy · PostgreSQL · Redis",
        ["node_modules/@playwright/test/cli.js", "test", "-c", "playwright.reliability.config.ts", "--reporter=list,json"],
        {
          PLAYWRIGHT_JSON_OUTPUT_NAME: `${out}/reliability.json`,
        },
      );
      countPlaywright(`${out}/reliability.json`);
    } else {
      console.log("\nThe reliability suite needs HAProxy (apt-get install -y haproxy); .ci/run installs it.");
    }
  }
} else {
  totals.failed += 1;
}

console.log(`\n${legs.join("\n")}`);
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
