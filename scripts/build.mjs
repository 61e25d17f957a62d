// npm run build: the route manifest (scripts/route-manifest.mjs), the Next.js production build, then the API fast path (scripts/build-api.mjs),
// the cards' host script (scripts/build-card-host.ts), the sign-in button's script (scripts/build-sso-script.ts), the client library's
// tarball and the Python library's wheel served at /sdk/v1/ (scripts/build-sdk.ts) and the embedded database template (scripts/build-db-template.ts); last, the stamp that says the build
// is whole and current (scripts/build-stamp.mjs).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { BUILD_STAMP, sourcesMtime, writeBuildStamp } from "./build-stamp.mjs";
import { requireSupportedNode } from "./node-version.mjs";

requireSupportedNode();

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
function step(args) {
  const res = spawnSync(process.execPath, args, { stdio: "inherit", env });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

rmSync(BUILD_STAMP, { force: true });
// The route manifest is generated into lib/ (and rewritten only when it changes): the sources are read after it.
step(["scripts/route-manifest.mjs"]);
// Read before the rest of the build: a source changed during the build leaves it stale.
const sourcesAt = sourcesMtime();
for (const args of [
  ["node_modules/next/dist/bin/next", "build"],
  ["scripts/build-api.mjs"],
  ["--import", "tsx", "scripts/build-card-host.ts"],
  ["--import", "tsx", "scripts/build-sso-script.ts"],
  ["--import", "tsx", "scripts/build-sdk.ts"],
  ["--import", "tsx", "scripts/build-db-template.ts"],
])
  step(args);
writeBuildStamp(sourcesAt);
