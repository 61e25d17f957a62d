// POST /v1/tools/service_email_search — search every connected mailbox, Gmail and Outlook (the same contract as the MCP tool; served where Outlook is enabled).
import { connectorRoute } from "@/lib/connectors/tools/rest";

export const POST = connectorRoute("service_email_search");
