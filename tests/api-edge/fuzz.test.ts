// Property-based tests over every route: inputs derived from each route's contract (values its body and
// query schemas accept, with one field made hostile, and its field names with hostile values) and from
// hostile generators (wrong types, huge strings, unicode, NUL, prototype keys, duplicated parameters,
// malformed JSON, wrong content types). For every answer: no 5xx, the documented error shape, and a
// refused request writes no row in any table (queued work settled first). /v1, /oauth and hosted
// routes join through the file tree, as /v1 routes join the auth suite. Fixed seed, bounded runs.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { database } from "@/lib/platform/db";
import type { RouteHandler } from "@/lib/http/define-route";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { inputSchemaOf, oneValid, stringFields, validWithOneHostile, withValueAt } from "../helpers/contract-arbitraries";
import { UNSAFE_TEXT_MESSAGE } from "@/lib/http/text-input";
import { unsafeMessage } from "@/lib/mcp/json-rpc";
import { unsafeParameter } from "@/lib/oidc/errors";
import { checkAnswer } from "../helpers/http";
import { otherRoutes, samplePath, v1Routes, type RegisteredRoute } from "../helpers/routes";
import { isCatchAll } from "@/lib/http/route-manifest";

const SEED = 20261124;
const RUNS_PER_ROUTE = 24;

let t: Tenant;
let tables: string[] = [];
beforeAll(async () => {
  t = await createTenant();
  const rows = await (
    await database()
  ).sql.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`);
  // The access log records every call for a person, and the request log every request a developer's key
  // made, refused ones too (with their error code): each is the record of the request, not a write the
  // request made.
  tables = rows.map((r) => r.table_name).filter((n) => !n.startsWith("_prisma") && n !== "access_log" && n !== "request_log");
});

/** Waits until no queued commit is still running (its worker writes memories and the profile later). */
async function settled(): Promise<void> {
  const sql = (await database()).sql;
  for (let i = 0; i < 400; i++) {
    const [row] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM commits WHERE status = 'processing'`);
    if (!Number(row?.n)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("queued commits did not finish within 20 s");
}

/** Rows per table, every table, once queued work has settled: for "a refused request writes nothing". */
async function rowCounts(): Promise<Record<string, number>> {
  await settled();
  const sql = tables.map((n) => `SELECT '${n}' AS t, count(*)::int AS n FROM "${n}"`).join(" UNION ALL ");
  const rows = await (await database()).sql.query<{ t: string; n: number }>(sql);
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}

/** The top-level field names a schema declares (an object schema's keys), if any. */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  try {
    const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as { properties?: Record<string, unknown> };
    return Object.keys(json.properties ?? {});
  } catch {
    return [];
  }
}

const hostileString = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("\u0000", "a\u0000b", "\u202e", "\ud800", "__proto__", "constructor", "toString", "mcc_\u0000", "oc_%00", "../../etc/passwd", "' OR 1=1 --", "<script>"),
  fc.integer({ min: 1_000, max: 40_000 }).map((n) => "x".repeat(n)),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 30 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 4 }),
);

/** A body: what the contract accepts with one hostile field, its field names with hostile values, prototype keys, or something not an object. */
function bodies(schema: z.ZodType | undefined): fc.Arbitrary<{ raw: string; contentType: string }> {
  const fields = fieldsOf(schema);
  const validFromContract = validWithOneHostile(inputSchemaOf(schema), hostileValue).map((o) => ({ raw: JSON.stringify(o), contentType: "application/json" }));
  const objectFromContract = fc
    .record(Object.fromEntries([...fields, "__proto__", "constructor", "extra"].map((f) => [f, hostileValue])), { requiredKeys: [] })
    .map((o) => ({ raw: JSON.stringify(o), contentType: "application/json" }));
  const protoKeys = fc
    .constantFrom('{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}', '{"a":1,"a":2}')
    .map((raw) => ({ raw, contentType: "application/json" }));
  const notJson = fc
    .oneof(fc.string({ maxLength: 50 }), fc.constantFrom("{", "[1,2", "\u0000", "null", "[]", '"str"', "1e309"))
    .map((raw) => ({ raw, contentType: "application/json" }));
  const wrongType = fc
    .constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml")
    .map((contentType) => ({ raw: "a=1&b=2", contentType }));
  return fc.oneof(validFromContract, validFromContract, validFromContract, objectFromContract, protoKeys, notJson, wrongType);
}

