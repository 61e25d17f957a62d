// POST /v1/tools/service_notion_search — search the person's Notion pages and databases by title (the same contract as the MCP tool).
import { connectorRoute } from "@/lib/connectors/tools/rest";

export const POST = connectorRoute("service_notion_search");
