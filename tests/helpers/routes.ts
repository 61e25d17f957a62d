// The route handlers in app/, as the route manifest lists them (lib/http/route-manifest.json;
// tests/http/route-manifest.unit.test.ts holds it to the files): a route joins the suites that run over these by
// existing.
import type { RouteHandler } from "@/lib/http/define-route";
import { isCatchAll, ROUTES, type ManifestRoute } from "@/lib/http/route-manifest";

const v1Modules = import.meta.glob<Record<string, unknown>>("../../app/v1/**/route.ts", { eager: true });
// Loaded when asked for: the rest of app/ (the glob passes over dot-folders: /.well-known is named on its own).
const otherModules = {
  ...import.meta.glob<Record<string, unknown>>(["../../app/**/route.ts", "!../../app/v1/**"]),
  ...import.meta.glob<Record<string, unknown>>("../../app/.well-known/**/route.ts"),
};

export interface RegisteredRoute {
  /** "app/v1/profile/route.ts". */
  file: string;
  /** The URL path the file serves, from its folder (dynamic segments kept as [name]). */
  filePath: string;
  exportName: ManifestRoute["method"];
  handler: RouteHandler | ((...args: unknown[]) => unknown);
}

function registered(row: ManifestRoute, mod: Record<string, unknown>): RegisteredRoute {
  return { file: row.file, filePath: row.path, exportName: row.method, handler: mod[row.method] as RegisteredRoute["handler"] };
}

/** Every /v1 route (app/v1/[...path], the fallback for paths no route owns, is not one). */
export function v1Routes(): RegisteredRoute[] {
  return ROUTES.filter((r) => r.path.startsWith("/v1/") && !isCatchAll(r.path)).map((r) => registered(r, v1Modules[`../../${r.file}`]!));
}

/** The routes outside /v1 the filter admits, their modules loaded. */
export async function otherRoutes(admit: (route: ManifestRoute) => boolean): Promise<RegisteredRoute[]> {
  const rows = ROUTES.filter((r) => !r.path.startsWith("/v1/") && admit(r));
  return Promise.all(rows.map(async (r) => registered(r, await otherModules[`../../${r.file}`]!())));
}

/** A concrete path for a route's pattern: each [param] becomes a plausible placeholder. */
export function samplePath(pattern: string): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const path = pattern.replace(/\[([^\]]+)\]/g, (_, name: string) => {
    params[name] = `sample-${name}`;
    return params[name];
  });
  return { path, params };
}
