// The host script every card loads ({BASE_URL}/mcp-apps/service-mcp-host.js): the MCP Apps App client
// and the cards' behaviour, bundled for browsers and served as lib/http/browser-script.ts serves its
// scripts (written once by `npm run build`, scripts/build-card-host.ts).
import { env } from "../../env";
import { BROWSER_SCRIPT_CACHE, browserScript, type BuiltScript } from "../../http/browser-script";
import { processWideSlot } from "../../process-wide";

export const HOST_SCRIPT_PATH = "/mcp-apps/service-mcp-host.js";
/** Where `npm run build` leaves the bundle, from the project root. */
export const HOST_SCRIPT_BUILD_FILE = ".next/service-mcp-apps/service-mcp-host.js";
export const HOST_SCRIPT_CACHE = BROWSER_SCRIPT_CACHE;
export type HostScript = BuiltScript;

const script = browserScript({
  label: "card host script",
  entry: "lib/mcp/cards/host/main.ts",
  buildFile: HOST_SCRIPT_BUILD_FILE,
  slot: processWideSlot<Promise<BuiltScript>>("mcp.cards.host-script"),
});

/** Bundles the host script for browsers (esbuild, from the project's sources). */
export const buildHostScript = script.bundle;
/** The bundle and its version: one per process. */
export const hostScript = script.current;
/** GET and HEAD /mcp-apps/service-mcp-host.js. */
export const hostScriptResponse = script.response;

/** The script's address as cards name it: versioned, so hosts may keep it for good. */
export async function hostScriptUrl(): Promise<string> {
  return `${env().BASE_URL}${HOST_SCRIPT_PATH}?v=${(await hostScript()).version}`;
}