/** A query string: the contract's parameters (and others) with hostile, sometimes repeated, values. */
function queries(fields: string[]): fc.Arbitrary<string> {
  const names = fc.constantFrom(...fields, "__proto__", "constructor", "x");
  return fc
    .array(
      fc.tuple(
        names,
        hostileString.filter((s) => s.length < 5_000),
      ),
      { maxLength: 6 },
    )
    .map((pairs) => {
      const q = new URLSearchParams();
      for (const [k, v] of pairs) q.append(k, v.replace(/[\ud800-\udfff]/g, "")); // a URL cannot carry lone surrogates
      return q.toString();
    });
}

/** A query the contract accepts, with one parameter hostile, or its names with hostile values. */
function contractQueries(schema: z.ZodType | undefined): fc.Arbitrary<string> {
  const fromValues = validWithOneHostile(
    inputSchemaOf(schema),
    hostileString.filter((s) => s.length < 5_000),
  ).map((o) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(o)) {
      for (const item of Array.isArray(v) ? v : [v])
        if (item !== undefined) q.append(k, String(typeof item === "object" ? JSON.stringify(item) : item).replace(/[\ud800-\udfff]/g, ""));
    }
    return q.toString();
  });
  return fc.oneof(fromValues, queries(fieldsOf(schema)));
}

/** Every status answered, per route: the suite checks its inputs got past authentication to the contract. */
const seen = new Map<string, Set<number>>();

async function send(
  handler: RouteHandler,
  input: { path: string; params: Record<string, string>; query: string; body?: { raw: string; contentType: string }; headers: Record<string, string> },
) {
  const url = `http://localhost:3000${input.path}${input.query ? `?${input.query}` : ""}`;
  const headers = new Headers({ "x-service-client-ip": "127.0.0.1", ...input.headers });
  if (input.body) headers.set("content-type", input.body.contentType);
  const req = new Request(url, { method: handler.meta.method, headers, body: input.body?.raw });
  const res = await handler(req, { params: Promise.resolve(input.params) });
  const statuses = seen.get(handler.meta.path) ?? new Set<number>();
  seen.set(handler.meta.path, statuses.add(res.status));
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: judged below
  }
  // Whatever hostile input got through answers as the contract says.
  checkAnswer(handler.meta, { status: res.status, body, contentType: res.headers.get("content-type") });
  return { status: res.status, body, text };
}

function expectV1ErrorShape(status: number, body: unknown, label: string) {
  expect(status, label).toBeLessThan(500);
  if (status < 400) return;
  const b = body as { error?: { code?: unknown; message?: unknown }; request_id?: unknown };
  expect(typeof b?.error?.code, `${label}: ${JSON.stringify(body)?.slice(0, 200)}`).toBe("string");
  expect(typeof b.error!.message, label).toBe("string");
  expect(b.request_id, label).toMatch(/^req_/);
}

