// The OpenID Connect discovery document: the fields and values the specification lists, plus the
// revocation endpoint (RFC 8414) and the userinfo endpoint (OpenID Connect Discovery §3), so standard
// relying parties (openid-client's helpers, Auth.js, which requires userinfo_endpoint at the callback)
// work unchanged. The userinfo endpoint answers only { sub }: scoped claims are in the ID token.
import { env } from "../env";
import { TOKEN_ENDPOINT_AUTH_METHODS } from "./client-auth";
import { GRANTS } from "./grants";

export const OIDC_SCOPES = ["openid", "email", "profile"] as const;

/** The issuer is BASE_URL; every endpoint is a path on it. */
export function discoveryDocument() {
  const issuer = env().BASE_URL;
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    response_types_supported: ["code"],
    grant_types_supported: [...GRANTS.keys()],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    scopes_supported: [...OIDC_SCOPES],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
  };
}
