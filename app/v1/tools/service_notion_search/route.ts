// POST /v1/tools/service_notion_search — search the person's Notion pages and databases by title (the same contract as the MCP tool).
import { defineRoute } from "@/lib/api-edge/define-route";
import { connectorContract } from "@/lib/connectors/tools/rest";

export const POST = defineRoute(connectorContract("service_notion_search"));
