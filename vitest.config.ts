import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { LongFilesFirst } from "./tests/sequencer.ts";

/**
 * Files that run each in a fresh worker, as vitest does by default. Every other file shares its
 * worker's loaded modules with the files before it (isolate: false), which saves loading the service
 * once per file; tests/setup.ts and the service's own shutdown set back what a file may leave behind (the
 * environment, the clock, the database and what was read from it, the rate limits). A file belongs here when it
 * - replaces modules or globals for the whole file (vi.mock, vi.spyOn), which would outlive it;
 * - tests what a process does the first time, or under settings read once per process: the signing
 *   key ring, the rate limits' sizes, the configured distiller, the client-address stamping, the
 *   preview slots;
 * - begins the process's shutdown, which no later file of the worker could undo
 * (docs/performance.md, "Test suite").
 */
const ISOLATED = [
  // modules or globals replaced
  "tests/actions/server-actions.test.ts",
  "tests/dashboard/key-makers.test.ts",
  "tests/dashboard/tenancy.test.ts",
  "tests/http/cookies.unit.test.ts",
  "tests/person-auth/sign-out-everywhere.test.ts",
  "tests/platform/process-wide.unit.test.ts",
  // a process's first use, or settings read once per process
  "tests/flow/preview-limits.test.ts",
  "tests/flow/rate-limit.test.ts",
  "tests/http/client-address.unit.test.ts",
  "tests/oidc/keys.test.ts",
  "tests/oidc/sso-rate-limit.test.ts",
  "tests/profile/distill-anonymous.test.ts",
  "tests/sandbox/rate-limit.test.ts",
  "tests/sms/limits.test.ts",
  // the process's shutdown begun
  "tests/platform/metrics.test.ts",
  "tests/platform/ready.test.ts",
];

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    // *.postgres.test.ts: what only a PostgreSQL server has (its connections, its administrator), run on
    // the PostgreSQL leg (TEST_DATABASE_URL) and not listed on the embedded one; *.redis.test.ts, what
    // needs the machine's Redis (TEST_REDIS_URL), likewise. *.embedded.test.ts: what always runs on an
    // embedded database of its own whatever the leg (the command-line tool as a newcomer runs it), so
    // the PostgreSQL leg would only run it a second time. *.unit.test.ts: what runs without any database
    // or Redis (the distiller, the client libraries, the lint and tree rules), run once, on the embedded
    // leg; tests/setup.ts gives such a file no database, and its first use of one fails.
    exclude: [
      "**/node_modules/**",
      "**/.git/**",
      ...(process.env.TEST_DATABASE_URL ? ["**/*.embedded.test.ts", "**/*.unit.test.ts"] : ["**/*.postgres.test.ts"]),
      ...(process.env.TEST_REDIS_URL ? [] : ["**/*.redis.test.ts"]),
    ],
    // One migrated database per run, which each file's own database starts from (tests/global-setup.ts).
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup.ts"],
    // Worker threads start faster and cost less than a process per file, and one worker more than the
    // machine has cores keeps them busy while a file waits on a child process, a server or a timer
    // (docs/performance.md, "Test suite").
    pool: "threads",
    // The files that run longest start first, also on a fresh clone with no cached durations.
    sequence: { sequencer: LongFilesFirst },
    maxWorkers: availableParallelism() + 1,
    testTimeout: 30_000,
    // next-auth imports "next/server" without an extension, which only a bundler resolves: let Vite
    // load it (route modules that use it are imported by the fast-path tests).
    server: { deps: { inline: ["next-auth"] } },
    hookTimeout: 60_000,
    projects: [
      // (A project's include and exclude add to the ones above: the include is the projects' own.)
      { extends: true, test: { name: "shared", include: ["tests/**/*.test.ts", "packages/*/tests/**/*.test.ts"], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: "isolated", include: ISOLATED } },
    ],
  },
});
