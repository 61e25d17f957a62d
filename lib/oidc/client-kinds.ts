// The kinds of OAuth client (oauth_clients.kind): a developer's relying party, or an MCP client a
// person installs for the personal MCP endpoint — registered at POST /oauth/register, or known by its
// metadata document (lib/oidc/mcp-clients/). An MCP client's tokens are for {MCP_URL}, not the issuer.
export const CLIENT_KINDS = { oidc: "oidc", registered: "mcp_registered", document: "mcp_document" } as const;
export type ClientKind = (typeof CLIENT_KINDS)[keyof typeof CLIENT_KINDS];

export function isMcpClientKind(kind: string): boolean {
  return kind === CLIENT_KINDS.registered || kind === CLIENT_KINDS.document;
}
