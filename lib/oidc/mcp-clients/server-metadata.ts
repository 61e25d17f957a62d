// GET /.well-known/oauth-authorization-server: how an MCP client finds out how to sign a person in
// (the MCP authorization spec). The personal endpoint's protected-resource metadata (RFC 9728) points
// here, at the service's own OpenID Connect provider, whose authorization-server metadata (RFC 8414)
// lists the registration endpoint (RFC 7591) and support for Client ID Metadata Documents.
import { PROFILE_TOOL_SCOPES } from "../../profile/scopes";
import { discoveryDocument, OIDC_SCOPES } from "../discovery";
import { registrationEndpoint } from "./registration";

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
