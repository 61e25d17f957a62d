// POST /oauth/token: reads the form, authenticates the client, and hands the request to the grant its
// grant_type names (./grants). Errors are RFC 6749 § 5.2's, with the specification's descriptions.
// Once the client is known, the answer is that client's, errors included: its origins may read it (./cors.ts).
import { isMcpClientKind } from "./client-kinds";
import { isPersonalMcpResource, personalResourceOnly } from "./mcp-clients/resource";
import type { ApiRequest } from "../http/api-request";
import { forClient } from "../http/cors";
import { authenticateClient, type OidcClient } from "./client-auth";
import { invalidRequest, OAuthError, OAUTH_MESSAGES } from "./errors";
import { readForm } from "./form";
import { GRANTS } from "./grants";
import type { TokenResponse } from "./tokens";
import { z } from "zod";

/** The token request's form, for the reference: grant_type, client authentication, and each grant's own parameters. */
export const tokenForm = z.object({
  grant_type: z.enum([...GRANTS.keys()] as [string, ...string[]]),
  client_id: z.string().optional().describe("Required unless the client authenticates with HTTP Basic."),
  client_secret: z.string().optional().describe("A confidential client's secret (client_secret_post)."),
  resource: z.string().optional().describe("An MCP client of the personal endpoint may name it ({mcp_url}); other clients leave it out."),
  ...Object.fromEntries([...new Set([...GRANTS.values()].flatMap((g) => g.parameters))].map((p) => [p, z.string().optional()])),
});

/** The token endpoint: the token response, and the client it is for. */
export async function tokenEndpoint(req: Pick<ApiRequest, "headers" | "bodyText">): Promise<{ client: string; token: TokenResponse }> {
  const form = await readForm(req);
  const client = await authenticateClient(req, form);
  return { client: client.id, token: await forClient(client.id, () => grantToken(client, form)) };
}

async function grantToken(client: OidcClient, form: URLSearchParams): Promise<TokenResponse> {
  // An MCP client may name the resource again (RFC 8707 § 2.2): only the personal endpoint.
  const resource = form.get("resource");
  if (resource !== null && isMcpClientKind(client.kind) && !isPersonalMcpResource(resource)) throw new OAuthError("invalid_target", personalResourceOnly());
  const grantType = form.get("grant_type");
  if (!grantType) throw invalidRequest(OAUTH_MESSAGES.grantTypeRequired);
  const grant = GRANTS.get(grantType);
  if (!grant) throw new OAuthError("unsupported_grant_type", OAUTH_MESSAGES.unsupportedGrantType);
  return grant.handle({ client, form });
}
