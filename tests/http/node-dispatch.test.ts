// The API fast path (lib/http/node-dispatch.ts) over a real node:http server: it serves exactly the
// defineRoute and plainRoute handlers, with their params, bodies and headers, and leaves every other
// request alone.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoute } from "@/lib/api-edge/define-route";
import { NextRequest } from "next/server";
import { MESSAGES } from "@/lib/http/errors";
import { FRAME_DENY_HEADERS } from "@/lib/http/html";
import { apiMethodsFor } from "@/lib/http/api-routes";
import { ApiRouter, dispatch } from "@/lib/http/node-dispatch";
import { ROUTES } from "@/lib/http/route-manifest";
import { proxy } from "@/proxy";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";

const echo = defineRoute({
  method: "POST",
  path: "/v1/things/:thingId/echo",
  summary: "Echoes the path parameter, the body's text and the q query parameter.",
  responses: { 201: z.strictObject({ thing: z.string(), text: z.string(), query: z.string().nullable() }) },
  auth: { key: "none", agent: false, user: "none" },
  body: z.object({ text: z.string() }),
  handler: async ({ params, body, req }) => ({
    status: 201,
    body: { thing: params.thingId, text: body.text, query: new URL(req.url).searchParams.get("q") },
    headers: { "x-extra": "1" },
  }),
});
const cookie = defineRoute({
  method: "GET",
  path: "/v1/cookie",
  summary: "Sets two cookies.",
  responses: { 200: z.strictObject({ ok: z.literal(true) }) },
  auth: { key: "none", agent: false, user: "none" },
  handler: async () => {
    const res = Response.json({ ok: true });
    res.headers.append("set-cookie", "a=1; Path=/");
    res.headers.append("set-cookie", "b=2; Path=/");
    return res;
  },
});

const capped = defineRoute({
  method: "POST",
  path: "/v1/capped",
  summary: "Takes a JSON body of at most 16 bytes; answers with no body.",
  responses: { 204: null },
  auth: { key: "none", agent: false, user: "none" },
  body: z.object({ n: z.number() }),
  bodyLimit: 16,
  handler: async () => ({ status: 204 }),
});

// The glob passes over dot-folders: /.well-known is named on its own.
const appModules = {
  ...import.meta.glob<Record<string, unknown>>("../../app/**/route.ts", { eager: true }),
  ...import.meta.glob<Record<string, unknown>>("../../app/.well-known/**/route.ts", { eager: true }),
};
const modules = [
  ...Object.entries(appModules).map(([file, module]) => ({ file: file.replace(/^(\.\.\/)+/, ""), module })),
  { path: "/v1/things/[thingId]/echo", module: { POST: echo } },
  { path: "/v1/cookie", module: { GET: cookie, OPTIONS: () => new Response(null) } },
  { path: "/plain", module: { GET: () => new Response("plain") } },
  { path: "/v1/capped", module: { POST: capped } },
];
const router = new ApiRouter(modules);

