// How an MCP client finds out how to sign a person in at {MCP_URL} (the MCP authorization spec):
// the endpoint's protected-resource metadata (RFC 9728), named in the WWW-Authenticate header of a 401,
// points at the service's own OpenID Connect provider, whose authorization-server metadata (RFC 8414)
// lists the registration endpoint (RFC 7591) and support for Client ID Metadata Documents.
import { env } from "../env";
import { INTERNAL_MOUNTS } from "../http/hosts";
import { discoveryDocument, OIDC_SCOPES } from "../oidc/discovery";
import { PROFILE_TOOL_SCOPES } from "../profile/scopes";
import { registrationEndpoint } from "./registration";

/** The path of the protected-resource metadata inside the app (the route file's). */
export const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${INTERNAL_MOUNTS.mcp}`;

/** {MCP_URL} without a trailing slash: the resource its tokens are for. */
export function personalMcpResource(): string {
  return env().MCP_URL.replace(/\/+$/, "");
}

/** Whether a resource parameter names the personal endpoint (a trailing slash aside). */
export function isPersonalMcpResource(value: string): boolean {
  return value.replace(/\/+$/, "") === personalMcpResource();
}

export const personalResourceOnly = () => `resource must be the personal MCP endpoint, ${personalMcpResource()}.`;

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

/**
 * The authorization-server metadata (RFC 8414): the OpenID Connect discovery document's endpoints and
 * methods, with the registration endpoint, metadata-document client ids, and the profile tool scopes.
 */
export function authorizationServerMetadata() {
  const oidc = discoveryDocument();
  return {
    ...oidc,
    registration_endpoint: registrationEndpoint(),
    scopes_supported: [...OIDC_SCOPES, ...PROFILE_TOOL_SCOPES],
    client_id_metadata_document_supported: true,
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
