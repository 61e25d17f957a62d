// Server actions posted from another site. A server action is a POST to a page that anyone can aim a
// form at; the framework refuses one whose Origin is not the page's host, but answers 500. proxy.ts
// answers them 403 here first (this module imports nothing of the request scope, so the proxy can).

/** What a cross-origin action POST is told (text/plain), and what a refused call's problem says. */
export const CROSS_ORIGIN_ACTION_MESSAGE = "Forms of this service can only be sent from its own pages.";

/** What the server actions' contract (lib/actions/define-action.ts) answers a refused call; kept here, free of the request scope. */
export const ACTION_MESSAGES = {
  invalidArguments: "This form was sent with values it does not take. Reload the page and try again.",
  crossOrigin: CROSS_ORIGIN_ACTION_MESSAGE,
} as const;

/** Whether the request came from another site (an Origin that is not this host), as the framework compares them. */
export function isCrossOrigin(origin: string | null, host: string | null): boolean {
  if (origin === null) return false;
  if (!host) return true;
  try {
    return origin === "null" || new URL(origin).host.toLowerCase() !== host.toLowerCase();
  } catch {
    return true;
  }
}

/** The host a request was addressed to: the first forwarded host when a proxy set one, else Host. */
export function requestHost(h: Headers): string | null {
  return h.get("x-forwarded-host")?.split(",")[0]?.trim() || h.get("host");
}

/**
 * The answer to a cross-origin server action POST (a fetch action's Next-Action header, or a form
 * posted as multipart/form-data, which is how a page's form reaches its action without JavaScript):
 * 403, before the framework would answer it 500. Null for anything else.
 */
export function crossOriginAction(req: Request): Response | null {
  if (req.method !== "POST") return null;
  const type = req.headers.get("content-type") ?? "";
  if (!req.headers.has("next-action") && !/^multipart\/form-data\b/i.test(type)) return null;
  if (!isCrossOrigin(req.headers.get("origin"), requestHost(req.headers))) return null;
  return new Response(CROSS_ORIGIN_ACTION_MESSAGE, { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
