// What a connection provider does: send the person to consent, exchange the code, refresh, revoke.

/**
 * Connections with no real account behind them (the sandbox's, and those made through /dev/connect):
 * never refreshed or revoked at a provider.
 */
export const DEVELOPMENT_PROVIDER = "development" as const;
/** The sandbox's synthetic Gmail (development provider): the one development mailbox that counts as proof, on the test plane. */
export const SANDBOX_MAILBOX_ACCOUNT_ID = "sandbox-gmail";

export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scopes: string[];
}

export interface ConnectorProvider {
  id: "google" | "microsoft" | "notion" | typeof DEVELOPMENT_PROVIDER;
  /** Whether credentials are configured. */
  configured(): boolean;
  /**
   * Where the person consents. With `capability`, the scope the capability needs on this app is asked
   * for too, beside those already granted (incremental authorization).
   */
  authorizationUrl(input: { app: string; state: string; codeChallenge: string; redirectUri: string; capability?: string }): URL;
  /** The scope a capability (gmail:send) needs that the provider grants apart from reading, if any. */
  capabilityScope?(capability: string): string | undefined;
  /** The callback URL as the provider sent the browser back, checked against the state and verifier. */
  exchange(input: { callbackUrl: URL; state: string; verifier: string }): Promise<ProviderTokens & { account: { id: string; email: string | null } }>;
  /** Throws ProviderGrantError when the provider refuses the grant (revoked or expired). */
  refresh(refreshToken: string): Promise<ProviderTokens>;
  revoke(token: string): Promise<void>;
}

/** The provider no longer honours the grant: the person must connect again. */
export class ProviderGrantError extends Error {
  constructor(detail: string) {
    super(`The provider refused the grant: ${detail}`);
    this.name = "ProviderGrantError";
  }
}
