// MCP clients of the personal endpoint: what a client says of itself (RFC 7591 client metadata, the
// same fields whether it registers at POST /oauth/register or publishes a Client ID Metadata Document),
// the callbacks such clients use, and the client and agent rows made for one.
import { z } from "zod";
import { createAgent } from "../../agents/agents";
import { randomBase62 } from "../../platform/crypto";
import type { Prisma } from "../../platform/db/generated/client";
import { clearClientCache } from "../client-auth";
import { PERSONAL_MCP_DEVELOPER_ID, PERSONAL_MCP_PLANE } from "../../developers/personal-mcp-account";
import type { ClientKind } from "../client-kinds";

export const MAX_MCP_REDIRECT_URIS = 10;
export const MAX_MCP_REDIRECT_URI_LENGTH = 2_048;
export const MAX_CLIENT_NAME_LENGTH = 100;
/** What vouches for a client whose callbacks are all on the person's device. */
export const ON_THIS_DEVICE = "app on this device";

/**
 * Errors of client registration (RFC 7591 § 3.2.2) and of metadata documents: the error code and a
 * description naming the field.
 */
export class ClientMetadataError extends Error {
  constructor(
    readonly error: "invalid_client_metadata" | "invalid_redirect_uri",
    readonly description: string,
  ) {
    super(description);
    this.name = "ClientMetadataError";
  }
}

// Schemes a browser must never be sent to with a code.
const REFUSED_SCHEMES: ReadonlySet<string> = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "about:",
  "blob:",
  "filesystem:",
  "ftp:",
  "ws:",
  "wss:",
  "mailto:",
  "tel:",
  "sms:",
]);
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether a callback is on this device (RFC 8252 § 7.3): http on localhost, 127.0.0.1 or [::1]. */
export function isLoopbackRedirect(url: URL): boolean {
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * An MCP client's callback: https; http on a loopback host (a desktop client's local listener); or a
 * private-use scheme (RFC 8252 § 7.1, e.g. cursor://…). No fragment, credentials or wildcard.
 */
export function checkMcpRedirectUri(raw: string): string {
  const invalid = (why: string) => new ClientMetadataError("invalid_redirect_uri", `redirect_uris: ${raw.slice(0, 200)} ${why}`);
  if (!raw || raw.length > MAX_MCP_REDIRECT_URI_LENGTH || /[*\s]/.test(raw)) throw invalid("is not an absolute URL without spaces or wildcards.");
  if (!URL.canParse(raw)) throw invalid("is not an absolute URL.");
  const url = new URL(raw);
  if (url.hash || raw.includes("#")) throw invalid("must not have a fragment.");
  if (url.username || url.password) throw invalid("must not carry credentials.");
  if (url.protocol === "https:") return raw;
  if (url.protocol === "http:") {
    if (isLoopbackRedirect(url)) return raw;
    throw invalid("must use https (http only on localhost, 127.0.0.1 or [::1]).");
  }
  if (REFUSED_SCHEMES.has(url.protocol)) throw invalid(`uses a scheme (${url.protocol}) that cannot receive a code.`);
  return raw;
}

/**
 * Whether a callback presented at /oauth/authorize is one the client registered: the same string, or,
 * for a loopback callback, the same one on another port (RFC 8252 § 7.3: a desktop client listens on
 * whichever port is free).
 */
export function mcpRedirectMatches(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  if (!URL.canParse(presented)) return false;
  const p = new URL(presented);
  if (!isLoopbackRedirect(p)) return false;
  return registered.some((r) => {
    if (!URL.canParse(r)) return false;
    const u = new URL(r);
    return isLoopbackRedirect(u) && u.hostname === p.hostname && u.pathname === p.pathname && u.search === p.search;
  });
}

const httpsUrl = z
  .string()
  .max(MAX_MCP_REDIRECT_URI_LENGTH)
  .refine((v) => URL.canParse(v) && new URL(v).protocol === "https:", "must be an https URL");

/**
 * RFC 7591 client metadata, as the service reads it. Unknown fields are ignored (§ 2); the ones read
 * must be valid. Clients of the personal endpoint use the authorization code grant with PKCE.
 */
export const clientMetadata = z.object({
  redirect_uris: z.array(z.string()).min(1, "at least one redirect URI is required").max(MAX_MCP_REDIRECT_URIS, `at most ${MAX_MCP_REDIRECT_URIS} redirect URIs`),
  client_name: z.string().trim().min(1).max(MAX_CLIENT_NAME_LENGTH).optional(),
  client_uri: httpsUrl.optional(),
  logo_uri: httpsUrl.optional(),
  token_endpoint_auth_method: z.enum(["none", "client_secret_basic", "client_secret_post"]).optional(),
  grant_types: z
    .array(z.enum(["authorization_code", "refresh_token"]))
    .min(1)
    .optional(),
  response_types: z.array(z.literal("code")).min(1).optional(),
  scope: z.string().max(1_000).optional(),
  software_id: z.string().max(200).optional(),
  software_version: z.string().max(100).optional(),
});
export type ClientMetadata = z.output<typeof clientMetadata>;

/** Parses client metadata, each problem an RFC 7591 error naming the field. */
export function parseClientMetadata(raw: unknown): ClientMetadata {
  const parsed = clientMetadata.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join(".") || "(body)";
    const code = issue.path[0] === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata";
    throw new ClientMetadataError(code, `${field}: ${issue.message}`);
  }
  for (const uri of parsed.data.redirect_uris) checkMcpRedirectUri(uri);
  return parsed.data;
}

