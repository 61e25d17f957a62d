// Whether the production build is current, and whether an instance is serving it: npm start rebuilds
// only a missing or stale build, and never under a running instance.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** What a build is made from; a change to any of them makes the build stale. */
export const SOURCES = [
  "app",
  "lib",
  "components",
  "packages/browser/src",
  "packages/client/src",
  "packages/client/package.json",
  "packages/client/README.md",
  "packages/client/tsconfig.build.json",
  "packages/python/profile_service",
  "packages/python/pyproject.toml",
  "packages/python/README.md",
  "public",
  "prisma",
  "scripts",
  "next.config.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "postcss.config.mjs",
  "prisma.config.ts",
  "instrumentation.ts",
  "proxy.ts",
];
/** Written by scripts/build.mjs after every step has succeeded, so a half-made build is never current. */
export const BUILD_STAMP = ".next/service-build.json";
/** One file per instance serving the build (named by its pid), written by scripts/server.mjs while it serves. */
export const SERVER_PIDS = ".next/service-servers";

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) {
    if (entry === "generated" || entry === "node_modules" || entry === "__pycache__") continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/** The newest modification time among the sources under `root`. */
export function sourcesMtime(root = ".") {
  return Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
}

/** Records a finished build made from the sources as they stood at `sourcesAt` (read before it began). */
export function writeBuildStamp(sourcesAt, root = ".") {
  writeFileSync(path.join(root, BUILD_STAMP), JSON.stringify({ built_at: new Date().toISOString(), sources_mtime: sourcesAt }) + "\n");
}

/** "missing" (never built, or a build that did not finish), "stale" (sources changed since), or "current". */
export function buildState(root = ".") {
  const file = path.join(root, BUILD_STAMP);
  if (!existsSync(file)) return "missing";
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return "missing";
  }
  return typeof stamp.sources_mtime === "number" && sourcesMtime(root) <= stamp.sources_mtime ? "current" : "stale";
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

/** The pid of an instance serving this checkout's build, if one is running. */
export function runningInstance(root = ".") {
  const dir = path.join(root, SERVER_PIDS);
  if (!existsSync(dir)) return null;
  for (const name of readdirSync(dir)) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    if (alive(pid)) return pid;
    rmSync(path.join(dir, name), { force: true });
  }
  return null;
}

/** scripts/server.mjs: note this process as one serving the build, until it exits (several may serve one build). */
export function holdServerPid(root = ".") {
  const dir = path.join(root, SERVER_PIDS);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, String(process.pid));
  writeFileSync(file, "");
  process.on("exit", () => rmSync(file, { force: true }));
}
