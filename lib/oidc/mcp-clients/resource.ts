// The one resource (RFC 8707) an MCP client's tokens are for: the personal MCP endpoint at {MCP_URL}.
// The authorize and token endpoints hold a `resource` parameter to it; the endpoint's own metadata
// (lib/personal-mcp/metadata.ts) names it.
import { env } from "../../env";

/** {MCP_URL} without a trailing slash: the resource its tokens are for. */
export function personalMcpResource(): string {
  return env().MCP_URL.replace(/\/+$/, "");
}

/** Whether a resource parameter names the personal endpoint (a trailing slash aside). */
export function isPersonalMcpResource(value: string): boolean {
  return value.replace(/\/+$/, "") === personalMcpResource();
}

export const personalResourceOnly = () => `resource must be the personal MCP endpoint, ${personalMcpResource()}.`;
