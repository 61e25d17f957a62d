// The service's OpenAPI document, built once per process from the route contracts (./routes.generated.ts).
import { env } from "@/lib/env";
import { contractsOf, openApiDocument } from "@/lib/http/openapi";
import { processWide } from "@/lib/process-wide";
import { version } from "@/package.json";
import { ROUTE_MODULES } from "./routes.generated";

export function serviceOpenApi(): { json: string; document: ReturnType<typeof openApiDocument> } {
  return processWide("openapi.document", () => {
    const document = openApiDocument(contractsOf(ROUTE_MODULES), { baseUrl: env().BASE_URL, version });
    return { json: JSON.stringify(document), document };
  });
}