let server: Server;
let base: string;
let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
  server = createServer((req, res) => {
    void dispatch(router, req, res).then((served) => {
      if (!served) res.writeHead(299, { "content-type": "text/plain" }).end("fell through");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the router", () => {
  it("serves every route the manifest puts on the fast path, each file at the manifest's path", () => {
    const onFastPath = ROUTES.filter((r) => r.fastPath);
    expect(onFastPath.length).toBeGreaterThanOrEqual(60);
    for (const route of onFastPath) {
      const found = router.match(route.method, route.path.replace(/\[([^\]]+)\]/g, "sample-$1"));
      expect(found && "handler" in found, `${route.method} ${route.path}`).toBe(true);
    }
    expect(() => new ApiRouter([{ file: "app/nowhere/route.ts", module: { GET: echo } }])).toThrow(/route manifest/);
  });
});

describe("dispatch", () => {
  it("serves a real route with its auth, and the answer matches the handler's", async () => {
    const res = await fetch(`${base}/v1/profile?sections=identity`, { headers: liveHeaders(t) });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("connection")).toBe("keep-alive");
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["identity", "linked", "livemode"]);
    const unauth = await fetch(`${base}/v1/profile`, { headers: { "x-api-key": t.keys.revoked } });
    expect(unauth.status).toBe(401);
  });

  it("answers as the route answers Next.js: the same status, headers and body, though no web Response is made", async () => {
    const profile = appModules["../../app/v1/profile/route.ts"]!.GET as (req: Request) => Promise<Response>;
    const fast = await fetch(`${base}/v1/profile?sections=identity,summary`, { headers: liveHeaders(t) });
    const viaNext = await profile(new Request(`${base}/v1/profile?sections=identity,summary`, { headers: liveHeaders(t) }));
    expect(fast.status).toBe(viaNext.status);
    for (const name of ["content-type", "cache-control"]) expect(fast.headers.get(name), name).toBe(viaNext.headers.get(name));
    expect(fast.headers.get("content-type")).toBe("application/json");
    const text = await fast.text();
    expect(fast.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toEqual(await viaNext.json());
    // An answer without a body: no Content-Type, and no body.
    const empty = await fetch(`${base}/v1/capped`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ n: 1 }) });
    expect(empty.status).toBe(204);
    expect(empty.headers.get("content-type")).toBeNull();
    expect(empty.headers.get("cache-control")).toBe("no-store");
    expect(await empty.text()).toBe("");
  });

  it("holds a route's own body cap on a small body read whole: 413 with the cap, the handler not run", async () => {
    const over = await fetch(`${base}/v1/capped`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ n: 123456789012 }) });
    expect(over.status).toBe(413);
    const body = await over.json();
    expect(body.error).toMatchObject({ code: "payload_too_large", limit_bytes: 16 });
  });

  it("passes path parameters, the query string and the JSON body through", async () => {
    const res = await fetch(`${base}/v1/things/a%20b/echo?q=x`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "héllo" }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-extra")).toBe("1");
    expect(await res.json()).toEqual({ thing: "a b", text: "héllo", query: "x" });
  });

  it("keeps several Set-Cookie headers apart", async () => {
    const res = await fetch(`${base}/v1/cookie/`);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("answers a body over the cap with 413 and malformed JSON with 400, as the app router would", async () => {
    const big = await fetch(`${base}/v1/things/x/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "x".repeat(1024 * 1024 + 10) }),
    });
    expect(big.status).toBe(413);
    // The unread rest of the body makes the connection unusable: the client is told not to reuse it.
    expect(big.headers.get("connection")).toBe("close");
    const bad = await fetch(`${base}/v1/things/x/echo`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("invalid_json");
  });

  it("serves plainRoute handlers too: the developer MCP server answers JSON-RPC with its request id", async () => {
    const read = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "service_profile_read", arguments: { sections: ["summary"] } } };
    const res = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: liveHeaders(t, { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" }),
      body: JSON.stringify(read),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.headers.get("x-frame-options")).toBe(FRAME_DENY_HEADERS["X-Frame-Options"]);
    const answer = await res.json();
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: 7, result: { structuredContent: { linked: true, livemode: true } } });
    expect(answer.result.isError).toBeUndefined();
    for (const method of ["GET", "DELETE"]) {
      const refused = await fetch(`${base}/mcp`, { method });
      expect([refused.status, refused.headers.get("allow")], method).toEqual([405, "POST"]);
    }
    // A method no handler takes is the app router's to answer, as for any path outside /v1.
    expect((await fetch(`${base}/mcp`, { method: "PUT" })).status).toBe(299);
  });

  it("leaves pages, preflights and handlers not made by defineRoute or plainRoute to the app router", async () => {
    for (const [method, path] of [
      ["GET", "/"],
      ["OPTIONS", "/v1/cookie"],
      ["GET", "/plain"],
      ["POST", "/plain"],
    ] as const) {
      const res = await fetch(`${base}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(299);
    }
  });

  it("answers unknown /v1 paths with 404 not_found and wrong methods with 405 and Allow, in the /v1 JSON shape", async () => {
    for (const path of ["/v1/nothing-here", "/v1", "/v1/things//echo", "/v1/profile/%00", "/v1/__proto__"]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      const body = await res.json();
      expect(body.error).toEqual({ code: "not_found", message: "No such route." });
      expect(res.headers.get("x-request-id")).toBe(body.request_id);
    }
    const wrong = await fetch(`${base}/v1/profile`, { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
    expect((await wrong.json()).error).toEqual({ code: "method_not_allowed", message: "This route does not accept this method." });
    const dynamic = await fetch(`${base}/v1/things/x/echo`, { method: "PUT" });
    expect(dynamic.status).toBe(405);
    expect(dynamic.headers.get("allow")).toBe("POST");
  });

  it("answers the same 404 from the app router's /v1 catch-all (npm run dev, or a request the fast path passed on)", async () => {
    const { GET, POST, DELETE } = await import("@/app/v1/[...path]/route");
    for (const handler of [GET, POST, DELETE]) {
      const res = await handler();
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe("not_found");
    }
  });

  it("sends the frame-refusing headers on every answer it serves", async () => {
    for (const res of [await fetch(`${base}/v1/profile`, { headers: liveHeaders(t) }), await fetch(`${base}/v1/nothing-here`)]) {
      expect(res.headers.get("x-frame-options")).toBe(FRAME_DENY_HEADERS["X-Frame-Options"]);
      expect(res.headers.get("content-security-policy")).toBe(FRAME_DENY_HEADERS["Content-Security-Policy"]);
    }
  });
});

describe("the /v1 404/405 answers (lib/http/api-routes.ts, from the route manifest)", () => {
  it("know the methods of every /v1 path the manifest lists, and nothing else", () => {
    expect(apiMethodsFor("/v1/profile")).toEqual(["GET"]);
    expect(apiMethodsFor("/v1/profile/")).toEqual(["GET"]);
    expect(apiMethodsFor("/v1/auth/sign-in/message-lines")).toEqual(["GET", "POST", "DELETE"]);
    expect(apiMethodsFor("/v1/import/jobs/imp_1")).toEqual(["GET"]);
    expect(apiMethodsFor("/v1/tools/service_gmail_search")).toEqual(["POST"]);
    for (const path of ["/v1/nothing-here", "/v1", "/v1/__proto__", "/v1/things/x/echo", "/v1/profile/commit/a/b", "/v1/import/jobs/"])
      expect(apiMethodsFor(path), path).toBeNull();
  });

  it("decides Next.js's answers too (npm run dev, and requests the fast path passes on): JSON 404 and 405 with Allow from proxy.ts", async () => {
    const wrong = proxy(new NextRequest("http://localhost:3000/v1/profile", { method: "PUT" }));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
    const body = await wrong.json();
    expect(body.error).toEqual({ code: "method_not_allowed", message: MESSAGES.methodNotAllowed });
    expect(wrong.headers.get("x-request-id")).toBe(body.request_id);
    const dynamic = proxy(new NextRequest("http://localhost:3000/v1/sso/clients/oc_x/redirect-uris", { method: "POST" }));
    expect([dynamic.status, dynamic.headers.get("allow")]).toEqual([405, "DELETE"]);
    for (const path of ["/v1/nothing-here", "/v1", "/v1/__proto__", "/v1/profile/commit/a/b"]) {
      const res = proxy(new NextRequest(`http://localhost:3000${path}`));
      expect(res.status, path).toBe(404);
      expect((await res.json()).error).toEqual({ code: "not_found", message: MESSAGES.notFound });
    }
    // A method a route takes, a preflight, and pages are Next.js's to answer.
    for (const [method, path] of [
      ["GET", "/v1/profile"],
      ["GET", "/v1/profile/commit/abc"],
      ["OPTIONS", "/v1/sso/client"],
      ["HEAD", "/v1/nothing"],
      ["GET", "/"],
    ] as const) {
      expect(proxy(new NextRequest(`http://localhost:3000${path}`, { method })).headers.get("x-middleware-next"), `${method} ${path}`).toBe("1");
    }
  });
});
