// {BASE_URL}/mcp — the developer MCP server: stateless Streamable HTTP, POST only.
import { plainRoute } from "@/lib/http/plain-route";
import { mcpMethodNotAllowed, serveDeveloperMcp } from "@/lib/mcp/server";

export const POST = plainRoute(serveDeveloperMcp);
export const GET = plainRoute(async () => mcpMethodNotAllowed());
export const DELETE = plainRoute(async () => mcpMethodNotAllowed());
