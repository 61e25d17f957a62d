// Host-based routing: requests to a separately hosted MCP_URL or SIGN_IN_URL reach their mount; the
// development surfaces (/dev/*) do not exist outside development mode, whatever a page checks; and a
// /v1 path or method no route takes gets the API's JSON 404/405, not Next.js's page or empty 405.
import { NextResponse, type NextRequest } from "next/server";
import { developmentMode, env } from "./lib/env";
import { apiPathAnswer } from "./lib/http/api-routes";
import { rewriteForHost } from "./lib/http/hosts";

export function proxy(request: NextRequest) {
  const url = new URL(request.url);
  // Next.js reports the Host header through nextUrl; honour it so several hostnames can share one app.
  const host = request.headers.get("host");
  if (host) url.host = host;
  const target = rewriteForHost(url, env());
  if (isDevelopmentPath(target ?? url.pathname) && !developmentMode()) return new NextResponse("Not found", { status: 404, headers: { "content-type": "text/plain" } });
  if (!target) return apiPathAnswer(request.method, url.pathname) ?? NextResponse.next();
  const rewritten = request.nextUrl.clone();
  rewritten.pathname = target;
  return NextResponse.rewrite(rewritten);
}

/** /dev and everything under it: the outboxes, the stand-in consent page and the screen gallery. */
export function isDevelopmentPath(pathname: string): boolean {
  return pathname === "/dev" || pathname.startsWith("/dev/");
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
