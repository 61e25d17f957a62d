// The route manifest (lib/http/route-manifest.json, written by scripts/route-manifest.mjs) is current,
// and true: every row says of its file what the file's module really exports (a defineRoute contract at
// the row's path, a plainRoute handler, or a handler only Next.js serves), and every route file is in it.
// What reads the manifest (the fast path's bundle and router, the /v1 404/405 answers, the OpenAPI
// document, the test suites) therefore sees every route.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RouteHandler } from "@/lib/http/define-route";
import { isPlainRoute } from "@/lib/http/plain-route";
import { ROUTES } from "@/lib/http/route-manifest";
// @ts-expect-error: a build script, plain JavaScript
import { CONTRACT_MODULES_FILE, contractModulesSource, MANIFEST_FILE, manifestSource, servedMethods } from "../../scripts/route-manifest.mjs";

// The glob passes over dot-folders: /.well-known is named on its own.
const modules = {
  ...import.meta.glob<Record<string, unknown>>("../../app/**/route.ts", { eager: true }),
  ...import.meta.glob<Record<string, unknown>>("../../app/.well-known/**/route.ts", { eager: true }),
};
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** What a module's export of a method is, read from the module itself. */
function kindOf(handler: unknown): "contract" | "plain" | "next" | undefined {
  if (typeof handler !== "function") return undefined;
  if ("meta" in handler) return "contract";
  return isPlainRoute(handler) ? "plain" : "next";
}

describe("the route manifest", () => {
  it("is current (run `node scripts/route-manifest.mjs`)", () => {
    expect(manifestSource(), "run `node scripts/route-manifest.mjs`").toBe(readFileSync(MANIFEST_FILE, "utf8"));
    expect(contractModulesSource(), "run `node scripts/route-manifest.mjs`").toBe(readFileSync(CONTRACT_MODULES_FILE, "utf8"));
  });

  it("lists every route file, and only route files", () => {
    const files = Object.keys(modules).map((f) => f.replace(/^(\.\.\/)+/, ""));
    expect(files.length).toBeGreaterThanOrEqual(60);
    expect([...new Set(ROUTES.map((r) => r.file))].sort()).toEqual(files.sort());
  });

  it("says of every method what the module exports: a contract at its path, a plainRoute handler, or Next.js's alone", () => {
    const rows = new Map(ROUTES.map((r) => [`${r.method} ${r.file}`, r]));
    for (const [key, mod] of Object.entries(modules)) {
      const file = key.replace(/^(\.\.\/)+/, "");
      for (const method of METHODS) {
        const kind = kindOf(mod[method]);
        const row = rows.get(`${method} ${file}`);
        expect(row ? (row.contract ? "contract" : row.fastPath ? "plain" : "next") : undefined, `${method} ${file}`).toBe(kind);
        if (kind === "contract") {
          const { meta } = mod[method] as RouteHandler;
          expect(`${meta.method} ${meta.path}`, file).toBe(`${method} ${row!.path}`);
        }
      }
    }
  });

  it("reads each way a route file exports its handlers", () => {
    const source = [
      "export const GET = defineRoute({",
      "export const POST = plainRoute(serve);",
      "export const { PUT, PATCH } = handlers;",
      "export async function DELETE(req: Request) {",
      "export const OPTIONS = () => preflight();",
      "export const dynamic = 'force-dynamic';",
    ].join("\n");
    expect(servedMethods(source)).toEqual([
      ["GET", "contract"],
      ["POST", "plain"],
      ["PUT", "next"],
      ["PATCH", "next"],
      ["DELETE", "next"],
    ]);
  });
});