describe("every /v1 route under hostile input", () => {
  const routes = v1Routes().filter((r) => "meta" in r.handler);

  it("knows the routes it covers", () => {
    expect(routes.length).toBeGreaterThanOrEqual(15);
  });

  for (const route of routes) {
    const handler = route.handler as RouteHandler;
    it(`${route.exportName} ${route.filePath}: no 5xx, the /v1 error shape, nothing written when refused`, async () => {
      const { path, params } = samplePath(route.filePath);
      const withBody = handler.meta.method !== "GET" && handler.meta.method !== "DELETE" ? true : !!handler.meta.body;
      const auth: Record<string, string> =
        handler.meta.auth.key === "none"
          ? {}
          : {
              "x-api-key": path.startsWith("/v1/sandbox") ? t.keys.skTest : t.keys.sk,
              "x-agent": t.agent.handle,
              "x-user-id": path.startsWith("/v1/sandbox") ? "user-test" : "user-live",
            };
      await fc.assert(
        fc.asyncProperty(
          contractQueries(handler.meta.query),
          withBody ? bodies(handler.meta.body) : fc.constant(undefined),
          fc.constantFrom<Record<string, string>>(auth, auth, auth, { ...auth, "x-agent": "a\u0001b" }, { ...auth, "x-user-id": "__proto__" }, {}),
          fc.oneof(fc.constant(params), fc.constant(Object.fromEntries(Object.keys(params).map((k) => [k, "\u0000\u001f"])))),
          async (query, body, headers, routeParams) => {
            const before = await rowCounts();
            const res = await send(handler, { path, params: routeParams, query, body, headers });
            expectV1ErrorShape(res.status, res.body, `${route.exportName} ${path}?${query.slice(0, 80)}`);
            if (res.status >= 400) expect(await rowCounts(), `${route.exportName} ${path} refused with ${res.status} but wrote`).toEqual(before);
          },
        ),
        { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    });
  }
});

const getOrPost = (r: { method: string }) => r.method === "GET" || r.method === "POST";

/** The handler a list of routes has for a method and path. */
function handlerAt<H>(routes: readonly RegisteredRoute[], method: string, path: string): H {
  const found = routes.find((r) => r.exportName === method && r.filePath === path);
  if (!found) throw new Error(`no ${method} ${path}`);
  return found.handler as H;
}

// Every /oauth route the route manifest lists: hostile forms (POST) and queries (GET), with hostile client
// authentication and bearer tokens.
const oauthRoutes = await otherRoutes((r) => r.path.startsWith("/oauth/") && getOrPost(r));

describe("the OAuth endpoints under hostile input", () => {
  const names = [
    "grant_type",
    "code",
    "redirect_uri",
    "client_id",
    "code_verifier",
    "refresh_token",
    "token",
    "token_type_hint",
    "client_secret",
    "response_type",
    "code_challenge",
    "code_challenge_method",
    "scope",
    "state",
    "nonce",
    "required",
    "__proto__",
  ];
  const form = fc
    .array(
      fc.tuple(
        fc.constantFrom(...names),
        hostileString.filter((s) => s.length < 5_000),
      ),
      { maxLength: 8 },
    )
    .map((pairs) => {
      const q = new URLSearchParams();
      for (const [k, v] of pairs) q.append(k, v.replace(/[\ud800-\udfff]/g, ""));
      return q.toString();
    });
  const routes = oauthRoutes.map((r) => ({ name: `${r.exportName} ${r.filePath}`, handler: r.handler as RouteHandler }));

  it("knows the routes it covers", () => {
    expect(routes.map((r) => r.name)).toEqual(
      expect.arrayContaining(["GET /oauth/authorize", "POST /oauth/token", "POST /oauth/revoke", "GET /oauth/userinfo", "POST /oauth/userinfo", "POST /oauth/register"]),
    );
  });

  for (const { name, handler } of routes) {
    it(`${name}: no 5xx, { error, error_description } when refused, nothing written`, async () => {
      const isGet = handler.meta.method === "GET";
      await fc.assert(
        fc.asyncProperty(
          form,
          fc.constantFrom("application/x-www-form-urlencoded", "application/json", "text/plain"),
          fc.constantFrom<Record<string, string>>(
            {},
            { accept: "text/html" },
            { authorization: "Basic %%%" },
            { authorization: `Basic ${Buffer.from("\u0000:\u0000").toString("base64")}` },
            { authorization: "Bearer mcp_at_\u0001" },
            { authorization: `Bearer ${"x".repeat(5_000)}` },
          ),
          async (raw, contentType, headers) => {
            const before = await rowCounts();
            const res = await send(handler, { path: handler.meta.path, params: {}, query: isGet ? raw : "", body: isGet ? undefined : { raw, contentType }, headers });
            expect(res.status, `${name} ${raw.slice(0, 80)}`).toBeLessThan(500);
            if (res.status >= 400) {
              // A browser asking for a page gets one (GET /oauth/authorize); everyone else the RFC 6749 shape.
              if (!(isGet && headers.accept === "text/html")) {
                const b = res.body as { error?: unknown; error_description?: unknown };
                expect(typeof b?.error, res.text.slice(0, 200)).toBe("string");
                expect(typeof b.error_description).toBe("string");
              }
              expect(await rowCounts(), `${name} refused with ${res.status} but wrote`).toEqual(before);
            }
          },
        ),
        { seed: SEED, numRuns: 30, endOnFailure: true },
      );
    });
  }
});

// The hosted route handlers (flow steps, connect links, app connections, sign-up): every one the route
// manifest lists, called with hostile path ids (NUL, control characters, prototype keys, huge values),
// queries and form bodies. A person's browser gets a page or a redirect, never a 5xx.
const hostedRoutes = await otherRoutes((r) => !r.path.startsWith("/oauth/") && !r.path.startsWith("/.well-known/") && !isCatchAll(r.path) && getOrPost(r));
const hostileId = fc.oneof(
  fc.constantFrom(
    "\u0000",
    "%00",
    "mcc_\u0000",
    "a\u0000b",
    "\u001f\u007f",
    "__proto__",
    "constructor",
    "toString",
    "gmail",
    "sample",
    "x".repeat(5_000),
    "A".repeat(32),
    "mcc_" + "A".repeat(24),
  ),
  fc.string({ unit: "binary", maxLength: 40 }).map((v) => v.replace(/[\ud800-\udfff]/g, "")),
);

describe("every hosted route handler under hostile ids and input", () => {
  const routes = hostedRoutes.map((r) => ({ path: r.filePath, method: r.exportName, handler: r.handler as (req: Request, ctx: unknown) => Promise<Response> }));

  it("knows the routes it covers", () => {
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(["POST /flow/[flowId]/cancel", "GET /personal-mcp/connect/[linkId]", "GET /connect/callback", "POST /mcp", "POST /personal-mcp"]),
    );
  });

  for (const route of routes) {
    const names = [...route.path.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!);
    it(`${route.method} ${route.path}: no 5xx, nothing written when refused`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(...names.map(() => hostileId)),
          queries(["error", "connect_error", "state", "code", "app", "flow", "return_url", "__proto__"]),
          fc.constantFrom<Record<string, string>>({}, { cookie: "__proto__=1; constructor=2" }, { cookie: `flow_${"A".repeat(32)}=\u0001` }),
          async (ids, query, headers) => {
            const params = Object.fromEntries(names.map((n, i) => [n, ids[i]!]));
            const url = new URL(`http://localhost:3000${route.path.replace(/\[([^\]]+)\]/g, (_, n: string) => encodeURIComponent(params[n]!))}`);
            url.search = query;
            const before = await rowCounts();
            const init: RequestInit = { method: route.method, headers: { "x-service-client-ip": "127.0.0.1", ...headers } };
            if (route.method === "POST") Object.assign(init, { body: query, headers: { ...init.headers, "content-type": "application/x-www-form-urlencoded" } });
            let res: Response;
            try {
              res = await route.handler(new Request(url, init), { params: Promise.resolve(params) });
            } catch (err) {
              throw new Error(`${route.method} ${route.path} ${JSON.stringify(params).slice(0, 120)} threw: ${String(err).slice(0, 300)}`, { cause: err });
            }
            expect(res.status, `${route.method} ${route.path} ${JSON.stringify(params).slice(0, 120)}?${query.slice(0, 80)}`).toBeLessThan(500);
            // A hosted refusal is often a redirect to a page that explains it: with ids no row holds, nothing
            // may be written whatever the answer; without ids, an error answer writes nothing.
            if (names.length || res.status >= 400) expect(await rowCounts(), `${route.path} answered ${res.status} but wrote`).toEqual(before);
          },
        ),
        { seed: SEED, numRuns: 10, endOnFailure: true },
      );
    });
  }
});

