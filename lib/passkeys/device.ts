// What this browser knows of passkeys, in a cookie of its own that names nobody: "has" once a passkey
// was made or used here (the phone screen then offers "Use a passkey"), "dismissed" once the person
// said "Not now" to the offer (it is not shown again here). Nothing on the server reads it as a proof.
import { defineCookie } from "../http/cookies";

export const passkeyDeviceCookie = defineCookie({ name: "service_passkey", path: "/", maxAge: 400 * 24 * 60 * 60 });

export type PasskeyDevice = "has" | "dismissed" | null;

/** The cookie's value as the pages read it; anything else is as if there were none. */
export function passkeyDeviceOf(value: string | undefined): PasskeyDevice {
  return value === "has" || value === "dismissed" ? value : null;
}
