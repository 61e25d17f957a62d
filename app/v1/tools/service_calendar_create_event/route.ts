// POST /v1/tools/service_calendar_create_event — add an event to the person's Google Calendar (the same contract as the MCP tool).
import { connectorRoute } from "@/lib/connectors/tools/rest";

export const POST = connectorRoute("service_calendar_create_event");
