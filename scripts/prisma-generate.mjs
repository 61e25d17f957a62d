// Generates the Prisma client. The CLI wants a native schema engine it cannot download here and
// does not use for `generate`, so any existing file stands in for it (see docs/database.md).
import { spawnSync } from "node:child_process";

const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1" };
const res = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], { stdio: "inherit", env });
process.exit(res.status ?? 1);
