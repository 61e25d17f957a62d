// The sign-in button's browser script ({BASE_URL}/sdk/v1/service-sso.js), bundled from packages/browser
// and served as lib/http/browser-script.ts serves its scripts (written once by `npm run build`,
// scripts/build-sso-script.ts).
import { BROWSER_SCRIPT_CACHE, browserScript, describeScript, type BuiltScript } from "../http/browser-script";
import { processWideSlot } from "../process-wide";

export const SSO_SCRIPT_PATH = "/sdk/v1/service-sso.js";
/** Where `npm run build` leaves the bundle, from the project root. */
export const SSO_SCRIPT_BUILD_FILE = ".next/service-sdk/service-sso.js";
/** The gzipped size the script must stay within. */
export const SSO_SCRIPT_GZIP_BUDGET = 8192;
export const SSO_SCRIPT_CACHE = BROWSER_SCRIPT_CACHE;
export type SsoScript = BuiltScript;

const script = browserScript({
  label: "sign-in button script",
  entry: "packages/browser/src/script.ts",
  buildFile: SSO_SCRIPT_BUILD_FILE,
  slot: processWideSlot<Promise<BuiltScript>>("sdk.sso-script"),
  dropLegalComments: true,
});

/** Bundles the script for browsers (esbuild, one minified IIFE). */
export const buildSsoScript = script.bundle;
export const describeSsoScript = describeScript;
/** The bundle, its version and integrity: one per process. */
export const ssoScript = script.current;
/** GET and HEAD /sdk/v1/service-sso.js. */
export const ssoScriptResponse = script.response;
