// POST /v1/tools/service_drive_search — search the person's Google Drive (the same contract as the MCP tool).
import { connectorRoute } from "@/lib/connectors/tools/rest";

export const POST = connectorRoute("service_drive_search");
