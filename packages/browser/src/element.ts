// <service-sso-button>: the sign-in button a developer places on a page. Attributes: client-id (oc_…),
// redirect-uri, agent-name, scopes, width, base-url. Without client-id or redirect-uri it shows how to
// finish the setup. The element's class is made when it is defined, never at import, so a module that
// imports this file also loads where there is no DOM (server rendering, Node).
import { signInWithPopup } from "./sso.js";

const ICON =
  '<svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20"><circle cx="12" cy="12" r="11" fill="var(--accent)"/><circle cx="12" cy="9.5" r="3.6" fill="var(--on-accent)"/><path d="M5.6 18.6a7.6 7.6 0 0 1 12.8 0" fill="var(--on-accent)"/></svg>';

const STYLE = [
  ':host{display:inline-block;--accent:#4338ca;--on-accent:#fff;--bg:#fff;--fg:#111827;--line:#d1d5db;--hover:#f3f4f6;--ring:#2563eb;--note-bg:#fffbeb;--note-line:#f59e0b;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}',
  "@media (prefers-color-scheme:dark){:host{--accent:#818cf8;--on-accent:#111827;--bg:#1f2937;--fg:#f9fafb;--line:#4b5563;--hover:#374151;--ring:#93c5fd;--note-bg:#292524;--note-line:#fbbf24}}",
  ":host([hidden]){display:none}",
  "button{all:unset;box-sizing:border-box;display:flex;align-items:center;justify-content:center;gap:10px;width:100%;min-height:44px;padding:10px 18px;border:1px solid var(--line);border-radius:10px;background:var(--bg);color:var(--fg);font-size:15px;font-weight:600;line-height:1.2;cursor:pointer;transition:background-color .15s,box-shadow .15s;box-shadow:0 1px 2px rgba(0,0,0,.06)}",
  "button:hover{background:var(--hover)}",
  "button:focus-visible{outline:3px solid var(--ring);outline-offset:2px}",
  "button[aria-busy=true]{cursor:progress;opacity:.8}",
  ".spin{width:18px;height:18px;border:2px solid var(--line);border-top-color:var(--accent);border-radius:50%;animation:s 0.8s linear infinite}",
  "@keyframes s{to{transform:rotate(1turn)}}",
  "@media (prefers-reduced-motion:reduce){.spin{animation:none}}",
  ".note{box-sizing:border-box;padding:12px 14px;border:1px dashed var(--note-line);border-radius:10px;background:var(--note-bg);color:var(--fg);font-size:14px;line-height:1.45}",
  ".note strong{display:block;margin-bottom:2px}",
  "code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace}",
  ".sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}",
].join("");

const LABEL = "Sign in with Profile Service";
/** The element's tag name. */
export const SSO_BUTTON_TAG = "service-sso-button";

/**
 * Defines <service-sso-button> in this page, once. Returns true when the element is defined (now or
 * before), false where there is no DOM (server rendering): safe to call from code that runs in both.
 */
export function defineServiceSsoButton(): boolean {
  if (typeof window === "undefined" || typeof customElements === "undefined" || typeof HTMLElement === "undefined") return false;
  if (!customElements.get(SSO_BUTTON_TAG)) customElements.define(SSO_BUTTON_TAG, serviceSsoButtonClass());
  return true;
}

function serviceSsoButtonClass(): CustomElementConstructor {
  return class ServiceSsoButton extends HTMLElement {
    static observedAttributes = ["client-id", "redirect-uri", "agent-name", "scopes", "width", "base-url"];
    private root: ShadowRoot;
    private busy = false;

    constructor() {
      super();
      this.root = this.attachShadow({ mode: "open" });
    }

    connectedCallback() {
      this.render();
    }

    attributeChangedCallback() {
      if (this.isConnected) this.render();
    }

    private render() {
      const width = this.getAttribute("width")?.trim();
      this.style.width = width ? (/^\d+$/.test(width) ? `${width}px` : width) : "";
      const clientId = this.getAttribute("client-id")?.trim();
      const redirectUri = this.getAttribute("redirect-uri")?.trim();
      if (!clientId?.startsWith("oc_") || !redirectUri) {
        const missing = [!clientId?.startsWith("oc_") && "<code>client-id</code> (oc_…)", !redirectUri && "<code>redirect-uri</code>"].filter(Boolean).join(" and ");
        this.root.innerHTML = `<style>${STYLE}</style><div class="note" role="note" part="notice"><strong>Sign-in button needs setup</strong>Add ${missing} to <code>&lt;service-sso-button&gt;</code>: the OpenID Connect client and the callback address registered for it.</div>`;
        return;
      }
      const agent = this.getAttribute("agent-name")?.trim();
      this.root.innerHTML = `<style>${STYLE}</style><button type="button" part="button">${ICON}<span class="label"></span></button><span class="sr" role="status" aria-live="polite"></span>`;
      const button = this.root.querySelector("button")!;
      this.root.querySelector(".label")!.textContent = LABEL;
      if (agent) button.title = `Sign in to ${agent} with your Profile Service profile`;
      button.addEventListener("click", () => this.start());
      this.setBusy(this.busy);
    }

    private setBusy(busy: boolean) {
      this.busy = busy;
      const button = this.root.querySelector("button");
      if (!button) return;
      button.setAttribute("aria-busy", String(busy));
      const first = button.firstElementChild;
      if (busy && first?.tagName.toLowerCase() === "svg") {
        const spin = document.createElement("span");
        spin.className = "spin";
        spin.setAttribute("aria-hidden", "true");
        first.replaceWith(spin);
      } else if (!busy && first?.classList.contains("spin")) first.outerHTML = ICON;
      this.root.querySelector(".sr")!.textContent = busy ? "Signing in in a new window…" : "";
    }

    private start() {
      if (this.busy) return;
      this.setBusy(true);
      signInWithPopup({
        clientId: this.getAttribute("client-id")?.trim(),
        redirectUri: this.getAttribute("redirect-uri")?.trim(),
        scopes: this.getAttribute("scopes") ?? undefined,
        baseUrl: this.getAttribute("base-url")?.trim() || undefined,
        target: this,
      })
        .catch(() => undefined)
        .finally(() => this.setBusy(false));
    }
  };
}
