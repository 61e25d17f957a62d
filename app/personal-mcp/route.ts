// {MCP_URL} — the personal MCP endpoint, for MCP clients people install themselves: stateless
// Streamable HTTP, POST only, signed in with OAuth (lib/personal-mcp). Readable from any origin: its
// credential is a bearer token, never a cookie.
import { plainRoute } from "@/lib/http/plain-route";
import { personalMcpMethodNotAllowed, personalMcpPreflight, servePersonalMcp } from "@/lib/personal-mcp/endpoint";

export const POST = plainRoute(servePersonalMcp);
export const GET = plainRoute(async () => personalMcpMethodNotAllowed());
export const DELETE = plainRoute(async () => personalMcpMethodNotAllowed());
export const OPTIONS = plainRoute(async () => personalMcpPreflight());
