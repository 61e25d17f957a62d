// Request conventions shared by every /v1 route: error body, request ids, JSON parsing, size caps, CORS.
import { beforeAll, describe, expect, it } from "vitest";
import { POST as simulate } from "@/app/v1/sandbox/simulate/route";
import { POST as createAgentRoute, GET as listAgentsRoute } from "@/app/v1/agents/route";
import { ERROR_STATUS, MESSAGES } from "@/lib/http/errors";
import { defineRoute } from "@/lib/api-edge/define-route";
import { preflight } from "@/lib/http/cors";
import { DEFAULT_BODY_LIMIT_BYTES, ipLimitKey } from "@/lib/http/request";
import { VERIFY_FLOW_COOKIE } from "@/lib/person-auth/third-party";
import { flowCookieName, isFlowBrowser, isFlowId } from "@/lib/flow/browser";
import { findFlow } from "@/lib/flow/store";
import { FRAME_DENY_HEADERS, noticePage } from "@/lib/http/html";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

describe("error body and request ids", () => {
  it("answers every error as { error: { code, message }, request_id } with a matching X-Request-Id", async () => {
    const res = await call(listAgentsRoute, {});
    expect(res.status).toBe(401);
    expect(Object.keys(res.body).sort()).toEqual(["error", "request_id"]);
    expect(res.body.request_id).toMatch(/^req_[A-Za-z0-9]{20}$/);
    expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
  });

  it("puts an X-Request-Id on successful answers too, unique per request", async () => {
    const one = await call(listAgentsRoute, { headers: { "x-api-key": t.keys.sk } });
    const two = await call(listAgentsRoute, { headers: { "x-api-key": t.keys.sk } });
    expect(one.status).toBe(200);
    expect(one.headers.get("x-request-id")).toMatch(/^req_/);
    expect(one.headers.get("x-request-id")).not.toBe(two.headers.get("x-request-id"));
  });

  it("maps every code through one table, with 401 and 403 never shared", () => {
    const unauthorized = Object.entries(ERROR_STATUS)
      .filter(([, s]) => s === 401)
      .map(([c]) => c);
    const forbidden = Object.entries(ERROR_STATUS)
      .filter(([, s]) => s === 403)
      .map(([c]) => c);
    expect(unauthorized).toEqual(expect.arrayContaining(["invalid_api_key", "api_key_required"]));
    expect(forbidden).toContain("agent_not_approved");
    expect(unauthorized.filter((c) => forbidden.includes(c))).toEqual([]);
  });

  it("hides unexpected errors behind a generic 500 that names the request", async () => {
    const boom = defineRoute({
      method: "GET",
      path: "/v1/test-boom",
      summary: "Fails with an unexpected error.",
      // It never succeeds: no answer to declare.
      responses: {},
      auth: { key: "none", agent: false, user: "none" },
      handler: async () => {
        throw new Error("database password is hunter2");
      },
    });
    const res = await call(boom, {});
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ code: "internal_error", message: MESSAGES.internalError });
    expect(JSON.stringify(res.body)).not.toContain("hunter2");
  });
});

