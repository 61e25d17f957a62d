// POST /v1/tools/service_email_send — send an e-mail from the person's mailbox (the same contract as the MCP tool).
import { defineRoute } from "@/lib/api-edge/define-route";
import { connectorContract } from "@/lib/connectors/tools/rest";

export const POST = defineRoute(connectorContract("service_email_send"));
