// GET /openapi.json — the OpenAPI 3.1 document of the API, built from the route contracts (every
// defineRoute handler, listed in ./routes.generated.ts by scripts/route-manifest.mjs). Open to any origin.
import { serviceOpenApi } from "./document";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return new Response(serviceOpenApi().json, {
    headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
}
