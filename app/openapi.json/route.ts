// GET /openapi.json — the OpenAPI 3.1 document of the API, built from the route contracts (every
// defineRoute handler, listed in ./routes.generated.ts by scripts/api-routes.mjs). Open to any origin.
import { env } from "@/lib/env";
import { contractsOf, openApiDocument } from "@/lib/http/openapi";
import { processWide } from "@/lib/process-wide";
import { version } from "@/package.json";
import { ROUTE_MODULES } from "./routes.generated";

export const dynamic = "force-dynamic";

export function GET(): Response {
  const document = processWide("openapi.document", () => JSON.stringify(openApiDocument(contractsOf(ROUTE_MODULES), { baseUrl: env().BASE_URL, version })));
  return new Response(document, {
    headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
}
