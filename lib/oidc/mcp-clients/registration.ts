// POST /oauth/register: dynamic client registration (RFC 7591) for MCP clients of the personal
// endpoint. Open to anyone (an MCP client registers itself before the person signs in), limited per
// IP; a client made here can do nothing until a person signs in through it and so approves it.
import { now as clockNow } from "../../platform/clock";
import { randomBase62 } from "../../platform/crypto";
import { db } from "../../platform/db";
import { env } from "../../env";
import { lazyLimiter } from "../../platform/ratelimit";
import { hashClientSecret } from "../client-auth";
import { newId, PREFIX } from "../../platform/ids";
import { PROFILE_TOOL_SCOPES } from "../../profile/scopes";
import { CLIENT_KINDS } from "../client-kinds";
import { ClientMetadataError, createMcpClient, mcpClientDisplayName, parseClientMetadata } from "./clients";

/** Registrations per IP address per hour. */
export const REGISTRATIONS_PER_IP_PER_HOUR = 30;
export const registrationLimiter = lazyLimiter(() => ({ name: "oauth-register", points: REGISTRATIONS_PER_IP_PER_HOUR, durationSeconds: 3600 }));

/** The registration response (RFC 7591 § 3.2.1): the client's id, its secret when it has one, and its metadata as registered. */
export interface RegistrationResponse {
  client_id: string;
  client_id_issued_at: number;
  client_secret?: string;
  client_secret_expires_at?: 0;
  redirect_uris: string[];
  token_endpoint_auth_method: string;
  grant_types: string[];
  response_types: string[];
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  scope: string;
}

/**
 * Registers a client. token_endpoint_auth_method defaults to client_secret_basic (RFC 7591 § 2); a
 * confidential client's ocs_ secret is shown once and stored as a keyed hash.
 */
export async function registerMcpClient(raw: unknown): Promise<RegistrationResponse> {
  const metadata = parseClientMetadata(raw);
  if (metadata.grant_types && !metadata.grant_types.includes("authorization_code")) {
    throw new ClientMetadataError("invalid_client_metadata", "grant_types: must include authorization_code.");
  }
  const method = metadata.token_endpoint_auth_method ?? "client_secret_basic";
  const id = newId(PREFIX.mcpClient);
  const secret = method === "none" ? undefined : PREFIX.oauthClientSecret + randomBase62(40);
  const issuedAt = clockNow();
  await (
    await db()
  ).$transaction((tx) =>
    createMcpClient(tx, { id, kind: CLIENT_KINDS.registered, method, secretHash: secret ? hashClientSecret(secret) : null, metadata, displayName: mcpClientDisplayName(metadata) }),
  );
  return {
    client_id: id,
    client_id_issued_at: Math.floor(issuedAt.getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 as const } : {}),
    redirect_uris: metadata.redirect_uris,
    token_endpoint_auth_method: method,
    grant_types: metadata.grant_types ?? ["authorization_code", "refresh_token"],
    response_types: ["code"],
    ...(metadata.client_name ? { client_name: metadata.client_name } : {}),
    ...(metadata.client_uri ? { client_uri: metadata.client_uri } : {}),
    ...(metadata.logo_uri ? { logo_uri: metadata.logo_uri } : {}),
    scope: PROFILE_TOOL_SCOPES.join(" "),
  };
}

/** Where clients register: a path on the issuer. */
export function registrationEndpoint(): string {
  return `${env().BASE_URL}/oauth/register`;
}
