// POST /v1/tools/service_drive_search — search the person's Google Drive (the same contract as the MCP tool).
import { defineRoute } from "@/lib/api-edge/define-route";
import { connectorContract } from "@/lib/connectors/tools/rest";

export const POST = defineRoute(connectorContract("service_drive_search"));
