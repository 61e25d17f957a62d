// Whose address the per-IP limits count: only the one the service's own server stamped on the request
// (lib/http/request.ts), computed from the connection and TRUSTED_PROXY_HOPS trusted proxies. A
// client-sent X-Forwarded-For or client-address header is never believed, and where no server of
// ours runs (`next dev`) proxy.ts drops the header, so every request counts as the one unknown client.
// Also: /dev/* answers only to the service's own host names (DNS rebinding).
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { DEVELOPMENT_HOST_REFUSED, developmentHostAllowed } from "@/lib/http/hosts";
import { CLIENT_IP_HEADER, clientAddressOf, clientIp, stampClientIp, UNKNOWN_CLIENT_IP } from "@/lib/http/request";
import { proxy } from "@/proxy";

/** The request headers proxy.ts hands on to the page or route (Next.js's override headers). */
function forwardedHeaders(res: Response): Record<string, string> | "unchanged" {
  const names = res.headers.get("x-middleware-override-headers");
  if (names === null) return "unchanged";
  return Object.fromEntries(
    names
      .split(",")
      .filter(Boolean)
      .map((n) => [n, res.headers.get(`x-middleware-request-${n}`) ?? ""]),
  );
}

describe("the client's address", () => {
  it("is never read from X-Forwarded-For: a request no server stamped is the unknown client", () => {
    expect(clientIp(new Request("http://localhost/", { headers: { "x-forwarded-for": "203.0.113.9" } }))).toBe(UNKNOWN_CLIENT_IP);
    expect(clientIp(new Request("http://localhost/", { headers: { "x-forwarded-for": "10.0.0.1, 203.0.113.9" } }))).toBe(UNKNOWN_CLIENT_IP);
    expect(clientIp(new Request("http://localhost/"))).toBe(UNKNOWN_CLIENT_IP);
    expect(clientIp(new Request("http://localhost/", { headers: { [CLIENT_IP_HEADER]: "not an address" } }))).toBe(UNKNOWN_CLIENT_IP);
    expect(clientIp(new Request("http://localhost/", { headers: { [CLIENT_IP_HEADER]: "2001:DB8::1" } }))).toBe("2001:db8::1");
  });

  it("is the socket's peer, or the entry the outermost of TRUSTED_PROXY_HOPS proxies appended", () => {
    const forwardedFor = "198.51.100.1, 198.51.100.2, 203.0.113.5";
    expect(clientAddressOf({ socketAddress: "127.0.0.1", forwardedFor, trustedHops: 0 })).toBe("127.0.0.1");
    expect(clientAddressOf({ socketAddress: "127.0.0.1", forwardedFor, trustedHops: 1 })).toBe("203.0.113.5");
    expect(clientAddressOf({ socketAddress: "127.0.0.1", forwardedFor, trustedHops: 2 })).toBe("198.51.100.2");
    expect(clientAddressOf({ socketAddress: "::ffff:127.0.0.1", forwardedFor: undefined, trustedHops: 0 })).toBe("::ffff:127.0.0.1");
    // A trusted proxy that wrote something other than an address: the unknown client, not the text.
    expect(clientAddressOf({ socketAddress: "127.0.0.1", forwardedFor: "evil", trustedHops: 1 })).toBe(UNKNOWN_CLIENT_IP);
    expect(clientAddressOf({ socketAddress: undefined, forwardedFor: undefined, trustedHops: 0 })).toBe(UNKNOWN_CLIENT_IP);
  });

  it("is dropped by proxy.ts, when no server of ours stamps requests (next dev), before any page or route reads it", () => {
    const res = proxy(new NextRequest("http://localhost:3000/sign-up", { headers: { [CLIENT_IP_HEADER]: "198.51.100.9", accept: "text/html" } }));
    const forwarded = forwardedHeaders(res);
    expect(forwarded).not.toBe("unchanged");
    expect(Object.keys(forwarded)).not.toContain(CLIENT_IP_HEADER);
    expect(forwarded).toMatchObject({ accept: "text/html" });
    // Nothing to drop: the request goes on as it came.
    expect(forwardedHeaders(proxy(new NextRequest("http://localhost:3000/sign-up")))).toBe("unchanged");
  });

  it("is stamped by the server over whatever header the client sent, and proxy.ts then leaves it", () => {
    const req = {
      headers: { [CLIENT_IP_HEADER]: "198.51.100.9", "x-forwarded-for": "198.51.100.9" } as Record<string, string | string[] | undefined>,
      socket: { remoteAddress: "203.0.113.20" },
    };
    stampClientIp(req, 0);
    expect(req.headers[CLIENT_IP_HEADER]).toBe("203.0.113.20");
    const res = proxy(new NextRequest("http://localhost:3000/sign-up", { headers: { [CLIENT_IP_HEADER]: "203.0.113.20" } }));
    expect(forwardedHeaders(res)).toBe("unchanged");
  });
});

describe("the development surfaces' host names", () => {
  it("are the configured hosts and this machine's own names, on any port", () => {
    const addresses = { BASE_URL: "https://api.example.com", SIGN_IN_URL: "https://signin.example.com", MCP_URL: "http://mcp.example.com:8080/mcp" };
    for (const host of ["api.example.com", "API.example.com", "signin.example.com", "mcp.example.com:8080", "localhost:3000", "localhost", "127.0.0.1:3000", "[::1]:3000"]) {
      expect(developmentHostAllowed(host, addresses), host).toBe(true);
    }
    for (const host of [
      null,
      "",
      "evil.example",
      "evil.example:3000",
      "api.example.com:444",
      "mcp.example.com",
      "localhost.evil.example",
      "192.168.1.20:3000",
      "evil.example/localhost",
      "localhost@evil.example",
    ]) {
      expect(developmentHostAllowed(host, addresses), String(host)).toBe(false);
    }
  });

  it("refuse /dev/* to any other Host header, in proxy.ts, before any page runs", async () => {
    const rebound = proxy(new NextRequest("http://localhost:3000/dev/outbox", { headers: { host: "evil.example:3000" } }));
    expect(rebound.status).toBe(421);
    expect(await rebound.text()).toBe(DEVELOPMENT_HOST_REFUSED);
    expect(proxy(new NextRequest("http://localhost:3000/dev/email-outbox", { headers: { host: "192.168.1.20:3000" } })).status).toBe(421);
    expect(proxy(new NextRequest("http://localhost:3000/dev/outbox", { headers: { host: new URL(env().BASE_URL).host } })).headers.get("x-middleware-next")).toBe("1");
    expect(proxy(new NextRequest("http://localhost:3000/dev/outbox", { headers: { host: "127.0.0.1:3000" } })).headers.get("x-middleware-next")).toBe("1");
    // Other paths are not development surfaces: any host name reaches them (the host-based routing decides).
    expect(proxy(new NextRequest("http://localhost:3000/", { headers: { host: "evil.example" } })).status).toBe(200);
  });
});
