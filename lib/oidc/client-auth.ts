// Who is calling the token and revocation endpoints: the registered client, found by id (cached
// like API keys, ≤ 1 s) and authenticated the way it registered — none, client_secret_basic or
// client_secret_post. PKCE is required of every client regardless (lib/oidc/tokens.ts).
import { TtlCache } from "../platform/cache";
import { keyedHash, safeEqual } from "../platform/crypto";
import { database } from "../platform/db";
import type { Plane } from "../platform/db/generated/enums";
import { PREFIX } from "../platform/ids";
import type { ClientKind } from "./client-kinds";
import { MAX_DOCUMENT_URL_LENGTH } from "./mcp-clients/limits";
import { invalidClient, invalidRequest, OAUTH_MESSAGES } from "./errors";

/** The ways a client may authenticate at the token and revocation endpoints (as discovery lists them). */
export const TOKEN_ENDPOINT_AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

export interface OidcClient {
  id: string;
  developerId: string;
  plane: Plane;
  method: TokenEndpointAuthMethod;
  secretHash: string | null;
  scopes: string[];
  redirectUris: string[];
  /** oidc (a developer's relying party) or an MCP client of the personal endpoint (./client-kinds.ts). */
  kind: ClientKind;
  /** The agent an MCP client acts as; null for oidc clients (they sign in as their developer's agent). */
  agentId: string | null;
}

/**
 * Whether a value can be a client id: oc_… (a developer's client), mcpc_… (a registered MCP client),
 * or the https URL of an MCP client's metadata document. Checked before any lookup.
 */
function canBeClientId(id: string): boolean {
  if (id.startsWith("oc_") || id.startsWith(PREFIX.mcpClient)) return id.length <= 64 && /^[A-Za-z0-9_]+$/.test(id);
  return id.length <= MAX_DOCUMENT_URL_LENGTH && (id.startsWith("https://") || id.startsWith("http://"));
}

const SECRET_PURPOSE = "oauth-client-secret";

/** The stored form of a confidential client's ocs_ secret. */
export function hashClientSecret(secret: string): string {
  return keyedHash(SECRET_PURPOSE, secret);
}

const clientCache = new TtlCache<OidcClient | null>("oauth-clients");

/** Forgets cached clients after a registration in this process (a new callback counts at once). */
export function clearClientCache(): void {
  clientCache.clear();
}

/** A client by id, with its callbacks; null when unknown. */
export async function findClient(id: string): Promise<OidcClient | null> {
  if (!canBeClientId(id)) return null;
  return clientCache.through(id, async () => {
    const [row] = await (
      await database()
    ).sql.query<{
      id: string;
      developer_id: string;
      plane: Plane;
      token_endpoint_auth_method: TokenEndpointAuthMethod;
      secret_hash: string | null;
      scopes: string[] | null;
      redirect_uris: string[] | null;
      kind: ClientKind;
      agent_id: string | null;
    }>(
      `SELECT c.id, c.developer_id, c.plane, c.token_endpoint_auth_method, c.secret_hash, c.scopes, c.kind, c.agent_id,
              ARRAY(SELECT r.uri FROM oauth_redirect_uris r WHERE r.client_id = c.id) AS redirect_uris
         FROM oauth_clients c WHERE c.id = $1`,
      [id],
      { name: "oauth_client" },
    );
    if (!row) return null;
    return {
      id: row.id,
      developerId: row.developer_id,
      plane: row.plane,
      method: row.token_endpoint_auth_method,
      secretHash: row.secret_hash,
      scopes: row.scopes ?? [],
      redirectUris: row.redirect_uris ?? [],
      kind: row.kind,
      agentId: row.agent_id,
    };
  });
}

/** HTTP Basic credentials (RFC 6749 § 2.3.1: each part form-urlencoded before joining with ':'). */
function basicCredentials(req: { readonly headers: Pick<Headers, "get"> }): { id: string; secret: string } | null {
  const header = req.headers.get("authorization");
  if (!header) return null;
  const m = header.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (!m) throw invalidClient(OAUTH_MESSAGES.malformedBasic);
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw invalidClient(OAUTH_MESSAGES.malformedBasic);
  try {
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    throw invalidClient(OAUTH_MESSAGES.malformedBasic);
  }
}

/**
 * Authenticates the client of a token or revocation request. A confidential client that sends no
 * secret gets 401 invalid_client 'Client authentication required.'; a wrong secret, a secret sent
 * the other way than registered, or a secret from a public client, 401 'Client authentication failed.'
 */
export async function authenticateClient(req: { readonly headers: Pick<Headers, "get"> }, form: URLSearchParams): Promise<OidcClient> {
  const basic = basicCredentials(req);
  const bodyId = form.get("client_id") ?? undefined;
  const bodySecret = form.get("client_secret") ?? undefined;
  if (basic && bodySecret !== undefined) throw invalidRequest(OAUTH_MESSAGES.oneAuthMethod);
  if (basic && bodyId !== undefined && bodyId !== basic.id) throw invalidRequest(OAUTH_MESSAGES.clientIdMismatch);
  const clientId = basic?.id ?? bodyId;
  if (!clientId) throw invalidRequest(OAUTH_MESSAGES.clientIdRequired);

  const client = await findClient(clientId);
  if (!client) throw invalidClient(OAUTH_MESSAGES.unknownClient);

  const presented = basic ? { secret: basic.secret, method: "client_secret_basic" } : bodySecret !== undefined ? { secret: bodySecret, method: "client_secret_post" } : null;
  if (client.method === "none") {
    if (presented) throw invalidClient(OAUTH_MESSAGES.publicClientSecret);
    return client;
  }
  if (!presented || !presented.secret) throw invalidClient(OAUTH_MESSAGES.clientAuthRequired);
  const matches = client.secretHash !== null && safeEqual(hashClientSecret(presented.secret), client.secretHash);
  if (!matches || presented.method !== client.method) throw invalidClient(OAUTH_MESSAGES.clientAuthFailed);
  return client;
}
