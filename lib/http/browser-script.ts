// A browser script the service serves from its own sources (the cards' host script, the sign-in
// button's script): bundled by esbuild, written once by `npm run build`; a production server reads that
// file, and where no build ran (tests) it is bundled on first use and kept. `next dev` bundles it on
// every request, so edits show at once. Served public, from any origin, versioned by content.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { env } from "../env";
import { logger } from "../platform/log";
import type { Slot } from "../process-wide";

/** With ?v= naming the current content the file is cached for a year; the bare address for five minutes. */
export const BROWSER_SCRIPT_CACHE = {
  versioned: "public, max-age=31536000, immutable",
  unversioned: "public, max-age=300, stale-while-revalidate=3600",
} as const;

export interface BuiltScript {
  code: string;
  /** The first 16 characters of the bundle's SHA-256 (base64url): the ?v= of the versioned address. */
  version: string;
  /** The Subresource Integrity value: sha384-… */
  integrity: string;
}

export interface BrowserScriptSpec {
  /** What the logs call it. */
  label: string;
  /** The entry file, from the project root. */
  entry: string;
  /** Where `npm run build` leaves the bundle, from the project root. */
  buildFile: string;
  /** The process-wide slot that keeps the bundle (processWideSlot, named by the script's owner). */
  slot: Slot<Promise<BuiltScript>>;
  /** Drop license comments from the bundle. */
  dropLegalComments?: boolean;
}

export function describeScript(code: string): BuiltScript {
  return {
    code,
    version: createHash("sha256").update(code).digest("base64url").slice(0, 16),
    integrity: `sha384-${createHash("sha384").update(code).digest("base64")}`,
  };
}

/** One served script: its bundling, the bundle kept per process, and its HTTP answer. */
export function browserScript(spec: BrowserScriptSpec) {
  /** Bundles the script for browsers (esbuild, one minified IIFE). */
  async function bundle(root: string = process.cwd()): Promise<string> {
    const { build } = await import("esbuild");
    // Sources read at run time, where no build ran: not files for the production build to trace.
    const out = await build({
      entryPoints: [path.join(/*turbopackIgnore: true*/ root, spec.entry)],
      tsconfig: path.join(/*turbopackIgnore: true*/ root, "tsconfig.json"),
      bundle: true,
      minify: true,
      format: "iife",
      platform: "browser",
      target: "es2020",
      charset: "utf8",
      ...(spec.dropLegalComments ? { legalComments: "none" as const } : {}),
      write: false,
      logLevel: "silent",
    });
    return out.outputFiles[0]!.text;
  }

  async function load(): Promise<BuiltScript> {
    if (env().NODE_ENV === "production") {
      const built = await readFile(path.resolve(spec.buildFile), "utf8").catch(() => null);
      if (built) return describeScript(built);
      logger().warn({ file: spec.buildFile }, `The ${spec.label} was not built by npm run build: bundling it now`);
    }
    return describeScript(await bundle());
  }

  const cached = spec.slot;

  /** The bundle, its version and integrity: one per process (a failed bundling is tried again on the next call). */
  function current(): Promise<BuiltScript> {
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

  /** GET and HEAD: public, readable from any origin, revalidated by ETag. */
  async function response(req: Request): Promise<Response> {
    let script: BuiltScript;
    try {
      script = await current();
    } catch (err) {
      logger().error({ err }, `The ${spec.label} could not be bundled`);
      return new Response("// The script is unavailable; try again shortly.\n", {
        status: 503,
        headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "30" },
      });
    }
    const etag = `"${script.version}"`;
    const headers = new Headers({
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": new URL(req.url).searchParams.get("v") === script.version ? BROWSER_SCRIPT_CACHE.versioned : BROWSER_SCRIPT_CACHE.unversioned,
      ETag: etag,
      "X-Content-Type-Options": "nosniff",
      "Access-Control-Allow-Origin": "*",
      "Cross-Origin-Resource-Policy": "cross-origin",
    });
    const match = req.headers.get("if-none-match");
    if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) return new Response(null, { status: 304, headers });
    return new Response(req.method === "HEAD" ? null : script.code, { status: 200, headers });
  }

  return { bundle, current, response };
}
