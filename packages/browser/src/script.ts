// The browser script served at {BASE_URL}/sdk/v1/service-sso.js: defines <service-sso-button> and
// window.Service (signInWithPopup, getSsoPkce, getSsoNonce, completeSso, handleSsoCallback). The service's
// address is where the script was loaded from.
import { defineServiceSsoButton } from "./element.js";
import { SSO_EVENTS } from "./events.js";
import { completeSso, getSsoNonce, getSsoPkce, handleSsoCallback, setServiceBase, signInWithPopup } from "./sso.js";

const script = document.currentScript as HTMLScriptElement | null;
if (script?.src) setServiceBase(new URL(script.src).origin + new URL(script.src).pathname.replace(/\/sdk\/v\d+\/[^/]*$/, ""));

const Service = { signInWithPopup, getSsoPkce, getSsoNonce, completeSso, handleSsoCallback, events: SSO_EVENTS, version: "1" };
(window as unknown as { Service: typeof Service }).Service = Service;
defineServiceSsoButton();