/** Control characters and bidirectional overrides are no part of a name shown to a person. */
function cleanName(name: string): string {
  return name
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX_CLIENT_NAME_LENGTH);
}

/**
 * The name the hosted pages show for a client: its own name with the host that vouches for it (the
 * metadata document's host, or its https callback's), since anyone can register any name. A client
 * with only local callbacks (loopback or a private-use scheme) is marked as a program on this device.
 */
export function mcpClientDisplayName(metadata: Pick<ClientMetadata, "client_name" | "redirect_uris">, documentUrl?: string): string {
  const host = documentUrl ? new URL(documentUrl).host : metadata.redirect_uris.map((r) => (URL.canParse(r) ? new URL(r) : null)).find((u) => u?.protocol === "https:")?.host;
  const name = metadata.client_name ? cleanName(metadata.client_name) : "";
  // Only local callbacks: a program on the person's device, which no host vouches for.
  const vouch = host ?? ON_THIS_DEVICE;
  if (!name) return host ?? "An MCP client on this device";
  return name.toLowerCase().includes(vouch.toLowerCase()) ? name : `${name} (${vouch})`;
}

/**
 * Makes an MCP client and the agent it acts as, in `tx`. The agent's handle is random: it is never
 * typed (no key of this account exists) and takes no sign-in host address anyone would look for.
 */
export async function createMcpClient(
  tx: Prisma.TransactionClient,
  input: { id: string; kind: ClientKind; method: "none" | "client_secret_basic" | "client_secret_post"; secretHash: string | null; metadata: ClientMetadata; displayName: string },
) {
  const agent = await createAgent({ developerId: PERSONAL_MCP_DEVELOPER_ID, handle: `mcp-client-${randomBase62(12).toLowerCase()}`, displayName: input.displayName }, tx);
  await tx.oAuthClient.create({
    data: {
      id: input.id,
      developerId: PERSONAL_MCP_DEVELOPER_ID,
      plane: PERSONAL_MCP_PLANE,
      kind: input.kind,
      agentId: agent.id,
      tokenEndpointAuthMethod: input.method,
      secretHash: input.secretHash,
      scopes: [],
      clientName: input.metadata.client_name ?? null,
      clientUri: input.metadata.client_uri ?? null,
      logoUri: input.metadata.logo_uri ?? null,
      redirectUris: { create: input.metadata.redirect_uris.map((uri) => ({ uri, origin: originOf(uri) })) },
    },
  });
  clearClientCache();
  return { agentId: agent.id };
}

/** A callback's origin, for the token endpoint's CORS answer; empty for a private-use scheme. */
export function originOf(uri: string): string {
  const url = new URL(uri);
  return url.protocol === "https:" || url.protocol === "http:" ? url.origin.toLowerCase() : "";
}
