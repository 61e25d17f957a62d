// {BASE_URL}/mcp — the developer MCP server: stateless Streamable HTTP, POST only.
import { overApiRequest, plainRoute } from "@/lib/http/plain-route";
import { mcpMethodNotAllowed, serveDeveloperMcp } from "@/lib/mcp/server";

// Over an ApiRequest: the API fast path serves it without web Request and Response objects.
export const POST = plainRoute(overApiRequest(serveDeveloperMcp));
export const GET = plainRoute(async () => mcpMethodNotAllowed());
export const DELETE = plainRoute(async () => mcpMethodNotAllowed());
