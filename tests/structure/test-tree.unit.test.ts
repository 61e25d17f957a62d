// The integration tests are shaped like the code: a test of lib/oidc/ lives in tests/oidc/, one of
// lib/platform/log/ in tests/platform/log/. Besides those, tests/ holds the helpers and fixtures the
// files share, tests of the command-line scripts (tests/scripts/) and of the code's own structure
// (tests/structure/), and the files vitest loads itself: the two setup files and the sequencer.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { database } from "@/lib/platform/db";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TESTS = path.join(ROOT, "tests");
/** Folders of tests/ that mirror nothing in lib/. */
const OWN_FOLDERS: ReadonlySet<string> = new Set(["helpers", "fixtures", "scripts", "structure"]);
const SETUP_FILES: ReadonlySet<string> = new Set(["setup.ts", "global-setup.ts", "sequencer.ts"]);

/** Every test file under a folder of tests/, as paths relative to tests/. */
function testFiles(dir: string): string[] {
  return readdirSync(path.join(TESTS, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(rel);
    return entry.name.endsWith(".test.ts") ? [rel] : [];
  });
}

describe("the test tree", () => {
  it("keeps no test file at the top of tests/, only the files vitest loads and folders", () => {
    const loose = readdirSync(TESTS, { withFileTypes: true }).filter((e) => e.isFile() && !SETUP_FILES.has(e.name));
    expect(loose.map((e) => e.name)).toEqual([]);
  });

  it("names each folder of tests/ after a folder of lib/, or one of its own", () => {
    const folders = readdirSync(TESTS, { withFileTypes: true }).filter((e) => e.isDirectory() && !OWN_FOLDERS.has(e.name));
    expect(folders.length).toBeGreaterThan(20);
    const strays = folders.flatMap((folder) => {
      const nested = testFiles(folder.name).map((file) => path.posix.dirname(file));
      return [...new Set(nested)].filter((dir) => !existsSync(path.join(ROOT, "lib", dir)));
    });
    expect(strays).toEqual([]);
  });

  it("finds the test files where vitest looks for them", () => {
    const all = readdirSync(TESTS, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !["helpers", "fixtures"].includes(e.name))
      .flatMap((e) => testFiles(e.name));
    expect(all.length).toBeGreaterThan(100);
    expect(all.every((file) => /^[a-z-]+(\/[a-z-]+)*\/[a-z0-9-]+(\.postgres|\.redis|\.embedded|\.unit)?\.test\.ts$/.test(file))).toBe(true);
  });

  it("runs each file that needs a fresh worker in one: every file vitest.config.ts names so exists", () => {
    // Read as text: the configuration belongs to no layer of the code (.dependency-cruiser.mjs).
    const list = /const ISOLATED = \[([^\]]*)\]/.exec(readFileSync(path.join(ROOT, "vitest.config.ts"), "utf8"))?.[1] ?? "";
    const isolated = [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    expect(isolated.length).toBeGreaterThan(10);
    expect(isolated.filter((file) => !existsSync(path.join(ROOT, file)))).toEqual([]);
  });

  it("gives a unit test file, such as this one, no database: its first use fails and names the file", async () => {
    await expect(database()).rejects.toThrow("test-tree.unit.test.ts is a unit test file: it runs once, without a database.");
  });
});
