// Host-based routing: requests to a separately hosted MCP_URL or SIGN_IN_URL reach their mount.
import { NextResponse, type NextRequest } from "next/server";
import { env } from "./lib/env";
import { rewriteForHost } from "./lib/http/hosts";

export function proxy(request: NextRequest) {
  const url = new URL(request.url);
  // Next.js reports the Host header through nextUrl; honour it so several hostnames can share one app.
  const host = request.headers.get("host");
  if (host) url.host = host;
  const target = rewriteForHost(url, env());
  if (!target) return NextResponse.next();
  const rewritten = request.nextUrl.clone();
  rewritten.pathname = target;
  return NextResponse.rewrite(rewritten);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
