// npm run build: bundles the cards' host script once (lib/mcp/cards/host-script.ts), so a started
// server serves a file rather than bundling on its first request.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildHostScript, HOST_SCRIPT_BUILD_FILE } from "../lib/mcp/cards/host-script";

const code = await buildHostScript();
mkdirSync(path.dirname(HOST_SCRIPT_BUILD_FILE), { recursive: true });
writeFileSync(HOST_SCRIPT_BUILD_FILE, code);
console.log(`Card host script: ${Math.round(code.length / 1024)} KB → ${HOST_SCRIPT_BUILD_FILE}`);
