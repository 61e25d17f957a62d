// Watches a connect link from the card: GET <connect_url>/status until it reads approved, expired or
// unknown. Often at first, then less; paused while the card is hidden; at once when the person comes
// back to the conversation (they usually finish in another tab).
import { LINK_STATUSES } from "../../../connect-links/statuses";
import { pollDelayMs, type LinkState } from "./model";

export interface WatchOptions {
  connectLinkUrl: string;
  expiresAt: Date;
  /** Called with every answer; retrying is true after several failed attempts in a row. */
  onState: (state: LinkState, info: { retrying: boolean }) => void;
}

/** Failed attempts in a row before the card says it cannot check the link. */
const FAILURES_SHOWN = 3;

/** Starts watching; the returned function stops it. */
export function watchLink({ connectLinkUrl, expiresAt, onState }: WatchOptions): () => void {
  const statusUrl = `${connectLinkUrl}/status`;
  const started = Date.now();
  let stopped = false;
  let inFlight = false;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = () => {
    clearTimeout(timer);
    // The service's clock decides expiry: ask again just after expires_at so the card turns with it.
    const untilExpiry = expiresAt.getTime() - Date.now() + 1_000;
    const delay = Math.max(500, untilExpiry > 0 ? Math.min(pollDelayMs(Date.now() - started, failures), untilExpiry) : pollDelayMs(Date.now() - started, failures));
    timer = setTimeout(() => void check(), delay);
  };

  const check = async () => {
    if (stopped || inFlight) return;
    if (document.visibilityState === "hidden") return; // resumed by visibilitychange
    inFlight = true;
    let state: LinkState;
    try {
      const res = await fetch(statusUrl, { cache: "no-store", credentials: "omit", headers: { accept: "application/json" } });
      if (res.status === 404) state = "unknown";
      else if (!res.ok) throw new Error(`status ${res.status}`);
      else {
        const body = (await res.json()) as { status?: unknown };
        if (!(LINK_STATUSES as readonly unknown[]).includes(body.status)) throw new Error("unexpected answer");
        state = body.status as LinkState;
      }
      failures = 0;
    } catch {
      failures += 1;
      inFlight = false;
      if (stopped) return;
      onState("pending", { retrying: failures >= FAILURES_SHOWN });
      schedule();
      return;
    }
    inFlight = false;
    if (stopped) return;
    onState(state, { retrying: false });
    if (state === "pending") schedule();
    else stop();
  };

  const now = () => {
    if (document.visibilityState === "visible") void check();
  };
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener("visibilitychange", now);
    window.removeEventListener("focus", now);
  };

  document.addEventListener("visibilitychange", now);
  window.addEventListener("focus", now);
  void check();
  return stop;
}
