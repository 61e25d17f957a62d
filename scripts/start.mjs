// npm start: builds the app when there is no current build, then serves it (scripts/server.mjs).
import { spawnSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "./node-flags.mjs";

const SOURCES = ["app", "lib", "components", "public", "prisma", "scripts", "next.config.mjs", "package.json", "instrumentation.ts", "proxy.ts"];
// The last thing scripts/build.mjs writes.
const BUILD_MARK = ".next/service-db-template/PG_VERSION";
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) {
    if (entry === "generated" || entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

const stale = !existsSync(BUILD_MARK) || Math.max(...SOURCES.map(newestMtime)) > statSync(BUILD_MARK).mtimeMs;
if (stale) {
  console.log("Building the service (first start or sources changed)…");
  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit", env });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, "scripts/server.mjs"], { stdio: "inherit", env: { ...env, NODE_ENV: "production" } });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code) => process.exit(code ?? 0));