// Text no contract may take — a NUL character, an unpaired surrogate — put into every string field of
// every /v1 contract in turn (body fields at any depth, a key, query parameters): each answers 400 or
// 422 naming that field, and writes nothing. A URL cannot carry a lone surrogate, so queries get NUL.
describe("every string field of every /v1 contract, holding NUL or a lone surrogate", () => {
  const routes = v1Routes().filter((r) => "meta" in r.handler && (r.handler.meta.body || r.handler.meta.query));

  it("knows the fields it covers", () => {
    const count = routes.reduce(
      (n, r) => n + stringFields(inputSchemaOf((r.handler as RouteHandler).meta.body)).length + stringFields(inputSchemaOf((r.handler as RouteHandler).meta.query)).length,
      0,
    );
    expect(count).toBeGreaterThanOrEqual(60);
  });

  for (const route of routes) {
    const handler = route.handler as RouteHandler;
    it(`${route.exportName} ${route.filePath}: 400/422 naming the field, nothing written`, async () => {
      const { path, params } = samplePath(route.filePath);
      const headers: Record<string, string> =
        handler.meta.auth.key === "none"
          ? {}
          : {
              "x-api-key": path.startsWith("/v1/sandbox") ? t.keys.skTest : t.keys.sk,
              "x-agent": t.agent.handle,
              "x-user-id": path.startsWith("/v1/sandbox") ? "user-test" : "user-live",
            };
      const bodySchema = inputSchemaOf(handler.meta.body);
      const querySchema = inputSchemaOf(handler.meta.query);
      const base = handler.meta.body ? oneValid(bodySchema, SEED) : undefined;
      const cases: Array<{ field: string; body?: unknown; query?: string }> = [];
      for (const at of stringFields(bodySchema)) {
        for (const bad of ["a\u0000b", "a\ud800b"]) cases.push({ field: at.join("."), body: withValueAt(base, at, bad) });
      }
      if (handler.meta.body) cases.push({ field: "k\ufffd", body: { ...(base as object), "k\u0000": "v" } });
      for (const at of stringFields(querySchema).filter((p) => p.length === 1))
        cases.push({ field: String(at[0]), query: new URLSearchParams({ [String(at[0])]: "a\u0000b" }).toString() });
      for (const c of cases) {
        const before = await rowCounts();
        const res = await send(handler, {
          path,
          params,
          query: c.query ?? "",
          body: c.body === undefined ? undefined : { raw: JSON.stringify(c.body), contentType: "application/json" },
          headers,
        });
        const label = `${route.exportName} ${path} ${c.field}: ${res.text.slice(0, 200)}`;
        expect([400, 422], label).toContain(res.status);
        expect((res.body as { error?: { fields?: unknown } }).error?.fields, label).toEqual([{ field: c.field, message: UNSAFE_TEXT_MESSAGE }]);
        expect(await rowCounts(), `${label} wrote`).toEqual(before);
      }
    });
  }
});

