// The host script every card loads ({BASE_URL}/mcp-apps/service-mcp-host.js): the MCP Apps App client
// and the cards' behaviour, bundled for browsers. `npm run build` writes it once
// (scripts/build-card-host.ts); a production server reads that file, and where no build ran (tests) it
// is bundled on first use and kept. `next dev` bundles it on every request, so edits show at once.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { env } from "../../env";
import { logger } from "../../log";
import { processWideSlot } from "../../process-wide";

export const HOST_SCRIPT_PATH = "/mcp-apps/service-mcp-host.js";
/** Where `npm run build` leaves the bundle, from the project root. */
export const HOST_SCRIPT_BUILD_FILE = ".next/service-mcp-apps/service-mcp-host.js";
const ENTRY = "lib/mcp/cards/host/main.ts";

/** A versioned URL is cached for a year (its content never changes); the bare URL for five minutes. */
export const HOST_SCRIPT_CACHE = {
  versioned: "public, max-age=31536000, immutable",
  unversioned: "public, max-age=300, stale-while-revalidate=3600",
} as const;

export interface HostScript {
  code: string;
  /** The first 16 characters of the bundle's SHA-256 (base64url): the ?v= of the URL cards name. */
  version: string;
}

/** Bundles the host script for browsers (esbuild, from the project's sources). */
export async function buildHostScript(root: string = process.cwd()): Promise<string> {
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
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

function versioned(code: string): HostScript {
  return { code, version: createHash("sha256").update(code).digest("base64url").slice(0, 16) };
}

async function load(): Promise<HostScript> {
  if (env().NODE_ENV === "production") {
    const built = await readFile(path.resolve(HOST_SCRIPT_BUILD_FILE), "utf8").catch(() => null);
    if (built) return versioned(built);
    logger().warn({ file: HOST_SCRIPT_BUILD_FILE }, "The card host script was not built by npm run build: bundling it now");
  }
  return versioned(await buildHostScript());
}

const cached = processWideSlot<Promise<HostScript>>("mcp.cards.host-script");

/** The bundle and its version: one per process (a failed bundling is tried again on the next call). */
export function hostScript(): Promise<HostScript> {
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

/** The script's address as cards name it: versioned, so hosts may keep it for good. */
export async function hostScriptUrl(): Promise<string> {
  return `${env().BASE_URL}${HOST_SCRIPT_PATH}?v=${(await hostScript()).version}`;
}

/** GET and HEAD /mcp-apps/service-mcp-host.js: public, readable from any origin, revalidated by ETag. */
export async function hostScriptResponse(req: Request): Promise<Response> {
  let script: HostScript;
  try {
    script = await hostScript();
  } catch (err) {
    logger().error({ err }, "The card host script could not be bundled");
    return new Response("// The script is unavailable; try again shortly.\n", {
      status: 503,
      headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "30" },
    });
  }
  const etag = `"${script.version}"`;
  const headers = new Headers({
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": new URL(req.url).searchParams.get("v") === script.version ? HOST_SCRIPT_CACHE.versioned : HOST_SCRIPT_CACHE.unversioned,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    "Access-Control-Allow-Origin": "*",
    "Cross-Origin-Resource-Policy": "cross-origin",
  });
  const match = req.headers.get("if-none-match");
  if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) return new Response(null, { status: 304, headers });
  return new Response(req.method === "HEAD" ? null : script.code, { status: 200, headers });
}
