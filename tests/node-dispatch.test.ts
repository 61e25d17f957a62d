// The API fast path (lib/http/node-dispatch.ts) over a real node:http server: it serves exactly the
// defineRoute handlers, with their params, bodies and headers, and leaves every other request alone.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoute } from "@/lib/http/define-route";
import { ApiRouter, dispatch, routeSegments } from "@/lib/http/node-dispatch";
import { createTenant, liveHeaders, type Tenant } from "./helpers/fixtures";

const echo = defineRoute({
  method: "POST",
  path: "/v1/things/:thingId/echo",
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
  auth: { key: "none", agent: false, user: "none" },
  handler: async () => {
    const res = Response.json({ ok: true });
    res.headers.append("set-cookie", "a=1; Path=/");
    res.headers.append("set-cookie", "b=2; Path=/");
    return res;
  },
});

const modules = [
  ...Object.entries(import.meta.glob("../app/**/route.ts", { eager: true }) as Record<string, Record<string, unknown>>).map(
    ([file, module]) => ({ file: file.replace(/^\.\.\//, ""), module }),
  ),
  { file: "app/v1/things/[thingId]/echo/route.ts", module: { POST: echo } },
  { file: "app/(api)/v1/cookie/route.ts", module: { GET: cookie, OPTIONS: () => new Response(null) } },
  { file: "app/plain/route.ts", module: { GET: () => new Response("plain") } },
];
const router = new ApiRouter(modules);

let server: Server;
let base: string;
let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
  server = createServer((req, res) => {
    dispatch(router, req, res).then((served) => {
      if (!served) res.writeHead(299, { "content-type": "text/plain" }).end("fell through");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("routeSegments", () => {
  it("reads paths as the app router does", () => {
    expect(routeSegments("app/v1/profile/route.ts")).toEqual(["v1", "profile"]);
    expect(routeSegments("app/(site)/v1/import/jobs/[jobId]/route.ts")).toEqual(["v1", "import", "jobs", ":jobId"]);
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

  it("leaves unknown paths, other methods and handlers not made by defineRoute to the app router", async () => {
    for (const [method, path] of [
      ["GET", "/"],
      ["GET", "/v1/nothing-here"],
      ["DELETE", "/v1/profile"],
      ["OPTIONS", "/v1/cookie"],
      ["GET", "/plain"],
      ["GET", "/v1/things//echo"],
    ] as const) {
      const res = await fetch(`${base}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(299);
    }
  });
});
