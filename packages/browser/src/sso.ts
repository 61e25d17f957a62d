// Sign-in in a popup: the authorize request is made in the page (PKCE S256, state, nonce), the person
// signs in on the service's hosted pages, and the popup's callback page hands back only what the
// developer's own server answered after exchanging the code there.
import { attemptEvents, SSO_EVENTS, type OnEvent } from "./events.js";
import { randomToken, readAttempt, removeAttempt, s256, saveAttempt, RECORD_TTL_MS } from "./pkce.js";

/** The message a callback page sends to the page that opened it. */
export const RESULT_MESSAGE = "service:sso-result";
const CHANNEL = "service-sso";
const DEFAULT_SCOPES = "openid email profile";
const DEFAULT_FEATURES = "popup=yes,width=480,height=720";
export const POPUP_BLOCKED = "The sign-in window was blocked. Allow pop-ups for this site and try again.";
export const POPUP_CLOSED = "The sign-in window was closed before sign-in finished.";
export const SIGN_IN_CANCELLED = "Sign-in was cancelled.";

export interface SignInOptions {
  clientId?: string;
  redirectUri?: string;
  scopes?: string;
  onEvent?: OnEvent;
  popupName?: string;
  popupFeatures?: string;
  /** When the popup is blocked: "redirect" (default) signs in in this tab instead; "none" reports an error. */
  fallback?: "redirect" | "none";
  /** Where the events are dispatched (default: window). */
  target?: EventTarget;
  /** The service's address; by default where this script was loaded from. */
  baseUrl?: string;
}

interface ResultMessage {
  type: typeof RESULT_MESSAGE;
  state: string;
  result?: unknown;
  error?: string;
}

/** The message when no address for the service is known. */
export const NO_SERVICE_ADDRESS = "The service's address is not set: call configure({ baseUrl }) or pass baseUrl.";

let serviceBase = "";
/** The service's address for every sign-in that names none (the served script sets it from its own src). */
export function setServiceBase(url: string) {
  serviceBase = url.replace(/\/+$/, "");
}

/** The service's address, as given to configure() or taken from the script's own src. */
export function serviceBaseUrl(): string {
  return serviceBase;
}

