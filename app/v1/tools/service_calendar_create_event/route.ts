// POST /v1/tools/service_calendar_create_event — add an event to the person's Google Calendar (the same contract as the MCP tool).
import { defineRoute } from "@/lib/api-edge/define-route";
import { connectorContract } from "@/lib/connectors/tools/rest";

export const POST = defineRoute(connectorContract("service_calendar_create_event"));
