// The five sign-in events, always in this order for one attempt: start, open, then authenticated or
// error, then close. Each is a CustomEvent (bubbling) and is also handed to onEvent.

export const SSO_EVENTS = {
  start: "service:sso-start",
  open: "service:sso-open",
  authenticated: "service:sso-authenticated",
  error: "service:sso-error",
  close: "service:sso-close",
} as const;

export type SsoEventName = (typeof SSO_EVENTS)[keyof typeof SSO_EVENTS];

export interface SsoEventDetail {
  state?: string;
  /** service:sso-authenticated: what the developer's server answered for the exchange. */
  result?: unknown;
  /** service:sso-error: what went wrong, in words a person can read. */
  message?: string;
  /** service:sso-open: "popup" or "redirect". */
  mode?: "popup" | "redirect";
}

export type OnEvent = (name: SsoEventName, detail: SsoEventDetail) => void;

const ORDER: Record<SsoEventName, number> = {
  [SSO_EVENTS.start]: 0,
  [SSO_EVENTS.open]: 1,
  [SSO_EVENTS.authenticated]: 2,
  [SSO_EVENTS.error]: 2,
  [SSO_EVENTS.close]: 3,
};

/**
 * One attempt's events: an event earlier in the order than one already sent is dropped, the outcome
 * (authenticated or error) is sent once, and close ends the attempt.
 */
export function attemptEvents(opts: { target?: EventTarget | null; onEvent?: OnEvent; state?: string }) {
  let reached = -1;
  const emit = (name: SsoEventName, detail: SsoEventDetail = {}) => {
    const step = ORDER[name];
    if (step <= reached) return false;
    reached = step;
    const full: SsoEventDetail = { state: opts.state, ...detail };
    if (opts.target && typeof CustomEvent === "function") {
      opts.target.dispatchEvent(new CustomEvent(name, { detail: full, bubbles: true, composed: true }));
    }
    try {
      opts.onEvent?.(name, full);
    } catch (err) {
      setTimeout(() => {
        throw err;
      });
    }
    return true;
  };
  return {
    emit,
    /** Ends the attempt with an error, then close. */
    fail(message: string) {
      emit(SSO_EVENTS.error, { message });
      emit(SSO_EVENTS.close);
    },
    get closed() {
      return reached >= 3;
    },
  };
}
