// @profile-service/browser: sign-in with the service from a web page, as an ES module for bundlers and
// frameworks. Importing it does nothing by itself (no globals, no element defined), so it also loads
// where there is no DOM, as in server rendering; the served script (./script.ts) is the same code.
//
//   import { configure, defineServiceSsoButton } from "@profile-service/browser";
//   configure({ baseUrl: "https://profiles.example" });
//   defineServiceSsoButton(); // <service-sso-button client-id="oc_…" redirect-uri="…"></service-sso-button>
import { setServiceBase } from "./sso.js";

export { defineServiceSsoButton, SSO_BUTTON_TAG } from "./element.js";
export { SSO_EVENTS, type OnEvent, type SsoEventDetail, type SsoEventName } from "./events.js";
export {
  completeSso,
  getSsoNonce,
  getSsoPkce,
  handleSsoCallback,
  NO_SERVICE_ADDRESS,
  POPUP_BLOCKED,
  POPUP_CLOSED,
  RESULT_MESSAGE,
  serviceBaseUrl,
  SIGN_IN_CANCELLED,
  signInWithPopup,
  type SignInOptions,
} from "./sso.js";

/** Sets the service's address (its BASE_URL) for every sign-in and button on this page that names none. */
export function configure(options: { baseUrl: string }): void {
  const url = new URL(options.baseUrl);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError(`baseUrl must be an http(s) address, not ${options.baseUrl}`);
  setServiceBase(url.origin + url.pathname);
}
