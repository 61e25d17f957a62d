// CORS, decided in one place: open routes answer any origin; secret-key routes never grant one.
export type CorsPolicy = "open" | "closed";

const OPEN_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization",
  "Access-Control-Max-Age": "600",
};

/** Adds the policy's CORS headers to a response (closed adds none, so browsers cannot read it). */
export function applyCors(res: Response, policy: CorsPolicy): Response {
  if (policy === "open") for (const [k, v] of Object.entries(OPEN_HEADERS)) res.headers.set(k, v);
  return res;
}

/**
 * The answer to a preflight. Closed routes grant nothing: a browser cannot send X-API-Key to
 * them, which keeps secret keys out of front-end code.
 */
export function preflight(policy: CorsPolicy): Response {
  return applyCors(new Response(null, { status: 204, headers: { Vary: "Origin" } }), policy);
}
