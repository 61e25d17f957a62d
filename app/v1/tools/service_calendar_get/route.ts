// POST /v1/tools/service_calendar_get — read the person's Google Calendar (the same contract as the MCP tool).
import { connectorRoute } from "@/lib/connectors/tools/rest";

export const POST = connectorRoute("service_calendar_get");
