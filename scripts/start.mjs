// npm start: checks the configuration, builds when there is no current build (never under a running
// instance), then serves it (scripts/server.mjs).
import { spawnSync, spawn } from "node:child_process";
import { buildState, runningInstance } from "./build-stamp.mjs";
import { SERVER_NODE_FLAGS } from "./node-flags.mjs";
import { requireSupportedNode } from "./node-version.mjs";

requireSupportedNode();

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const state = buildState();
if (state !== "current") {
  const pid = runningInstance();
  if (pid) {
    console.error(
      `The build is ${state === "stale" ? "older than the sources" : "incomplete"}, and an instance (pid ${pid}) is serving it: a build now would change its files under it.\n` +
        "Stop that instance, then run npm start again (it builds first).",
    );
    process.exit(1);
  }
  // A configuration the service would refuse fails now, not after a build of several minutes.
  const check = spawnSync(process.execPath, ["--import", "tsx", "scripts/check-config.ts"], { stdio: "inherit", env: { ...env, NODE_ENV: env.NODE_ENV ?? "production" } });
  if (check.status !== 0) process.exit(check.status ?? 1);
  console.log(state === "missing" ? "Building the service (first start)…" : "Building the service (sources changed since the last build)…");
  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit", env });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, "scripts/server.mjs"], { stdio: "inherit", env: { ...env, NODE_ENV: "production" } });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code) => process.exit(code ?? 0));
