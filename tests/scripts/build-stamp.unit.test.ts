// npm start's freshness check (scripts/build-stamp.mjs): a finished build is current until a source
// changes, whatever timestamps the build's own outputs carry; a half-made build is never current; and
// an instance serving the build is seen, so a start never rebuilds under it.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without type declarations
import { BUILD_STAMP, SERVER_PIDS, buildState, runningInstance, sourcesMtime, writeBuildStamp } from "../../scripts/build-stamp.mjs";

function checkout(): string {
  const root = mkdtempSync(path.join(tmpdir(), "build-stamp-"));
  mkdirSync(path.join(root, "lib"), { recursive: true });
  mkdirSync(path.join(root, ".next/service-db-template"), { recursive: true });
  writeFileSync(path.join(root, "lib/a.ts"), "export const a = 1;\n");
  writeFileSync(path.join(root, "package.json"), "{}\n");
  return root;
}

describe("npm start's build check", () => {
  it("is missing before a build finishes, current after, and stale once a source changes", () => {
    const root = checkout();
    expect(buildState(root)).toBe("missing");
    writeBuildStamp(sourcesMtime(root), root);
    expect(buildState(root)).toBe("current");
    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(root, "lib/a.ts"), later, later);
    expect(buildState(root)).toBe("stale");
  });

  it("does not look at the build's own outputs: a template file dated 1970 leaves a finished build current", () => {
    const root = checkout();
    const template = path.join(root, ".next/service-db-template/PG_VERSION");
    writeFileSync(template, "17\n");
    utimesSync(template, new Date(0), new Date(0));
    writeBuildStamp(sourcesMtime(root), root);
    expect(buildState(root)).toBe("current");
  });

  it("takes a stamp it cannot read as no build", () => {
    const root = checkout();
    writeFileSync(path.join(root, BUILD_STAMP), "{not json");
    expect(buildState(root)).toBe("missing");
    writeFileSync(path.join(root, BUILD_STAMP), JSON.stringify({ built_at: "x" }));
    expect(buildState(root)).toBe("stale");
  });

  it("sees a live instance serving the build among several, and forgets one that has exited", async () => {
    const root = checkout();
    expect(runningInstance(root)).toBeNull();
    const pids = path.join(root, SERVER_PIDS);
    mkdirSync(pids, { recursive: true });
    writeFileSync(path.join(pids, "not-a-pid"), "");
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" });
    try {
      writeFileSync(path.join(pids, String(child.pid)), "");
      expect(runningInstance(root)).toBe(child.pid);
    } finally {
      child.kill();
      await new Promise((r) => child.once("exit", r));
    }
    expect(runningInstance(root)).toBeNull();
    expect(existsSync(path.join(pids, String(child.pid)))).toBe(false);
  });
});