/** The authorize address for one attempt. Only the parameters below are sent: `required` is never among them. */
export function authorizeUrl(opts: { baseUrl: string; clientId: string; redirectUri: string; scopes?: string; state: string; nonce: string; codeChallenge: string }): string {
  const url = new URL(opts.baseUrl.replace(/\/+$/, "") + "/oauth/authorize");
  const params: Record<string, string> = {
    response_type: "code",
    client_id: opts.clientId,
    redirect_uri: opts.redirectUri,
    scope: opts.scopes?.trim() || DEFAULT_SCOPES,
    state: opts.state,
    nonce: opts.nonce,
    code_challenge: opts.codeChallenge,
    code_challenge_method: "S256",
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

/** The first service-sso-button on the page supplies what the call leaves out. */
function fromButton(opts: SignInOptions): SignInOptions {
  const el = typeof document === "undefined" ? null : document.querySelector("service-sso-button");
  return {
    ...opts,
    clientId: opts.clientId ?? el?.getAttribute("client-id") ?? undefined,
    redirectUri: opts.redirectUri ?? el?.getAttribute("redirect-uri") ?? undefined,
    scopes: opts.scopes ?? el?.getAttribute("scopes") ?? undefined,
  };
}

/** Opens the sign-in in a popup; resolves with the exchange result, rejects with an Error. */
export function signInWithPopup(options: SignInOptions = {}): Promise<unknown> {
  const opts = fromButton(options);
  const state = randomToken();
  const events = attemptEvents({ target: opts.target ?? window, onEvent: opts.onEvent, state });
  events.emit(SSO_EVENTS.start);
  return new Promise((resolve, reject) => {
    const fail = (message: string) => {
      removeAttempt(state);
      events.fail(message);
      reject(new Error(message));
    };
    const baseUrl = opts.baseUrl || serviceBase;
    if (!opts.clientId?.startsWith("oc_") || !opts.redirectUri) return fail("Sign-in is not set up: a client id (oc_…) and a redirect URI are needed.");
    if (!/^https?:\/\/[^/]/.test(baseUrl)) return fail(NO_SERVICE_ADDRESS);
    let callbackOrigin: string;
    try {
      callbackOrigin = new URL(opts.redirectUri, location.href).origin;
    } catch {
      return fail("The redirect URI is not a valid address.");
    }
    if (callbackOrigin !== location.origin) return fail("The redirect URI must be on this page's origin.");
    // Opened before any await, while the click still counts as the person's own action.
    const popup = window.open("", opts.popupName ?? "service-sso", opts.popupFeatures ?? DEFAULT_FEATURES);
    const mode = popup ? "popup" : "redirect";
    if (!popup && opts.fallback === "none") return fail(POPUP_BLOCKED);
    const codeVerifier = randomToken();
    const nonce = randomToken(16);
    s256(codeVerifier)
      .then((codeChallenge) => {
        saveAttempt(state, { codeVerifier, nonce, redirectUri: opts.redirectUri!, returnTo: location.href, mode, expiresAt: Date.now() + RECORD_TTL_MS });
        const target = authorizeUrl({ baseUrl, clientId: opts.clientId!, redirectUri: opts.redirectUri!, scopes: opts.scopes, state, nonce, codeChallenge });
        events.emit(SSO_EVENTS.open, { mode });
        if (!popup) return location.assign(target);
        popup.location.href = target;
        watch({ popup, state, origin: callbackOrigin, resolve, events, fail });
      })
      .catch((err: unknown) => {
        popup?.close();
        fail(err instanceof Error ? err.message : String(err));
      });
  });
}

/** Waits for the callback page's message, or for the popup to be closed without one. */
function watch(w: { popup: Window; state: string; origin: string; resolve: (v: unknown) => void; events: ReturnType<typeof attemptEvents>; fail: (m: string) => void }) {
  let channel: BroadcastChannel | null = null;
  let closedSince = 0;
  const done = () => {
    window.removeEventListener("message", onMessage);
    channel?.close();
    clearInterval(timer);
  };
  const settle = (data: ResultMessage) => {
    done();
    removeAttempt(w.state);
    if (!w.popup.closed) w.popup.close();
    if (data.error) return w.fail(data.error);
    w.events.emit(SSO_EVENTS.authenticated, { result: data.result });
    w.events.emit(SSO_EVENTS.close);
    w.resolve(data.result);
  };
  const accept = (data: unknown) => {
    const msg = data as ResultMessage | null;
    if (msg?.type === RESULT_MESSAGE && msg.state === w.state) settle(msg);
  };
  function onMessage(e: MessageEvent) {
    // Only the popup we opened, showing the callback page on this origin, may answer.
    if (e.origin !== w.origin || e.source !== w.popup) return;
    accept(e.data);
  }
  window.addEventListener("message", onMessage);
  // A callback page that lost its opener answers on a same-origin channel instead.
  if (typeof BroadcastChannel === "function") {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (e: MessageEvent) => accept(e.data);
  }
  const timer = setInterval(() => {
    if (!w.popup.closed) return;
    // A message posted just before the window closed is still on its way: wait a moment for it.
    closedSince ||= Date.now();
    if (Date.now() - closedSince < 800) return;
    done();
    w.fail(POPUP_CLOSED);
  }, 250);
}

/** On the callback page: the verifier stored for this attempt, to post to the developer's server. */
export function getSsoPkce(state?: string | null): string | null {
  return readAttempt(state ?? new URLSearchParams(location.search).get("state"))?.codeVerifier ?? null;
}

/** On the callback page: the nonce sent with this attempt, which the ID token must carry. */
export function getSsoNonce(state?: string | null): string | null {
  return readAttempt(state ?? new URLSearchParams(location.search).get("state"))?.nonce ?? null;
}

/** A bare error code, in words a person can read: a decline, or a sign-in that could not be finished. */
function codeMessage(code: string): string {
  return code === "access_denied" ? SIGN_IN_CANCELLED : `Sign-in could not be finished (${code}).`;
}

/**
 * The error a callback ends with, if any: the callback's own `error` (access_denied is a decline), else
 * a result that is an Error or has an `error` field (its error_description, else its message, else the code).
 */
export function errorMessage(result: unknown, params: URLSearchParams): string | undefined {
  const urlError = params.get("error");
  if (urlError) return urlError === "access_denied" ? SIGN_IN_CANCELLED : params.get("error_description") || codeMessage(urlError);
  if (result instanceof Error) return result.message;
  const r = result as { error?: unknown; error_description?: unknown; message?: unknown } | null;
  if (r && typeof r === "object" && typeof r.error === "string")
    return typeof r.error_description === "string" ? r.error_description : typeof r.message === "string" ? r.message : codeMessage(r.error);
  return undefined;
}

/**
 * On the callback page, after the developer's server has exchanged the code: hands the result to the
 * page that opened the popup (same origin only) and closes the popup. After a full-page sign-in the
 * events are dispatched here instead.
 */
export function completeSso(result: unknown, opts: { state?: string; onEvent?: OnEvent; target?: EventTarget } = {}): void {
  const params = new URLSearchParams(location.search);
  const state = opts.state ?? params.get("state") ?? "";
  const record = readAttempt(state);
  removeAttempt(state);
  const error = errorMessage(result, params);
  const message: ResultMessage = { type: RESULT_MESSAGE, state, ...(error ? { error } : { result }) };
  if (record?.mode !== "redirect") {
    const opener = window.opener as Window | null;
    if (opener && !opener.closed) opener.postMessage(message, location.origin);
    else if (typeof BroadcastChannel === "function") {
      const channel = new BroadcastChannel(CHANNEL);
      channel.postMessage(message);
      channel.close();
    }
    if (opener || record?.mode === "popup") return window.close();
  }
  const events = attemptEvents({ target: opts.target ?? window, onEvent: opts.onEvent, state });
  if (error) return events.fail(error);
  events.emit(SSO_EVENTS.authenticated, { result });
  events.emit(SSO_EVENTS.close);
}

/**
 * The whole callback page in one call: posts { code, codeVerifier, state } as JSON to the developer's
 * exchange address, then completeSso with its answer.
 */
export async function handleSsoCallback(opts: { exchangeUrl: string; onEvent?: OnEvent }): Promise<unknown> {
  const params = new URLSearchParams(location.search);
  const state = params.get("state");
  const code = params.get("code");
  let result: unknown;
  if (code && state) {
    const codeVerifier = getSsoPkce(state);
    try {
      if (!codeVerifier) throw new Error("This sign-in was not started in this browser, or it has expired.");
      const res = await fetch(opts.exchangeUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({ code, codeVerifier, state }),
      });
      result = await res.json().catch(() => ({ error: "exchange_failed", error_description: `The exchange answered ${res.status}.` }));
      if (!res.ok && !errorMessage(result, new URLSearchParams())) result = { error: "exchange_failed", error_description: `The exchange answered ${res.status}.` };
    } catch (err) {
      result = err instanceof Error ? err : new Error(String(err));
    }
  }
  completeSso(result, { onEvent: opts.onEvent });
  return result;
}
