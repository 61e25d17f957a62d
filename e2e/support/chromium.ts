// Debian's Chromium for the browser tests: where it is, its major version, and the flags it runs with
// on a machine with a closed network (both Playwright configurations).
import { execFileSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

/** `$CHROMIUM_PATH`, else the first executable `chromium` on the PATH (what `which chromium` prints). */
export function findChromium(): string {
  const candidates = process.env.CHROMIUM_PATH
    ? [process.env.CHROMIUM_PATH]
    : (process.env.PATH ?? "")
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, "chromium"));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not there or not executable: try the next one
    }
  }
  throw new Error(
    process.env.CHROMIUM_PATH ? `Chromium not found at CHROMIUM_PATH=${process.env.CHROMIUM_PATH}: apt-get install -y chromium` : "Chromium not found: apt-get install -y chromium",
  );
}

/** The major version of the Chromium that draws the screens: visual baselines belong to one renderer. */
export function chromiumMajor(executable: string): string {
  const version = execFileSync(executable, ["--version"], { encoding: "utf8" });
  return version.match(/(\d+)\./)?.[1] ?? "unknown";
}

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];
