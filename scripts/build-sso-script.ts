// npm run build: bundles the sign-in button's browser script once (lib/sdk/sso-script.ts), so a started
// server serves a file; prints its gzipped size (which must stay within 8 KB) and its integrity value.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { buildSsoScript, describeSsoScript, SSO_SCRIPT_BUILD_FILE, SSO_SCRIPT_GZIP_BUDGET } from "../lib/sdk/sso-script";

const code = await buildSsoScript();
const gzipped = gzipSync(code).length;
if (gzipped > SSO_SCRIPT_GZIP_BUDGET) {
  console.error(`Sign-in button script: ${gzipped} bytes gzipped, over the ${SSO_SCRIPT_GZIP_BUDGET}-byte budget`);
  process.exit(1);
}
mkdirSync(path.dirname(SSO_SCRIPT_BUILD_FILE), { recursive: true });
writeFileSync(SSO_SCRIPT_BUILD_FILE, code);
console.log(`Sign-in button script: ${code.length} bytes, ${gzipped} gzipped → ${SSO_SCRIPT_BUILD_FILE} (${describeSsoScript(code).integrity})`);
