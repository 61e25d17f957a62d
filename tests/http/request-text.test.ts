// Text no request may carry — a NUL character or an unpaired UTF-16 surrogate — refused where each kind
// of request is parsed, naming the field, and storing nothing: /v1 JSON bodies at any depth (keys too)
// and queries, the OAuth endpoints' forms and authorize query (RFC 6749 invalid_request), and MCP
// JSON-RPC bodies (a JSON-RPC error).
import { beforeAll, describe, expect, it } from "vitest";
import { POST as connect } from "@/app/v1/profile/connect/route";
import { POST as remember } from "@/app/v1/profile/remember/route";
import { GET as search } from "@/app/v1/profile/search/route";
import { POST as token } from "@/app/oauth/token/route";
import { POST as revoke } from "@/app/oauth/revoke/route";
import { GET as authorizeRoute } from "@/app/oauth/authorize/route";
import { POST as mcp } from "@/app/mcp/route";
import { db } from "@/lib/platform/db";
import { UNSAFE_TEXT_MESSAGE, isUnsafeText, unsafeTextField } from "@/lib/http/text-input";
import { unsafeParameter } from "@/lib/oidc/errors";
import { unsafeMessage } from "@/lib/mcp/json-rpc";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

const problem = (field: string) => ({ field, message: UNSAFE_TEXT_MESSAGE });

describe("the one check", () => {
  it("finds NUL and unpaired surrogates in values and keys at any depth, and leaves paired ones alone", () => {
    expect(isUnsafeText("a\u0000b")).toBe(true);
    expect(isUnsafeText("a\ud800b")).toBe(true);
    expect(isUnsafeText("\udc00")).toBe(true);
    expect(isUnsafeText("end\ud83d")).toBe(true);
    expect(isUnsafeText("😀 \ud83d\ude00 é \u202e \u0001")).toBe(false);
    expect(unsafeTextField({ a: "ok", b: [{ c: "x" }, { d: "y\u0000" }] })).toBe("b.1.d");
    expect(unsafeTextField({ a: { "k\ud800": 1 } })).toBe("a.k\ufffd");
    expect(unsafeTextField("\u0000")).toBe("(root)");
    expect(unsafeTextField(new URLSearchParams("x=1&y=%00"))).toBe("y");
    const form = new FormData();
    form.set("name", "ok");
    form.set("email", "a\u0000@example.com");
    expect(unsafeTextField([form], [])).toBe("0.email");
    expect(unsafeTextField({ fine: ["a", 1, null, true, { b: "c" }] })).toBeNull();
  });

  it("walks a deeply nested body without exhausting the stack", () => {
    let deep: unknown = "a\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unsafeTextField(deep)).toMatch(/^0(\.0)+$/);
  });
});

describe("/v1 routes (defineRoute's parse step)", () => {
  const developer = () => ({ "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "content-type": "application/json" });

  it("POST /v1/profile/connect with a NUL in user_id: 400 invalid_request naming user_id, no person made", async () => {
    const prisma = await db();
    const before = await prisma.externalUserId.count();
    const res = await call(connect, { headers: developer(), rawBody: JSON.stringify({ user_id: "a\u0000b" }) });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "invalid_request", message: "Invalid request body: user_id.", fields: [problem("user_id")] });
    expect(await prisma.externalUserId.count()).toBe(before);
  });

  it("a lone surrogate, and a key at depth, are refused the same way", async () => {
    const surrogate = await call(connect, { headers: developer(), rawBody: '{"user_id":"a\\ud800b"}' });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.error.fields).toEqual([problem("user_id")]);
    const key = await call(remember, { headers: { ...liveHeaders(t), "content-type": "application/json" }, rawBody: '{"text":"I like tea","extra":{"k\\u0000":"v"}}' });
    expect(key.status).toBe(400);
    expect(key.body.error).toMatchObject({ code: "invalid_request", fields: [problem("extra.k\ufffd")] });
  });

  it("POST /v1/profile/remember with a NUL in the fact: refused, nothing remembered", async () => {
    const prisma = await db();
    const before = await prisma.memory.count();
    const res = await call(remember, { headers: liveHeaders(t), body: { text: "I live in\u0000 Lisbon" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "invalid_request", message: "Invalid request body: text.", fields: [problem("text")] });
    expect(await prisma.memory.count()).toBe(before);
  });

  it("a query parameter holding NUL: 400 naming the parameter", async () => {
    const res = await call(search, { headers: liveHeaders(t), query: { query: "tea\u0000" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "invalid_request", message: "Invalid query parameters: query.", fields: [problem("query")] });
  });
});

describe("the OAuth endpoints (RFC 6749 invalid_request)", () => {
  const form = (body: string) => ({ headers: { "content-type": "application/x-www-form-urlencoded" }, rawBody: body });

  it("token and revocation forms holding NUL name the parameter", async () => {
    const res = await call(token, form("grant_type=authorization_code&code=a%00b&client_id=oc_x"));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_request", error_description: unsafeParameter("code") });
    const revoked = await call(revoke, form("token=x%00&client_id=oc_x"));
    expect(revoked.status).toBe(400);
    expect(revoked.body).toEqual({ error: "invalid_request", error_description: unsafeParameter("token") });
  });

  it("HTTP Basic client credentials that decode to NUL are refused as malformed, not looked up", async () => {
    const basic = `Basic ${Buffer.from("oc_%00x:s%00").toString("base64")}`;
    const res = await call(token, { ...form("grant_type=authorization_code&code=abc"), headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic } });
    expect(res.status).toBeLessThan(500);
    expect(res.body.error).toMatch(/^invalid_/);
  });

  it("an authorize query holding NUL is refused before any lookup (JSON, or a page for a browser)", async () => {
    const json = await call(authorizeRoute, { query: { client_id: "oc_x", state: "s\u0000" } });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ error: "invalid_request", error_description: unsafeParameter("state") });
    const page = await call(authorizeRoute, { query: { client_id: "oc_\u0000" }, headers: { accept: "text/html" } });
    expect(page.status).toBe(400);
    expect(String(page.body)).toContain(unsafeParameter("client_id"));
  });
});

describe("MCP JSON-RPC bodies", () => {
  it("a tools/call whose arguments hold NUL or a lone surrogate: 400 with a JSON-RPC error naming the field, nothing stored", async () => {
    const prisma = await db();
    const before = await prisma.memory.count();
    for (const text of ['"I like\\u0000 tea"', '"I like \\udfff tea"']) {
      const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"service_profile_remember","arguments":{"text":${text}}}}`;
      const res = await mcp(
        new Request("http://localhost:3000/mcp", {
          method: "POST",
          headers: { ...liveHeaders(t), "content-type": "application/json", accept: "application/json, text/event-stream", "x-service-client-ip": "127.0.0.1" },
          body,
        }),
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: unsafeMessage("params.arguments.text") }, id: null });
    }
    expect(await prisma.memory.count()).toBe(before);
  });
});
