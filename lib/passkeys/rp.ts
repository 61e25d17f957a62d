// The relying party passkeys are made for and checked against: BASE_URL's host and origin, the one
// address the hosted pages are served from. A passkey made for another host is refused.
import { env } from "../env";

export const RP_NAME = "Sign in";

/** The relying party id: BASE_URL's host (no port). */
export function rpId(): string {
  return new URL(env().BASE_URL).hostname;
}

/** The origin the browser reports in clientDataJSON: BASE_URL's. */
export function rpOrigin(): string {
  return new URL(env().BASE_URL).origin;
}