// The same for the OAuth endpoints' forms and authorize query (RFC 6749 invalid_request naming the
// parameter), and for every string argument of every tool of the developer MCP server (a JSON-RPC error).
describe("every OAuth parameter and MCP tool argument, holding NUL or a lone surrogate", () => {
  const oauthPost = (name: string) => handlerAt<RouteHandler>(oauthRoutes, "POST", `/oauth/${name}`);

  it("the token and revocation forms, and the authorize query: 400 invalid_request naming the parameter, nothing written", async () => {
    const names = ["grant_type", "code", "redirect_uri", "client_id", "code_verifier", "refresh_token", "client_secret", "token", "token_type_hint", "scope", "resource"];
    for (const name of names) {
      for (const [label, handler, isGet] of [
        ["token", oauthPost("token"), false],
        ["revoke", oauthPost("revoke"), false],
        ["authorize", handlerAt<RouteHandler>(oauthRoutes, "GET", "/oauth/authorize"), true],
      ] as const) {
        const raw = new URLSearchParams({ client_id: "oc_sample", [name]: "a\u0000b" }).toString();
        const before = await rowCounts();
        const res = await send(handler, {
          path: handler.meta.path,
          params: {},
          query: isGet ? raw : "",
          body: isGet ? undefined : { raw, contentType: "application/x-www-form-urlencoded" },
          headers: {},
        });
        expect(res.status, `${label} ${name}`).toBe(400);
        expect(res.body, `${label} ${name}`).toEqual({ error: "invalid_request", error_description: unsafeParameter(name) });
        expect(await rowCounts()).toEqual(before);
      }
    }
  });

  it("every string argument of every developer MCP tool: 400 with a JSON-RPC error naming it, nothing written", async () => {
    const POST = handlerAt<(req: Request) => Promise<Response>>(hostedRoutes, "POST", "/mcp");
    const headers = {
      "x-api-key": t.keys.sk,
      "x-agent": t.agent.handle,
      "x-user-id": "user-live",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "x-forwarded-for": "127.0.0.1",
    };
    const rpc = async (body: string) => POST(new Request("http://localhost:3000/mcp", { method: "POST", headers, body }));
    const listed = (await (await rpc('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).json()) as {
      result: { tools: Array<{ name: string; inputSchema: Parameters<typeof stringFields>[0] }> };
    };
    let covered = 0;
    for (const tool of listed.result.tools) {
      const base = oneValid(tool.inputSchema, SEED);
      for (const at of stringFields(tool.inputSchema)) {
        for (const bad of ["a\u0000b", "a\ud800b"]) {
          const args = withValueAt(base, at, bad);
          const before = await rowCounts();
          const res = await rpc(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: tool.name, arguments: args } }));
          expect(res.status, `${tool.name} ${at.join(".")}`).toBe(400);
          expect(await res.json()).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: unsafeMessage(["params", "arguments", ...at].join(".")) }, id: null });
          expect(await rowCounts(), `${tool.name} ${at.join(".")} wrote`).toEqual(before);
          covered++;
        }
      }
    }
    expect(covered).toBeGreaterThanOrEqual(20);
  });
});

