// POST /v1/tools/service_email_send — send an e-mail from the person's mailbox (the same contract as the MCP tool).
import { connectorRoute } from "@/lib/connectors/tools/rest";

export const POST = connectorRoute("service_email_send");
