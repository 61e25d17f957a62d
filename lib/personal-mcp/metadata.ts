// How an MCP client finds out how to sign a person in at {MCP_URL} (the MCP authorization spec):
// the endpoint's protected-resource metadata (RFC 9728), named in the WWW-Authenticate header of a 401,
// points at the service's own OpenID Connect provider, whose authorization-server metadata
// (lib/oidc/mcp-clients/server-metadata.ts) says how to register and sign in.
import { env } from "../env";
import { INTERNAL_MOUNTS } from "../http/hosts";
import { personalMcpResource } from "../oidc/mcp-clients/resource";
import { PROFILE_TOOL_SCOPES } from "../profile/scopes";

/** The path of the protected-resource metadata inside the app (the route file's). */
export const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${INTERNAL_MOUNTS.mcp}`;

/**
 * Where the metadata is (RFC 9728 § 3.1): /.well-known/oauth-protected-resource inserted between the
 * endpoint's host and its path.
 */
export function resourceMetadataUrl(): string {
  const url = new URL(personalMcpResource());
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

/** The protected-resource metadata (RFC 9728 § 2). */
export function protectedResourceMetadata() {
  return {
    resource: personalMcpResource(),
    authorization_servers: [env().BASE_URL],
    scopes_supported: [...PROFILE_TOOL_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Personal profile (MCP)",
  };
}

/** A quoted-string value of an auth-param (RFC 9110 § 11.2): backslash and quote escaped. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * The WWW-Authenticate header of a 401 from the personal endpoint (RFC 6750 § 3, RFC 9728 § 5.1): where
 * the metadata is, the scopes to ask for, and, for a token that was sent, why it was refused.
 */
export function personalChallenge(error?: { code: "invalid_token"; description: string }): string {
  const params = [
    ...(error ? [`error=${quoted(error.code)}`, `error_description=${quoted(error.description)}`] : []),
    `resource_metadata=${quoted(resourceMetadataUrl())}`,
    `scope=${quoted(PROFILE_TOOL_SCOPES.join(" "))}`,
  ];
  return `Bearer ${params.join(", ")}`;
}
