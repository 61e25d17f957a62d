// Every /v1 route handler in app/, found from the file tree, with its contract.
import type { RouteHandler } from "@/lib/http/define-route";

const modules = import.meta.glob<Record<string, unknown>>("../../app/v1/**/route.ts", { eager: true });
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export interface RegisteredRoute {
  file: string;
  /** The URL path the file serves, from its folder (dynamic segments kept as [name]). */
  filePath: string;
  exportName: string;
  handler: RouteHandler | ((...args: unknown[]) => unknown);
}

export function v1Routes(): RegisteredRoute[] {
  // app/v1/[...path] is the fallback for paths no route owns (JSON 404), not a route of the API.
  return Object.entries(modules).filter(([file]) => !file.includes("[...")).flatMap(([file, mod]) => {
    const filePath = file.replace(/^.*\/app/, "").replace(/\/route\.ts$/, "");
    return METHODS.filter((m) => m in mod).map((m) => ({
      file,
      filePath,
      exportName: m,
      handler: mod[m] as RegisteredRoute["handler"],
    }));
  });
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
