// Provider requests on the wire (lib/connectors/apis/transport.ts, under providerFetch): kept
// connections, a kept socket the provider closed, time-outs, oversized answers and redirects, against
// a local HTTP server that counts its connections and misbehaves on purpose.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderFailure, providerFetch } from "@/lib/connectors/apis/http";
import { PROVIDER_MAX_ANSWER_BYTES } from "@/lib/connectors/apis/transport";

let server: http.Server;
let base: string;
let connections = 0;
/** Requests each socket has carried, by socket. */
const carried = new WeakMap<object, number>();
/** Paths whose next request on a reused socket is cut off without an answer. */
const cutOnReuse = new Set<string>();
const seen: Array<{ method: string; path: string; authorization?: string; body: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const n = (carried.get(req.socket) ?? 0) + 1;
    carried.set(req.socket, n);
    const url = new URL(req.url ?? "/", "http://x");
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", path: url.pathname, authorization: req.headers.authorization, body });
      if (n > 1 && cutOnReuse.has(url.pathname)) {
        cutOnReuse.delete(url.pathname);
        return req.socket.destroy();
      }
      if (url.pathname === "/silent") return;
      if (url.pathname === "/huge") {
        res.writeHead(200, { "content-type": "application/json" });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        for (let i = 0; i <= PROVIDER_MAX_ANSWER_BYTES / chunk.length; i++) res.write(chunk);
        return res.end();
      }
      if (url.pathname === "/moved") {
        res.writeHead(302, { location: `${base}/ok` });
        return res.end();
      }
      if (url.pathname === "/limited") {
        res.writeHead(429, { "retry-after": "7" });
        return res.end("{}");
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ path: url.pathname, method: req.method, body: body ? JSON.parse(body) : null }));
    });
  });
  server.on("connection", () => connections++);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("provider requests", () => {
  it("reuse one kept connection for requests one after another, and send the token and JSON body", async () => {
    const before = connections;
    for (let i = 0; i < 5; i++) expect(await providerFetch("gmail", "tok-1", { url: `${base}/ok` })).toEqual({ path: "/ok", method: "GET", body: null });
    expect(await providerFetch("gmail", "tok-1", { method: "POST", url: `${base}/made`, json: { a: 1 } })).toEqual({ path: "/made", method: "POST", body: { a: 1 } });
    expect(connections - before).toBe(1);
    expect(seen.at(-1)).toMatchObject({ method: "POST", path: "/made", authorization: "Bearer tok-1", body: '{"a":1}' });
  });

  it("send a GET again on a new connection when the provider had closed the kept one, and only once", async () => {
    await providerFetch("drive", "tok", { url: `${base}/ok` });
    cutOnReuse.add("/again");
    const count = seen.length;
    expect(await providerFetch("drive", "tok", { url: `${base}/again` })).toMatchObject({ path: "/again" });
    expect(seen.slice(count).map((r) => r.path)).toEqual(["/again", "/again"]);
  });

  it("never send a POST twice: a cut connection is an ambiguous failure", async () => {
    await providerFetch("gmail", "tok", { url: `${base}/ok` });
    cutOnReuse.add("/send");
    const count = seen.length;
    const err = await providerFetch("gmail", "tok", { method: "POST", url: `${base}/send`, json: { to: "x" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderFailure);
    expect(err).toMatchObject({ status: 0, ambiguous: true, message: "gmail: the provider could not be reached" });
    expect(seen.slice(count).map((r) => r.path)).toEqual(["/send"]);
  });

  it("end a request the provider does not answer when its signal ends, as a time-out", async () => {
    const started = performance.now();
    const err = await providerFetch("notion", "tok", { url: `${base}/silent`, signal: AbortSignal.timeout(200) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "ProviderFailure", status: 0, ambiguous: false, message: "notion: the provider did not answer in time" });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("refuse an answer over the size limit, follow no redirect, and pass a rate limit's wait on", async () => {
    await expect(providerFetch("drive", "tok", { url: `${base}/huge` })).rejects.toMatchObject({
      name: "ProviderFailure",
      message: `drive: the answer is over ${PROVIDER_MAX_ANSWER_BYTES} bytes`,
    });
    await expect(providerFetch("drive", "tok", { url: `${base}/moved` })).rejects.toMatchObject({ name: "ProviderFailure", status: 302, ambiguous: false });
    await expect(providerFetch("drive", "tok", { url: `${base}/limited` })).rejects.toMatchObject({ name: "ProviderRateLimited", retryAfter: 7 });
    // The connection is still usable after each.
    expect(await providerFetch("drive", "tok", { url: `${base}/ok` })).toMatchObject({ path: "/ok" });
  });

  it("answer 'could not be reached' for a host that refuses connections", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(providerFetch("gmail", "tok", { url: `http://127.0.0.1:${port}/x` })).rejects.toMatchObject({
      name: "ProviderFailure",
      status: 0,
      ambiguous: false,
      message: "gmail: the provider could not be reached",
    });
  });
});
