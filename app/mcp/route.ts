// {BASE_URL}/mcp — the developer MCP server: stateless Streamable HTTP, POST only.
import { mcpMethodNotAllowed, serveDeveloperMcp } from "@/lib/mcp/server";

export const POST = (req: Request) => serveDeveloperMcp(req);
export const GET = async () => mcpMethodNotAllowed();
export const DELETE = async () => mcpMethodNotAllowed();
