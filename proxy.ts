// Host-based routing: requests to a separately hosted MCP_URL or SIGN_IN_URL reach their mount; the
// development surfaces (/dev/*) do not exist outside development mode, whatever a page checks, and
// inside it answer only at the service's own hosts; a /v1 path or method no route takes gets the
// API's JSON 404/405, not Next.js's page or empty 405; and where no server of ours stamps the
// client's address (`next dev`), a client-sent one is dropped.
import { NextResponse, type NextRequest } from "next/server";
import { developmentMode, env } from "./lib/env";
import { apiPathAnswer } from "./lib/http/api-routes";
import { crossOriginAction } from "./lib/http/action-origin";
import { DEVELOPMENT_HOST_REFUSED, developmentHostAllowed, rewriteForHost } from "./lib/http/hosts";
import { CLIENT_IP_HEADER, clientIpStampedByServer } from "./lib/http/request";

export function proxy(request: NextRequest) {
  // A server action posted from another site: 403 here, where the framework would answer 500.
  const crossOrigin = crossOriginAction(request);
  if (crossOrigin) return crossOrigin;
  const url = new URL(request.url);
  // Next.js reports the Host header through nextUrl; honour it so several hostnames can share one app.
  const host = request.headers.get("host");
  if (host) url.host = host;
  const target = rewriteForHost(url, env());
  if (isDevelopmentPath(target ?? url.pathname)) {
    if (!developmentMode()) return new NextResponse("Not found", { status: 404, headers: { "content-type": "text/plain" } });
    if (!developmentHostAllowed(host ?? url.host, env())) return new NextResponse(DEVELOPMENT_HOST_REFUSED, { status: 421, headers: { "content-type": "text/plain" } });
  }
  const forward = withoutForgedClientIp(request);
  if (!target) return apiPathAnswer(request.method, url.pathname) ?? NextResponse.next(forward);
  const rewritten = request.nextUrl.clone();
  rewritten.pathname = target;
  return NextResponse.rewrite(rewritten, forward);
}

/**
 * Under scripts/server.mjs the client-address header is the server's own (lib/http/request.ts); with
 * no such server (`next dev`) nothing can tell a real one from a forged one, so it goes, and every
 * request counts as the one unknown client.
 */
function withoutForgedClientIp(request: NextRequest): { request: { headers: Headers } } | undefined {
  if (clientIpStampedByServer() || !request.headers.has(CLIENT_IP_HEADER)) return undefined;
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_IP_HEADER);
  return { request: { headers } };
}

/** /dev and everything under it: the outboxes, the stand-in consent page and the screen gallery. */
export function isDevelopmentPath(pathname: string): boolean {
  return pathname === "/dev" || pathname.startsWith("/dev/");
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
