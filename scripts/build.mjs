// npm run build: the Next.js production build, then the API fast path (scripts/build-api.mjs) and
// the embedded database template (scripts/build-db-template.ts).
import { spawnSync } from "node:child_process";

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
for (const args of [["node_modules/next/dist/bin/next", "build"], ["scripts/build-api.mjs"], ["--import", "tsx", "scripts/build-db-template.ts"]]) {
  const res = spawnSync(process.execPath, args, { stdio: "inherit", env });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
