// The API fast path: serves defineRoute and plainRoute handlers (the JSON API, the MCP servers)
// straight from node:http, without the page pipeline. Next.js spends about a millisecond of main-thread
// time per request before a route handler runs (docs/performance.md); these handlers need none of it.
// scripts/server.mjs hands every request here first and passes the rest (pages, assets, other
// handlers) on. scripts/build-api.mjs bundles the route files the route manifest puts on the fast path.
import type { IncomingMessage, ServerResponse } from "node:http";
import { apiPathError, isApiPath } from "./api-routes";
import { JsonAnswer, nodeApiRequest, type Answer } from "./api-request";
import type { RouteHandler } from "./define-route";
import { FRAME_DENY_HEADERS } from "./html";
import { isPlainRoute } from "./plain-route";
import { isCatchAll, pathOfFile } from "./route-manifest";
import { PathTable } from "./route-match";

/**
 * A route module the fast path may serve: named by its file, whose path the route manifest gives
 * ("app/v1/import/jobs/[jobId]/route.ts"), or by its path ("/v1/things/[thingId]", a module of a test).
 */
export type RouteModule = ({ file: string } | { path: string }) & { module: Record<string, unknown> };

/** A handler the fast path serves: a defineRoute contract, or a plainRoute handler (which takes no params). */
type ServedHandler = RouteHandler | ((req: Request, ctx?: { params?: Promise<Record<string, string>> }) => Promise<Response>);

// HEAD only where a route exports a handler for it (the SDK files, whose HEAD gives their size): Next.js
// answers HEAD for the rest, and drops the Content-Length a handler sets.
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

function isServedHandler(value: unknown): value is ServedHandler {
  return (typeof value === "function" && "meta" in value) || isPlainRoute(value);
}

/** A handler the fast path can call with an ApiRequest: a contract, or a plain handler written over one. */
function servesApiRequest(handler: ServedHandler): handler is ServedHandler & Pick<RouteHandler, "serve"> {
  return "serve" in handler;
}

function pathOf(route: RouteModule): string {
  if ("path" in route) return route.path;
  const path = pathOfFile(route.file);
  if (path === undefined) throw new Error(`${route.file} is not in the route manifest: run \`node scripts/route-manifest.mjs\`.`);
  return path;
}

export class ApiRouter {
  private readonly table = new PathTable<Map<string, ServedHandler>>();

  constructor(routes: readonly RouteModule[]) {
    for (const route of routes) {
      const handlers = new Map<string, ServedHandler>();
      for (const method of METHODS) {
        const h = route.module[method];
        if (isServedHandler(h)) handlers.set(method, h);
      }
      if (handlers.size === 0) continue;
      const path = pathOf(route);
      // Catch-all segments stay with the app router, which knows their precedence rules.
      if (!isCatchAll(path)) this.table.add(path, handlers);
    }
  }

  get size(): number {
    return this.table.size;
  }

  /**
   * The handler for a method and path, with its path parameters; the methods the path does take when
   * it is known but not for this method; null when no route owns the path.
   */
  match(method: string, pathname: string): { handler: ServedHandler; params: Record<string, string> } | { allow: string[] } | null {
    const found = this.table.match(pathname);
    if (!found) return null;
    const handler = found.value.get(method);
    return handler ? { handler, params: found.params } : { allow: [...found.value.keys()] };
  }
}

// No answer of the service may be framed, the API's included (next.config.mjs sets the same on pages).
const FRAME_DENY = Object.entries(FRAME_DENY_HEADERS).map(([k, v]) => [k.toLowerCase(), v] as const);

function answerHeaders(req: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of FRAME_DENY) headers[name] = value;
  // A request answered before its body was read (413, say) leaves the connection unusable.
  if (!req.complete) headers.connection = "close";
  return headers;
}

async function writeResponse(req: IncomingMessage, res: ServerResponse, answer: Answer): Promise<void> {
  const headers = answerHeaders(req);
  if (answer instanceof JsonAnswer) {
    // Written as serialized: no web Response is made, and no body read back out of one.
    answer.headers.forEach((value, name) => {
      if (name !== "connection") headers[name] = value;
    });
    if (answer.text === null) {
      res.writeHead(answer.status, headers).end();
      return;
    }
    headers["content-length"] = String(Buffer.byteLength(answer.text));
    res.writeHead(answer.status, headers).end(answer.text);
    return;
  }
  const response = answer;
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie" && name !== "connection") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  if (!response.body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  const body = Buffer.from(await response.arrayBuffer());
  headers["content-length"] = String(body.byteLength);
  res.writeHead(response.status, headers).end(body);
}

/**
 * Serves the request when a defineRoute or plainRoute handler owns its method and path; returns false,
 * having touched nothing, when it does not.
 */
export async function dispatch(router: ApiRouter, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const method = req.method ?? "GET";
  const rawUrl = req.url ?? "/";
  const q = rawUrl.indexOf("?");
  const pathname = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const found = router.match(method, pathname);
  if (!found || "allow" in found) {
    // The /v1 API answers its own unknown paths and methods in its JSON error shape; everything else
    // (pages, /oauth, preflights, HEAD) is Next.js's to answer.
    if (!isApiPath(pathname) || method === "OPTIONS" || method === "HEAD") return false;
    await writeResponse(req, res, apiPathError(found && "allow" in found ? found.allow : null));
    return true;
  }
  const host = req.headers.host ?? "localhost";
  const proto = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  let response: Answer;
  try {
    const request = await nodeApiRequest(req, `${proto}://${host}`);
    const { handler, params } = found;
    response = servesApiRequest(handler) ? await handler.serve(request, params) : await handler(request.web(), { params: Promise.resolve(params) });
  } catch {
    // The handlers answer every error themselves; this is only reached for an unreadable request.
    response = Response.json({ error: { code: "invalid_request", message: "The request could not be read." } }, { status: 400 });
  }
  await writeResponse(req, res, response);
  return true;
}
