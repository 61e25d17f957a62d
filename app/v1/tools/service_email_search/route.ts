// POST /v1/tools/service_email_search — search every connected mailbox, Gmail and Outlook (the same contract as the MCP tool; served where Outlook is enabled).
import { defineRoute } from "@/lib/api-edge/define-route";
import { connectorContract } from "@/lib/connectors/tools/rest";

export const POST = defineRoute(connectorContract("service_email_search"));
