// The personal MCP endpoint's account: MCP clients people install themselves (an assistant's desktop
// app, an IDE) are OAuth clients of one account of the service's own, made by the migration that
// added them. It holds no API keys, so nothing reaches the API or the developer MCP server as it; each
// client acts as its own agent, which the person approves by signing in.
import type { Plane } from "../platform/db/generated/enums";

export const PERSONAL_MCP_DEVELOPER_ID = "6d637000-0000-4000-8000-000000000001";
/** People's own profiles: personal MCP clients work on the live plane only. */
export const PERSONAL_MCP_PLANE: Plane = "live";

/** Whether a developer id is the personal MCP account (never listed, never given keys). */
export function isPersonalMcpAccount(developerId: string): boolean {
  return developerId === PERSONAL_MCP_DEVELOPER_ID;
}
