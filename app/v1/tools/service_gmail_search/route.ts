// POST /v1/tools/service_gmail_search — search the person's Gmail (the same contract as the MCP tool).
import { defineRoute } from "@/lib/api-edge/define-route";
import { connectorContract } from "@/lib/connectors/tools/rest";

export const POST = defineRoute(connectorContract("service_gmail_search"));
