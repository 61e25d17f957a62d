// The route manifest (./route-manifest.json, written by scripts/route-manifest.mjs from app/**/route.ts):
// every method of every route file, with its path, whether it is a contract (defineRoute) and whether
// the API fast path serves it. The fast path's router, the /v1 404/405 answers and the tests read the
// routes from here, and nowhere else.
import manifest from "./route-manifest.json";
import type { HttpMethod } from "./define-route";

export interface ManifestRoute {
  method: HttpMethod;
  /** As the folders name it: "/v1/import/jobs/[jobId]", "/api/auth/[...nextauth]". */
  path: string;
  /** "app/v1/import/jobs/[jobId]/route.ts". */
  file: string;
  /** A defineRoute contract: in the OpenAPI document, the auth suite and the fuzz suite. */
  contract: boolean;
  /** Served by the API fast path (a contract, or a plainRoute handler); otherwise by Next.js alone. */
  fastPath: boolean;
}

export const ROUTES: readonly ManifestRoute[] = manifest.routes as ManifestRoute[];

/** A path with a catch-all segment ([...path], [[...path]]): the app router's to match, by its precedence rules. */
export function isCatchAll(path: string): boolean {
  return path.includes("[...") || path.includes("[[...");
}

/** A path's segments: "/v1/jobs/[jobId]" → ["v1", "jobs", "[jobId]"]. */
export function segmentsOf(path: string): string[] {
  return path.split("/").slice(1);
}

/** The parameter a segment names ("[jobId]" → "jobId"), or null for a literal segment. */
export function paramOf(segment: string): string | null {
  return segment.startsWith("[") && segment.endsWith("]") ? segment.slice(1, -1) : null;
}

/** The path of a route file, as the manifest has it; undefined for a file it does not list. */
export function pathOfFile(file: string): string | undefined {
  return ROUTES.find((r) => r.file === file)?.path;
}
