// The wire schemas of the OpenID Connect answers: discovery, JWKS, token, userinfo, the link of an
// OpenID Connect user, and the SSO client and origin routes.
import { z } from "zod";
import { PREFIX } from "../platform/ids";
import { TOKEN_ENDPOINT_AUTH_METHODS } from "./client-auth";
import { OIDC_SCOPES } from "./discovery";
import { SIGNING_ALG } from "./signing-keys";

/** GET /.well-known/openid-configuration: discoveryDocument(). */
export const discoveryResponse = z.strictObject({
  issuer: z.url(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  revocation_endpoint: z.url(),
  userinfo_endpoint: z.url(),
  jwks_uri: z.url(),
  response_types_supported: z.array(z.literal("code")),
  grant_types_supported: z.array(z.string()),
  subject_types_supported: z.array(z.literal("public")),
  id_token_signing_alg_values_supported: z.array(z.literal(SIGNING_ALG)),
  scopes_supported: z.array(z.enum(OIDC_SCOPES)),
  code_challenge_methods_supported: z.array(z.literal("S256")),
  token_endpoint_auth_methods_supported: z.array(z.enum(TOKEN_ENDPOINT_AUTH_METHODS)),
});

/** GET /.well-known/jwks.json: the published RSA public keys. */
export const jwksResponse = z.strictObject({
  keys: z.array(
    z.strictObject({
      kty: z.literal("RSA"),
      n: z.string(),
      e: z.string(),
      kid: z.string(),
      alg: z.literal(SIGNING_ALG),
      use: z.literal("sig"),
    }),
  ),
});

/** POST /oauth/token: TokenResponse; id_token only with the code grant and the openid scope. */
export const tokenResponse = z.strictObject({
  access_token: z.string().startsWith(PREFIX.accessToken),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int().positive(),
  refresh_token: z.string().startsWith(PREFIX.refreshToken),
  scope: z.string(),
  resource: z.string(),
  id_token: z.string().optional(),
});

/** GET|POST /oauth/userinfo: only the subject. */
export const userinfoResponse = z.strictObject({ sub: z.uuid() });

/** GET /v1/me: the token's person and the token itself; the scoped claims only with their scope and only when held. */
export const meResponse = z.strictObject({
  sub: z.uuid(),
  token_use: z.literal("user"),
  client_id: z.string(),
  agent: z.string(),
  scope: z.string(),
  expires_at: z.iso.datetime(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  picture: z.string().optional(),
  birthdate: z.string().optional(),
  location: z.string().optional(),
  livemode: z.boolean(),
});

/** POST /v1/profile/link. */
export const linkResponse = z.strictObject({ linked: z.literal(true), user_id: z.string(), sub: z.uuid() });

const clientId = z.string().startsWith(PREFIX.oauthClient);

/** POST /v1/sso/origins: the origin as approved (normalised). */
export const originResponse = z.strictObject({ ok: z.literal(true), origin: z.string() });

/** POST /v1/sso/client, 200: a public client that already existed (the callback held or added). */
export const clientResponse = z.strictObject({ client_id: clientId });

/** POST /v1/sso/client, 201: a new client; a confidential one with its secret, shown once. */
export const clientCreatedResponse = z.strictObject({
  client_id: clientId,
  client_secret: z.string().startsWith(PREFIX.oauthClientSecret).optional(),
});

/** GET /v1/sso/clients. */
export const clientsResponse = z.strictObject({
  clients: z.array(
    z.strictObject({
      client_id: clientId,
      token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
      redirect_uris: z.array(z.string()),
      created_at: z.iso.datetime(),
    }),
  ),
});

/** DELETE /v1/sso/clients/:clientId/redirect-uris: the callbacks left. */
export const redirectUrisResponse = z.strictObject({ ok: z.literal(true), client_id: clientId, redirect_uris: z.array(z.string()) });