describe("request bodies", () => {
  const headers = () => ({ "x-api-key": t.keys.skTest });

  it("answers 400 invalid_json for malformed JSON", async () => {
    const res = await call(simulate, { headers: { ...headers(), "content-type": "application/json" }, rawBody: '{"scenario": ' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "invalid_json", message: MESSAGES.invalidJson });
  });

  it("answers 413 payload_too_large over the cap, before parsing", async () => {
    const big = JSON.stringify({ scenario: "x".repeat(DEFAULT_BODY_LIMIT_BYTES) });
    const res = await call(simulate, { headers: { ...headers(), "content-type": "application/json" }, rawBody: big });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: "payload_too_large", limit_bytes: DEFAULT_BODY_LIMIT_BYTES });
  });

  it("answers 415 for a body that is not JSON", async () => {
    const res = await call(simulate, { headers: { ...headers(), "content-type": "text/plain" }, rawBody: "scenario=x" });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe("unsupported_media_type");
  });

  it("answers 400 invalid_request naming each invalid field", async () => {
    const res = await call(createAgentRoute, {
      headers: { "x-api-key": t.keys.sk },
      body: { handle: "Not A Handle!", display_name: 42 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["display_name", "handle"]);
    expect(res.body.error.message).toContain("handle");
  });

  it("answers 422 invalid_format on routes that declare it", async () => {
    const { z } = await import("zod");
    const strict = defineRoute({
      method: "POST",
      path: "/v1/test-strict",
      summary: "Echoes a strictly checked body.",
      responses: { 200: z.strictObject({ n: z.number() }) },
      auth: { key: "none", agent: false, user: "none" },
      invalidCode: "invalid_format",
      body: z.object({ n: z.number() }).strict(),
      handler: async ({ body }) => ({ body }),
    });
    const res = await call(strict, { body: { n: 1, source: "forbidden" } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("invalid_format");
  });
});

describe("agents API", () => {
  it("creates an agent with its sign_in_url and refuses a duplicate handle with 409", async () => {
    const res = await call(createAgentRoute, { headers: { "x-api-key": t.keys.sk }, body: { handle: "travel-bot", display_name: "Travel" } });
    expect(res.status).toBe(201);
    expect(res.body.agent).toMatchObject({ handle: "travel-bot", display_name: "Travel", active: true, sign_in_url: "http://localhost:3000/sign-in/travel-bot" });
    const dup = await call(createAgentRoute, { headers: { "x-api-key": t.keys.sk }, body: { handle: "travel-bot" } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe("agent_exists");
  });

  it("lists only the calling developer's agents, each with sign_in_url", async () => {
    const other = await createTenant("other", "someone-else");
    const res = await call(listAgentsRoute, { headers: { "x-api-key": t.keys.sk } });
    const handles = res.body.agents.map((a: { handle: string }) => a.handle);
    expect(handles).toContain(t.agent.handle);
    expect(handles).not.toContain(other.agent.handle);
    for (const a of res.body.agents) expect(a.sign_in_url).toBe(`http://localhost:3000/sign-in/${a.handle}`);
  });
});

describe("CORS", () => {
  it("grants no origin to secret-key routes, so browsers cannot call them", async () => {
    const res = await call(listAgentsRoute, { headers: { "x-api-key": t.keys.sk, origin: "https://evil.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect((await preflight("closed")).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("opens discovery-style routes to any origin", async () => {
    const res = await preflight("open");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("per-IP limit keys", () => {
  it("count an IPv6 client by its /64, an IPv4-mapped address as its IPv4, and IPv4 as it is", () => {
    expect(ipLimitKey("203.0.113.7")).toBe("203.0.113.7");
    expect(ipLimitKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(ipLimitKey("2001:db8:abcd:12:1:2:3:4")).toBe("2001:db8:abcd:12::/64");
    expect(ipLimitKey("2001:0db8:abcd:0012:ffff:ffff:ffff:ffff")).toBe("2001:db8:abcd:12::/64");
    expect(ipLimitKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipLimitKey("[2001:db8:abcd:12::99]")).toBe("2001:db8:abcd:12::/64");
    expect(ipLimitKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(ipLimitKey("::1")).toBe("0:0:0:0::/64");
    // A dotted IPv4 tail is two groups: the /64 is the same as written in hex.
    expect(ipLimitKey("::1:2:3:4:5:1.2.3.4")).toBe(ipLimitKey("0:1:2:3:4:5:102:304"));
    expect(ipLimitKey("::1:2:3:4:5:1.2.3.4")).toBe("0:1:2:3::/64");
    expect(ipLimitKey("64:ff9b::198.51.100.7")).toBe("64:ff9b:0:0::/64");
    expect(ipLimitKey("unknown")).toBe("unknown");
  });

  it("one /64 shares one limit: rotating addresses inside it does not multiply the text-message limit", async () => {
    const { sendSignInCode, SEND_LIMITS } = await import("@/lib/person-auth/phone-codes");
    const sent = [];
    for (let i = 0; i <= SEND_LIMITS.perIpPerHour; i++) {
      const phone = `+1415666${String(1000 + i).padStart(4, "0")}`;
      sent.push(
        await sendSignInCode({ phone, plane: "live", phoneScope: "", ip: `2001:db8:77:1::${(i + 1).toString(16)}` }).then(
          () => "ok",
          (e: { reason: string }) => e.reason,
        ),
      );
    }
    expect(sent.slice(0, SEND_LIMITS.perIpPerHour).every((r) => r === "ok")).toBe(true);
    expect(sent.at(-1)).toBe("rate_limited");
  });
});

describe("ids and keys from requests", () => {
  it("a flow id holding NUL, control characters or a huge value finds no flow (never a database error)", async () => {
    for (const id of ["\u0000", "a\u0000b", "\u001f".repeat(32), "x".repeat(10_000), "__proto__"]) {
      expect(isFlowId(id)).toBe(false);
      await expect(isFlowBrowser(id, "any-secret"), JSON.stringify(id).slice(0, 20)).resolves.toBe(false);
      await expect(findFlow(id)).resolves.toBeNull();
    }
  });

  it("the flow's route handlers read the browser's cookie from the request: a stranger's cancel goes back to the flow", async () => {
    const { POST: cancel } = await import("@/app/(hosted)/flow/[flowId]/cancel/route");
    for (const flowId of ["\u0000", "A".repeat(32)]) {
      const res = await cancel(
        new Request(`http://localhost:3000/flow/${encodeURIComponent(flowId)}/cancel`, { method: "POST", headers: { cookie: `${flowCookieName("A".repeat(32))}=wrong` } }),
        { params: Promise.resolve({ flowId }) },
      );
      expect(res.status).toBe(303);
      expect(new URL(res.headers.get("location")!).pathname.startsWith("/flow/")).toBe(true);
    }
    const { GET: verified } = await import("@/app/(hosted)/flow/[flowId]/verified/route");
    const back = await verified(new Request("http://localhost:3000/flow/x/verified"), { params: Promise.resolve({ flowId: "\u0000" }) });
    expect(back.status).toBe(303);
    expect(back.headers.get("set-cookie")).toMatch(new RegExp(`^${VERIFY_FLOW_COOKIE}=;.*Max-Age=0`));
  });
});

describe("framing", () => {
  it("every page refuses framing (next.config.mjs headers()), with the same values as the notice pages and the fast path", async () => {
    // @ts-expect-error: the Next.js configuration is plain JavaScript
    const { default: config, FRAME_HEADERS } = await import("@/next.config.mjs");
    const rules = await config.headers();
    expect(rules).toEqual([{ source: "/:path*", headers: FRAME_HEADERS }]);
    expect(Object.fromEntries(FRAME_HEADERS.map((h: { key: string; value: string }) => [h.key, h.value]))).toEqual(FRAME_DENY_HEADERS);
    const notice = noticePage({ title: "t", text: "x", status: 404 });
    for (const [name, value] of Object.entries(FRAME_DENY_HEADERS)) expect(notice.headers.get(name)).toBe(value);
  });
});
