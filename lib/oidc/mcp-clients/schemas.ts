// The answers of the routes MCP clients sign in through, for the reference and the tests that check
// every answer against its contract: the authorization-server metadata and client registration.
import { z } from "zod";
import { PROFILE_TOOL_SCOPES } from "../../profile/scopes";
import { OIDC_SCOPES } from "../discovery";
import { discoveryResponse } from "../schemas";

/** GET /.well-known/oauth-authorization-server (RFC 8414 § 2). */
export const authorizationServerResponse = discoveryResponse.extend({
  registration_endpoint: z.url(),
  scopes_supported: z.array(z.enum([...OIDC_SCOPES, ...PROFILE_TOOL_SCOPES])),
  client_id_metadata_document_supported: z.literal(true),
});

/** The body of POST /oauth/register: RFC 7591 client metadata (validated by lib/oidc/mcp-clients/clients.ts). */
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
