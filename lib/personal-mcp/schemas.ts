// The answers of the personal MCP endpoint's discovery and registration routes, for the reference and
// the tests that check every answer against its contract.
import { z } from "zod";
import { discoveryResponse } from "../oidc/schemas";
import { PROFILE_TOOL_SCOPES } from "../profile/scopes";
import { OIDC_SCOPES } from "../oidc/discovery";

/** GET /.well-known/oauth-protected-resource/personal-mcp (RFC 9728 § 2). */
export const protectedResourceResponse = z.strictObject({
  resource: z.url(),
  authorization_servers: z.array(z.url()).length(1),
  scopes_supported: z.array(z.enum(PROFILE_TOOL_SCOPES)),
  bearer_methods_supported: z.array(z.literal("header")),
  resource_name: z.string(),
});

/** GET /.well-known/oauth-authorization-server (RFC 8414 § 2). */
export const authorizationServerResponse = discoveryResponse.extend({
  registration_endpoint: z.url(),
  scopes_supported: z.array(z.enum([...OIDC_SCOPES, ...PROFILE_TOOL_SCOPES])),
  client_id_metadata_document_supported: z.literal(true),
});

/** The body of POST /oauth/register: RFC 7591 client metadata (validated by lib/personal-mcp/clients.ts). */
export const registrationRequest = z.record(z.string(), z.unknown());

/** POST /oauth/register, 201 (RFC 7591 § 3.2.1). */
export const registrationResponse = z.strictObject({
  client_id: z.string().startsWith("mcpc_"),
  client_id_issued_at: z.number().int(),
  client_secret: z.string().startsWith("ocs_").optional(),
  client_secret_expires_at: z.literal(0).optional(),
  redirect_uris: z.array(z.string()).min(1),
  token_endpoint_auth_method: z.enum(["none", "client_secret_basic", "client_secret_post"]),
  grant_types: z.array(z.enum(["authorization_code", "refresh_token"])),
  response_types: z.array(z.literal("code")),
  client_name: z.string().optional(),
  client_uri: z.string().optional(),
  logo_uri: z.string().optional(),
  scope: z.string(),
});
