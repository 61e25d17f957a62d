// The token endpoint's grants: each one file, exporting its grant_type, the parameters it reads and
// its handler; the token endpoint (../token-endpoint.ts) dispatches on grant_type. Modelled on
// node-oidc-provider's lib/actions/grants registry.
import type { OidcClient } from "../client-auth";
import type { TokenResponse } from "../tokens";

export interface Grant {
  /** The grant_type value that selects it. */
  type: string;
  /** The form parameters it reads, besides grant_type and client authentication (../form.ts refuses any sent twice). */
  parameters: readonly string[];
  /** Exchanges what the authenticated client sent for tokens, or throws an OAuthError. */
  handle(input: { client: OidcClient; form: URLSearchParams }): Promise<TokenResponse>;
}
