// {BASE_URL}/mcp-apps/service-mcp-host.js — the script every MCP App card loads: public, any origin,
// cached for good under its ?v= version.
import { hostScriptResponse } from "@/lib/mcp/cards/host-script";

export const GET = (req: Request) => hostScriptResponse(req);
export const HEAD = (req: Request) => hostScriptResponse(req);
