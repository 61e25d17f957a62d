// plainRoute: a route handler outside the /v1 contract (its own body format and answers, such as the
// MCP servers' JSON-RPC) that needs nothing of Next.js, so the API fast path serves it like a
// defineRoute handler (lib/http/node-dispatch.ts; the route manifest lists the files using it).

import { toWebResponse, webApiRequest, type Answer, type ApiRequest } from "./api-request";

type Handler = (req: Request) => Promise<Response>;

/** A handler that reads an ApiRequest and gives an Answer: the fast path calls `serve`, without web objects. */
type ApiHandler = (req: ApiRequest) => Promise<Answer>;

/** A handler the API fast path may serve; the app router serves it as any route handler. */
export type PlainRouteHandler<H extends Handler = Handler> = H & { readonly plainRoute: true };

export function plainRoute<H extends Handler>(handler: H): PlainRouteHandler<H> {
  const served = ((req: Request) => handler(req)) as H;
  const { serve } = handler as { serve?: ApiHandler };
  return Object.assign(served, { plainRoute: true as const }, serve ? { serve } : {});
}

/**
 * A plain handler written over an ApiRequest (the MCP servers): Next.js calls it with a web Request
 * and gets a Response; the fast path calls its `serve` with the Node request and writes its Answer.
 */
export function overApiRequest(handler: ApiHandler): Handler & { serve: ApiHandler } {
  return Object.assign(async (req: Request) => toWebResponse(await handler(webApiRequest(req))), { serve: handler });
}

export function isPlainRoute(value: unknown): value is PlainRouteHandler {
  return typeof value === "function" && (value as { plainRoute?: unknown }).plainRoute === true;
}
