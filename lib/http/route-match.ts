// Matching a request path against route paths ("/v1/jobs/[jobId]"), as the app router does: a path
// without parameters wins over one with them; parameters are one non-empty segment, percent-decoded.
import { paramOf, segmentsOf } from "./route-manifest";

/** One entry of a table of routes by path. */
interface Entry<T> {
  segments: string[];
  value: T;
}

export class PathTable<T> {
  private readonly exact = new Map<string, T>();
  private readonly dynamic: Entry<T>[] = [];

  /** Adds a path (no catch-all segments) with its value. */
  add(path: string, value: T): void {
    const segments = segmentsOf(path);
    if (segments.some((s) => paramOf(s) !== null)) this.dynamic.push({ segments, value });
    else this.exact.set(path, value);
  }

  get size(): number {
    return this.exact.size + this.dynamic.length;
  }

  /** The value for a request path (a trailing slash ignored), with its path parameters; null when no path matches. */
  match(pathname: string): { value: T; params: Record<string, string> } | null {
    const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
    const exact = this.exact.get(path);
    if (exact !== undefined) return { value: exact, params: {} };
    const parts = segmentsOf(path);
    for (const entry of this.dynamic) {
      if (entry.segments.length !== parts.length) continue;
      const params = paramsOf(entry.segments, parts);
      if (params) return { value: entry.value, params };
    }
    return null;
  }
}

function paramsOf(segments: readonly string[], parts: readonly string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    const name = paramOf(seg);
    if (name === null) {
      if (seg !== part) return null;
      continue;
    }
    if (!part) return null;
    try {
      params[name] = decodeURIComponent(part);
    } catch {
      return null;
    }
  }
  return params;
}
