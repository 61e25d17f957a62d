// npm run build: the /v1 route table (scripts/api-routes.mjs), the Next.js production build, then the API fast path (scripts/build-api.mjs) and
// the embedded database template (scripts/build-db-template.ts); last, the stamp that says the build
// is whole and current (scripts/build-stamp.mjs).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { BUILD_STAMP, sourcesMtime, writeBuildStamp } from "./build-stamp.mjs";

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
rmSync(BUILD_STAMP, { force: true });
// Read before building: a source changed during the build leaves it stale.
const sourcesAt = sourcesMtime();
for (const args of [["scripts/api-routes.mjs"], ["node_modules/next/dist/bin/next", "build"], ["scripts/build-api.mjs"], ["--import", "tsx", "scripts/build-db-template.ts"]]) {
  const res = spawnSync(process.execPath, args, { stdio: "inherit", env });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
writeBuildStamp(sourcesAt);
