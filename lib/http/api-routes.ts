// The /v1 API's answer for a path no route owns (404 not_found) and for a method a path does not take
// (405 method_not_allowed with Allow), decided from the route manifest (./route-manifest.ts). The fast
// path and proxy.ts both use it, so `npm run dev` and the production server answer alike.
import { ApiError, errorBody, MESSAGES } from "./errors";
import { newRequestId } from "./request";
import { isCatchAll, ROUTES } from "./route-manifest";
import { PathTable } from "./route-match";

/** The REST API's own paths: /v1 and everything under it. */
export function isApiPath(pathname: string): boolean {
  return pathname === "/v1" || pathname.startsWith("/v1/");
}

/** Every /v1 path with the methods it takes (the catch-all fallback left out). */
const apiRoutes = (() => {
  const methods = new Map<string, string[]>();
  for (const r of ROUTES) if (isApiPath(r.path) && !isCatchAll(r.path)) methods.set(r.path, [...(methods.get(r.path) ?? []), r.method]);
  const table = new PathTable<readonly string[]>();
  for (const [path, allowed] of methods) table.add(path, allowed);
  return table;
})();

/** The methods a /v1 path takes, or null when no route owns it (static segments win, as in the app router). */
export function apiMethodsFor(pathname: string): readonly string[] | null {
  return apiRoutes.match(pathname)?.value ?? null;
}

/** The /v1 answer for a path no route owns (allow = null), or a method the path does not take (405 with Allow). */
export function apiPathError(allow: readonly string[] | null): Response {
  const requestId = newRequestId();
  const err = allow ? new ApiError("method_not_allowed", MESSAGES.methodNotAllowed, {}, { Allow: allow.join(", ") }) : new ApiError("not_found", MESSAGES.notFound);
  return Response.json(errorBody(err, requestId), { status: err.status, headers: { "Cache-Control": "no-store", "X-Request-Id": requestId, ...err.headers } });
}

/**
 * The answer to a /v1 request no route takes, or null when a route does (or the request is not the
 * API's to refuse: another path, a CORS preflight, HEAD).
 */
export function apiPathAnswer(method: string, pathname: string): Response | null {
  if (!isApiPath(pathname) || method === "OPTIONS" || method === "HEAD") return null;
  const methods = apiMethodsFor(pathname);
  if (methods && methods.includes(method)) return null;
  return apiPathError(methods);
}
