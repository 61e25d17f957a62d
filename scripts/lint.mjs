// npm run lint: the code rules (ESLint, eslint.config.mjs), the layers and cycles on the import graph
// (dependency-cruiser, .dependency-cruiser.mjs), and the formatting (Prettier, prettier.config.mjs;
// `npm run format` fixes it). Every part runs; a finding in any fails.
// Arguments go to ESLint (`npm run lint -- --fix`).
import { spawnSync } from "node:child_process";

/** What the layers hold: the service, its command line, its tests and benchmarks. */
const SOURCES = ["app", "components", "lib", "scripts", "tests", "e2e", "bench", "instrumentation.ts", "proxy.ts", "next.config.mjs"];

const parts = [
  ["code rules", ["node_modules/eslint/bin/eslint.js", ".", ...process.argv.slice(2)]],
  ["layers and cycles", ["node_modules/dependency-cruiser/bin/dependency-cruise.mjs", "--config", ".dependency-cruiser.mjs", "--output-type", "err-long", ...SOURCES]],
  ["formatting", ["node_modules/prettier/bin/prettier.cjs", "--check", "--log-level", "warn", "."]],
];

let failed = false;
for (const [label, args] of parts) {
  const res = spawnSync(process.execPath, args, { stdio: "inherit" });
  if (res.status !== 0) {
    failed = true;
    console.error(`lint: the ${label} failed.`);
  }
}
process.exit(failed ? 1 : 0);
