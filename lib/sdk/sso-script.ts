// The sign-in button's browser script ({BASE_URL}/sdk/v1/service-sso.js), bundled from packages/browser.
// `npm run build` writes it once (scripts/build-sso-script.ts); a production server reads that file, and
// where no build ran (tests) it is bundled on first use and kept. `next dev` bundles it on every request.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { env } from "../env";
import { logger } from "../log";
import { processWideSlot } from "../process-wide";

export const SSO_SCRIPT_PATH = "/sdk/v1/service-sso.js";
/** Where `npm run build` leaves the bundle, from the project root. */
export const SSO_SCRIPT_BUILD_FILE = ".next/service-sdk/service-sso.js";
const ENTRY = "packages/browser/src/index.ts";
/** The gzipped size the script must stay within. */
export const SSO_SCRIPT_GZIP_BUDGET = 8192;

/** With ?v= naming the current content the file is cached for a year; the bare address for five minutes. */
export const SSO_SCRIPT_CACHE = {
  versioned: "public, max-age=31536000, immutable",
  unversioned: "public, max-age=300, stale-while-revalidate=3600",
} as const;

export interface SsoScript {
  code: string;
  /** The first 16 characters of the bundle's SHA-256 (base64url): the ?v= of the versioned address. */
  version: string;
  /** The Subresource Integrity value: sha384-… */
  integrity: string;
}

/** Bundles the script for browsers (esbuild, one minified IIFE). */
export async function buildSsoScript(root: string = process.cwd()): Promise<string> {
  const { build } = await import("esbuild");
  const out = await build({
    entryPoints: [path.join(root, ENTRY)],
    tsconfig: path.join(root, "tsconfig.json"),
    bundle: true,
    minify: true,
    format: "iife",
    platform: "browser",
    target: "es2020",
    charset: "utf8",
    legalComments: "none",
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

export function describeSsoScript(code: string): SsoScript {
  return {
    code,
    version: createHash("sha256").update(code).digest("base64url").slice(0, 16),
    integrity: `sha384-${createHash("sha384").update(code).digest("base64")}`,
  };
}

async function load(): Promise<SsoScript> {
  if (env().NODE_ENV === "production") {
    const built = await readFile(path.resolve(SSO_SCRIPT_BUILD_FILE), "utf8").catch(() => null);
    if (built) return describeSsoScript(built);
    logger().warn({ file: SSO_SCRIPT_BUILD_FILE }, "The sign-in button script was not built by npm run build: bundling it now");
  }
  return describeSsoScript(await buildSsoScript());
}

const cached = processWideSlot<Promise<SsoScript>>("sdk.sso-script");

/** The bundle, its version and integrity: one per process (a failed bundling is tried again on the next call). */
export function ssoScript(): Promise<SsoScript> {
  if (env().NODE_ENV === "development") return load();
  if (!cached.current) {
    const loading = load();
    cached.current = loading;
    loading.catch(() => {
      if (cached.current === loading) cached.current = undefined;
    });
  }
  return cached.current;
}

/** GET and HEAD /sdk/v1/service-sso.js: public, readable from any origin, revalidated by ETag. */
export async function ssoScriptResponse(req: Request): Promise<Response> {
  let script: SsoScript;
  try {
    script = await ssoScript();
  } catch (err) {
    logger().error({ err }, "The sign-in button script could not be bundled");
    return new Response("// The script is unavailable; try again shortly.\n", {
      status: 503,
      headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "30" },
    });
  }
  const etag = `"${script.version}"`;
  const headers = new Headers({
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": new URL(req.url).searchParams.get("v") === script.version ? SSO_SCRIPT_CACHE.versioned : SSO_SCRIPT_CACHE.unversioned,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    "Access-Control-Allow-Origin": "*",
    "Cross-Origin-Resource-Policy": "cross-origin",
  });
  const match = req.headers.get("if-none-match");
  if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) return new Response(null, { status: 304, headers });
  return new Response(req.method === "HEAD" ? null : script.code, { status: 200, headers });
}
