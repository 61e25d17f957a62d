// The /v1 API's answer for a path no route owns (404 not_found) and for a method a path does not take
// (405 method_not_allowed with Allow), decided from one table of routes (api-routes.generated.ts,
// written from app/**/route.ts by scripts/api-routes.mjs). The fast path and proxy.ts both use it, so
// `npm run dev` and the production server answer alike.
import { API_ROUTES } from "./api-routes.generated";
import { ApiError, errorBody, MESSAGES } from "./errors";
import { newRequestId } from "./request";

/** The REST API's own paths: /v1 and everything under it. */
export function isApiPath(pathname: string): boolean {
  return pathname === "/v1" || pathname.startsWith("/v1/");
}

const patterns = Object.entries(API_ROUTES).map(([pattern, methods]) => ({ segments: pattern.split("/").slice(1), methods }));

/** The methods a /v1 path takes, or null when no route owns it (static segments win, as in the app router). */
export function apiMethodsFor(pathname: string): readonly string[] | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (Object.hasOwn(API_ROUTES, path)) return API_ROUTES[path]!;
  const parts = path.split("/").slice(1);
  const match = patterns.find((p) => p.segments.length === parts.length && p.segments.every((seg, i) => (seg.startsWith(":") ? parts[i] !== "" : seg === parts[i])));
  return match?.methods ?? null;
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
