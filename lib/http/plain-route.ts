// plainRoute: a route handler outside the /v1 contract (its own body format and answers, such as the
// MCP servers' JSON-RPC) that needs nothing of Next.js, so the API fast path serves it like a
// defineRoute handler (lib/http/node-dispatch.ts; the route manifest lists the files using it).

type Handler = (req: Request) => Promise<Response>;

/** A handler the API fast path may serve; the app router serves it as any route handler. */
export type PlainRouteHandler<H extends Handler = Handler> = H & { readonly plainRoute: true };

export function plainRoute<H extends Handler>(handler: H): PlainRouteHandler<H> {
  const served = ((req: Request) => handler(req)) as H;
  return Object.assign(served, { plainRoute: true as const });
}

export function isPlainRoute(value: unknown): value is PlainRouteHandler {
  return typeof value === "function" && (value as { plainRoute?: unknown }).plainRoute === true;
}
