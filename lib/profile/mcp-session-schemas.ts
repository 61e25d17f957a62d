// The wire schemas of POST /v1/profile/mcp-session, shared by the route file and the API reference.
import { z } from "zod";

/** The longest previous_token read: longer is no MCP session token of the service's. */
const PREVIOUS_TOKEN_MAX_CHARS = 4_096;

export const mcpSessionBody = z.object({
  previous_token: z.string().max(PREVIOUS_TOKEN_MAX_CHARS).optional(),
});

export const mcpSessionResponse = z.strictObject({
  ok: z.literal(true),
  linked: z.boolean(),
  continued: z.boolean(),
  session: z.strictObject({ token: z.string(), expires_at: z.iso.datetime() }),
  mcp_url: z.url(),
  mcp_servers: z.array(z.strictObject({ type: z.literal("url"), url: z.url(), name: z.string(), authorization_token: z.string() })).length(1),
  livemode: z.boolean(),
});
