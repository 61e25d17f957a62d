// The order test files start in. Vitest starts the files that took longest on an earlier run first, from
// the durations it caches; with no cache (a fresh clone, as CI runs) it starts the largest files first.
// A short file that runs for a minute (the command-line tool as a newcomer runs it, the crash test's
// killed worker) then starts among the last, and the whole leg ends waiting on it alone, the other
// workers idle. The files below start first whatever the cache holds, longest first
// (tests/structure/sequencer.unit.test.ts keeps the list to files that exist).
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const LONG_FILES_FIRST = [
  "tests/scripts/cli.embedded.test.ts",
  "tests/import-jobs/crash.test.ts",
  "tests/api-edge/fuzz.test.ts",
  "tests/platform/db/migrations.test.ts",
  "tests/sign-in/callback.test.ts",
  "tests/oidc/token.test.ts",
  "tests/person-auth/email-proof-migration.test.ts",
  "tests/app-grants/app-grants.test.ts",
  "tests/webhooks/delivery.test.ts",
  "tests/profile/suppressions-migration.test.ts",
];

const ROOT = path.resolve(import.meta.dirname, "..");

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = LONG_FILES_FIRST.indexOf(path.relative(ROOT, spec.moduleId).split(path.sep).join("/"));
      return i < 0 ? LONG_FILES_FIRST.length : i;
    };
    // Stable: the rest keep the order vitest gave them.
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
