// POST /v1/tools/service_gmail_search — search the person's Gmail (the same contract as the MCP tool).
import { connectorRoute } from "@/lib/connectors/tools/rest";

export const POST = connectorRoute("service_gmail_search");
