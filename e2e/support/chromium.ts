// Debian's Chromium for the browser tests: where it is, its major version, and the flags it runs with
// on a machine with a closed network (both Playwright configurations).
import { execFileSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

/**
 * The browser the tests drive, headless: `$CHROMIUM_PATH`; else Debian's `chromium-headless-shell`
 * where it is installed (the same renderer without the full browser around it, so the screenshots
 * match the same baselines at about two-thirds of the CPU: docs/performance.md, "Test suite"); else
 * `chromium` (`apt-get install -y chromium`). The first executable of each name on the PATH.
 */
export function findChromium(): string {
  if (process.env.CHROMIUM_PATH) {
    if (executable(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
    throw new Error(`Chromium not found at CHROMIUM_PATH=${process.env.CHROMIUM_PATH}: apt-get install -y chromium-headless-shell`);
  }
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  for (const name of ["chromium-headless-shell", "chromium"]) {
    const found = dirs.map((dir) => path.join(dir, name)).find(executable);
    if (found) return found;
  }
  throw new Error("Chromium not found: apt-get install -y chromium-headless-shell (or chromium)");
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
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