describe("the inputs themselves", () => {
  it("reached every /v1 route's own checks past the API key: each answered something other than 401 and 5xx", () => {
    // (A route whose own check is the bearer token — /oauth/userinfo, POST /v1/auth/sign-in/code — can
    // only answer 401 to hostile input.)
    const bearerOnly = new Set(
      v1Routes()
        .filter((r) => (r.handler as Partial<RouteHandler>).meta?.checksItself === "access_token")
        .map((r) => samplePath(r.filePath).path),
    );
    expect(bearerOnly).toEqual(new Set(["/v1/auth/sign-in/code"]));
    for (const [path, statuses] of [...seen].filter(([p]) => p.startsWith("/v1") && !bearerOnly.has(p))) {
      expect(
        [...statuses].some((s) => s !== 401 && s < 500),
        `${path}: ${[...statuses].join(", ")}`,
      ).toBe(true);
    }
    expect([...seen.keys()].filter((p) => p.startsWith("/v1")).length).toBeGreaterThanOrEqual(15);
    // Inputs built from the contracts' values get through to the handlers, not only to the schema's refusal.
    const succeeded = [...seen].filter(([p, st]) => p.startsWith("/v1") && [...st].some((s) => s >= 200 && s < 300)).map(([p]) => p);
    expect(succeeded, JSON.stringify([...seen].map(([p, st]) => [p, [...st]]))).toEqual(
      expect.arrayContaining(["/v1/agents", "/v1/profile", "/v1/profile/commit", "/v1/profile/connect", "/v1/sso/clients"]),
    );
  });
});
