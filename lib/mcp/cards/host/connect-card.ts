// The connect card's behaviour in its page: fills the card's markup (the slots its HTML names) from
// the connect result and the call's arguments, watches the link until it is approved or expires,
// and keeps the expiry current. Untrusted text goes in as text, never as markup.
import {
  absoluteExpiry,
  cardText,
  readConnectLinkInput,
  readConnectLinkResult,
  relativeExpiry,
  statusLine,
  type ConnectLinkInput,
  type ConnectLinkResult,
  type LinkState,
  type ToolResultLike,
} from "./model";
import { watchLink } from "./status-poll";

/** What the card asks of the host (through the MCP Apps bridge). */
export interface CardHost {
  /** Opens the link through the host; false when the host cannot (the card then opens it itself). */
  openLink?: (url: string) => Promise<boolean>;
  /** Calls service_connect again with the same arguments, for a new link; absent when the host cannot. */
  renew?: (args: Record<string, unknown>) => Promise<ToolResultLike>;
  /** Tells the conversation the link was approved. */
  approved?: (result: ConnectLinkResult) => void;
}

type View = { kind: "loading" } | { kind: "failed"; message: string } | { kind: "cancelled" } | { kind: "link"; result: ConnectLinkResult; state: LinkState; retrying: boolean };

const PILL: Record<string, string> = {
  loading: "Preparing",
  failed: "Not created",
  cancelled: "Cancelled",
  pending: "Waiting",
  approved: "Approved",
  expired: "Expired",
  unknown: "Not valid",
};

export interface ConnectCard {
  setInput(args: Record<string, unknown> | undefined): void;
  setResult(result: ToolResultLike): void;
  setCancelled(): void;
  setFormat(format: { locale?: string; timeZone?: string }): void;
  setHost(host: CardHost): void;
  destroy(): void;
}

