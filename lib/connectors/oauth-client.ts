// What the OAuth providers' drivers share: their client configuration, reading a token response,
// and a refresh that tells a refused grant apart from any other failure.
import * as oauth from "openid-client";
import { now as clockNow } from "../platform/clock";
import { processWide } from "../process-wide";
import { ProviderGrantError, type ProviderTokens } from "./types";

// Configurations made so far, by settings, kept apart for each copy of openid-client the process
// loads: openid-client accepts only a Configuration its own copy made, and Next.js's chunks bundle
// their own copy beside the one the API fast path imports.
const configurationsByLibrary = processWide("connectors.oauth-configurations", () => new WeakMap<typeof oauth.Configuration, Map<string, oauth.Configuration>>());

function configurationsOfThisLibrary(): Map<string, oauth.Configuration> {
  let configurations = configurationsByLibrary.get(oauth.Configuration);
  if (!configurations) configurationsByLibrary.set(oauth.Configuration, (configurations = new Map<string, oauth.Configuration>()));
  return configurations;
}

/**
 * The client configuration for a provider's endpoints (client secret in the body), made once per
 * set of settings. Local providers in tests and development speak plain http, which is allowed then.
 */
export function clientConfiguration(server: oauth.ServerMetadata, client: { id: string; secret: string }): oauth.Configuration {
  const key = JSON.stringify([server, client.id, client.secret]);
  const configurations = configurationsOfThisLibrary();
  let config = configurations.get(key);
  if (!config) {
    config = new oauth.Configuration(server, client.id, { client_secret: client.secret }, oauth.ClientSecretPost(client.secret));
    if (server.token_endpoint && new URL(server.token_endpoint).protocol === "http:") oauth.allowInsecureRequests(config);
    configurations.set(key, config);
  }
  return config;
}

/** A token response as stored. Providers that send a refresh token only once keep the previous one. */
export function tokenSet(res: oauth.TokenEndpointResponse, previousRefresh?: string): ProviderTokens {
  return {
    accessToken: res.access_token,
    refreshToken: res.refresh_token ?? previousRefresh ?? null,
    expiresAt: typeof res.expires_in === "number" ? new Date(clockNow().getTime() + res.expires_in * 1000) : null,
    scopes: typeof res.scope === "string" ? res.scope.split(" ").filter(Boolean) : [],
  };
}

/** A refresh grant; invalid_grant (revoked or expired) becomes ProviderGrantError. */
export async function refreshWith(config: oauth.Configuration, refreshToken: string): Promise<ProviderTokens> {
  try {
    return tokenSet(await oauth.refreshTokenGrant(config, refreshToken), refreshToken);
  } catch (err) {
    if (err instanceof oauth.ResponseBodyError && err.error === "invalid_grant") throw new ProviderGrantError(err.error_description ?? "invalid_grant");
    throw err;
  }
}
