// What the OAuth providers' drivers share: reading a token response, and a refresh that tells a
// refused grant apart from any other failure.
import * as oauth from "openid-client";
import { now as clockNow } from "../clock";
import { ProviderGrantError, type ProviderTokens } from "./types";

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
