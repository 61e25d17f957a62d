// No two units of lib/ import each other: a folder (lib/oidc/) or a top-level file (lib/catalogue.ts)
// that imports another never is imported back by it, type-only and dynamic imports included. Such a
// pair is one module in two places; what both need belongs to the lower one, or to a third both import.
// The import graph is the one `npm run lint` checks (.dependency-cruiser.mjs: its resolution and tsconfig).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { cruise, type IConfiguration, type ICruiseResult } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The unit of lib/ a module belongs to ("oidc", "catalogue.ts"), or null outside lib/. */
function unitOf(module: string): string | null {
  return /^lib\/([^/]+)/.exec(module)?.[1] ?? null;
}

let graph: ICruiseResult;

beforeAll(async () => {
  // Loaded by its address: the configuration is plain JavaScript, which the type check does not read.
  const config = ((await import(pathToFileURL(path.join(ROOT, ".dependency-cruiser.mjs")).href)) as { default: IConfiguration }).default;
  const { exclude, doNotFollow, tsPreCompilationDeps, enhancedResolveOptions } = config.options!;
  const tsConfig = path.join(ROOT, config.options!.tsConfig!.fileName!);
  const res = await cruise(
    ["lib"],
    { baseDir: ROOT, exclude, doNotFollow, tsPreCompilationDeps, tsConfig: { fileName: tsConfig }, enhancedResolveOptions, outputType: "json" },
    {},
    { tsConfig: extractTSConfig(tsConfig) },
  );
  graph = typeof res.output === "string" ? (JSON.parse(res.output) as ICruiseResult) : res.output;
});

/** Per ordered pair of units, the imports that cross from the first to the second. */
function crossings(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const m of graph.modules) {
    const from = unitOf(m.source);
    for (const d of m.dependencies) {
      const to = unitOf(d.resolved);
      if (!from || !to || from === to) continue;
      const key = `${from} → ${to}`;
      found.set(key, [...(found.get(key) ?? []), `${m.source} → ${d.resolved} (${d.dependencyTypes.join(", ")})`]);
    }
  }
  return found;
}

describe("lib/'s folders", () => {
  it("reads the whole of lib/, every import of the service's own resolved (no pair hides behind an unresolved path)", () => {
    expect(graph.modules.filter((m) => m.source.startsWith("lib/")).length).toBeGreaterThan(100);
    const unresolved = graph.modules.flatMap((m) => m.dependencies.filter((d) => d.couldNotResolve && /^[.@]/.test(d.module)).map((d) => `${m.source} → ${d.module}`));
    expect(unresolved).toEqual([]);
  });

  it("form no two-way pair: no unit imports a unit that imports it", () => {
    const found = crossings();
    const pairs = [...found.keys()]
      .map((key) => key.split(" → ") as [string, string])
      .filter(([a, b]) => a < b && found.has(`${b} → ${a}`))
      .map(([a, b]) => [`${a} ↔ ${b}`, ...found.get(`${a} → ${b}`)!, ...found.get(`${b} → ${a}`)!].join("\n  "));
    expect(pairs).toEqual([]);
  });
});