export function mountConnectCard(root: HTMLElement, linkPrefix: string): ConnectCard {
  const slot = <T extends HTMLElement = HTMLElement>(name: string) => {
    const el = root.querySelector<T>(`[data-slot="${name}"]`);
    if (!el) throw new Error(`The card has no ${name} slot.`);
    return el;
  };
  let view: View = { kind: "loading" };
  let rawArgs: Record<string, unknown> = {};
  let input: ConnectLinkInput = {};
  let format: { locale?: string; timeZone?: string } = {};
  let host: CardHost = {};
  let stopWatching: (() => void) | undefined;
  let renewing = false;
  const ticker = setInterval(() => renderExpiry(), 1_000);

  const setText = (el: HTMLElement, text: string) => {
    if (el.textContent !== text) el.textContent = text;
  };
  const show = (el: HTMLElement, visible: boolean) => {
    el.hidden = !visible;
  };

  /** The link's text, breakable after each slash (text nodes only: it is never parsed as markup). */
  function showUrl(el: HTMLElement, text: string) {
    if (el.textContent === text) return;
    const parts = text.split("/");
    el.replaceChildren(
      ...parts.flatMap((part, i) => (i < parts.length - 1 ? [document.createTextNode(`${part}/`), document.createElement("wbr")] : [document.createTextNode(part)])),
    );
  }

  function renderExpiry() {
    if (view.kind !== "link") return;
    const expiresAt = new Date(view.result.expires_at);
    const now = new Date();
    const past = expiresAt.getTime() <= now.getTime();
    setText(slot("expiry-label"), past ? "Expired" : "Expires");
    setText(slot("expires-relative"), relativeExpiry(expiresAt, now, format.locale));
    const at = slot<HTMLTimeElement>("expires-at");
    at.dateTime = view.result.expires_at;
    setText(at, absoluteExpiry(expiresAt, now, format));
  }

  function render() {
    const state = view.kind === "link" ? view.state : view.kind;
    root.dataset.state = state;
    root.setAttribute("aria-busy", String(view.kind === "loading"));
    setText(slot("pill"), PILL[state] ?? "");

    if (view.kind !== "link") {
      setText(slot("title"), view.kind === "loading" ? "Preparing your link…" : view.kind === "cancelled" ? "No link this time" : "The link could not be created");
      setText(slot("lead"), view.kind === "failed" ? view.message : view.kind === "cancelled" ? "The request was cancelled before a link was made." : "");
      show(slot("lead"), view.kind !== "loading");
      show(slot("action"), false);
      show(slot("details"), false);
      show(slot("renew"), false);
      setText(slot("status"), statusLine(view.kind));
      return;
    }

    const text = cardText(view.result, input, view.state, { canRenew: !!host.renew });
    setText(slot("title"), text.title);
    setText(slot("lead"), text.lead);
    show(slot("lead"), true);

    show(slot("action"), view.state === "pending");
    slot<HTMLAnchorElement>("link").href = view.result.connect_url;
    showUrl(slot("url"), view.result.connect_url.replace(/^https?:\/\//, ""));

    show(slot("details"), true);
    for (const [name, value] of [
      ["app", text.app],
      ["permission", text.permission],
      ["purpose", text.purpose],
    ] as const) {
      setText(slot(name), value ?? "");
      show(slot(`${name}-row`), !!value);
    }
    show(slot("expiry-row"), view.state === "pending" || view.state === "expired");
    renderExpiry();

    const ended = view.state === "expired" || view.state === "unknown";
    const renew = slot<HTMLButtonElement>("renew");
    show(renew, ended && !!host.renew);
    renew.disabled = renewing;
    setText(renew, renewing ? "Getting a new link…" : "Get a new link");
    setText(slot("status"), statusLine(view.state, { retrying: view.retrying }));
  }

  function watch(result: ConnectLinkResult) {
    stopWatching?.();
    stopWatching = watchLink({
      connectLinkUrl: result.connect_url,
      expiresAt: new Date(result.expires_at),
      onState: (state, { retrying }) => {
        if (view.kind !== "link" || view.result !== result) return;
        const wasApproved = view.state === "approved";
        view = { ...view, state, retrying };
        render();
        if (state === "approved" && !wasApproved) host.approved?.(result);
      },
    });
  }

  slot<HTMLAnchorElement>("link").addEventListener("click", (event) => {
    if (view.kind !== "link" || !host.openLink) return;
    event.preventDefault();
    const url = view.result.connect_url;
    void host.openLink(url).then(
      (opened) => {
        if (!opened) window.open(url, "_blank", "noopener,noreferrer");
      },
      () => window.open(url, "_blank", "noopener,noreferrer"),
    );
  });

  slot<HTMLButtonElement>("renew").addEventListener("click", () => {
    if (!host.renew || renewing) return;
    renewing = true;
    render();
    host.renew(rawArgs).then(
      (result) => {
        renewing = false;
        card.setResult(result);
      },
      () => {
        renewing = false;
        view = { kind: "failed", message: "A new link could not be created. Ask the assistant for one." };
        render();
      },
    );
  });

  const card: ConnectCard = {
    setInput(args) {
      rawArgs = { ...(args ?? {}) };
      input = readConnectLinkInput(args);
      render();
    },
    setResult(result) {
      const read = readConnectLinkResult(result, linkPrefix);
      stopWatching?.();
      if (!read.ok) {
        view = { kind: "failed", message: read.message };
      } else {
        view = { kind: "link", result: read.result, state: "pending", retrying: false };
        watch(read.result);
      }
      render();
    },
    setCancelled() {
      if (view.kind !== "loading") return;
      view = { kind: "cancelled" };
      render();
    },
    setFormat(next) {
      format = { ...format, ...next };
      renderExpiry();
    },
    setHost(next) {
      host = next;
      render();
    },
    destroy() {
      stopWatching?.();
      clearInterval(ticker);
    },
  };
  render();
  return card;
}
