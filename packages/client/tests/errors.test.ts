// Every one of the thirteen error codes, produced through the real service wherever it answers one;
// the rest through a fetch that speaks the service's wire format (or throws, or never answers).
import { beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "@/lib/agents/agents";
import { db } from "@/lib/platform/db";
import { ERROR_STATUS } from "@/lib/http/errors";
import { approveAgent } from "@/lib/users/approvals";
import { createTenant, type Tenant } from "@/tests/helpers/fixtures";
import { ERROR_CODES, ServiceError, WIRE_ERROR_CODES, codeForStatus, type FetchLike, type ServiceErrorCode } from "../src/index";
import { BASE_URL, client, counting, serviceFetch } from "./service";

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

const live = { userId: "user-live" };

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const err: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

/** A stand-in answer in the service's /v1 error shape. */
function wireError(status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): FetchLike {
  return async () =>
    Response.json({ error: { code, message: `stand-in ${code}`, ...extra }, request_id: "req_standin" }, { status, headers: { "x-request-id": "req_standin", ...headers } });
}

function toolAnswer(result: unknown): FetchLike {
  return async () => Response.json({ jsonrpc: "2.0", id: 1, result });
}

describe("error codes", () => {
  it("are exactly the thirteen of the specification", () => {
    expect([...ERROR_CODES].sort()).toEqual(
      [
        "API_KEY_MISSING",
        "AUTH_REQUIRED",
        "ACCESS_DENIED",
        "TOOL_NOT_CONNECTED",
        "COMMIT_REQUIRED",
        "PAYMENT_REQUIRED",
        "RATE_LIMITED",
        "INVALID_INPUT",
        "NOT_FOUND",
        "TOOL_ERROR",
        "TIMEOUT",
        "NETWORK_ERROR",
        "SERVER_ERROR",
      ].sort(),
    );
  });

  it("map every error code the service answers, consistently with its status", () => {
    const wire = Object.keys(ERROR_STATUS).sort();
    expect(Object.keys(WIRE_ERROR_CODES).sort()).toEqual(wire);
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      const mapped = WIRE_ERROR_CODES[code]!;
      expect(ERROR_CODES).toContain(mapped);
      if (status === 401 || status === 403) expect(["AUTH_REQUIRED", "ACCESS_DENIED", "API_KEY_MISSING"]).toContain(mapped);
      // A connector's provider failing is the tool's failure, not the service's.
      if (status >= 500) expect(mapped).toBe(code === "provider_error" ? "TOOL_ERROR" : "SERVER_ERROR");
      if (status === 404) expect(mapped).toBe("NOT_FOUND");
      if (status === 429) expect(mapped).toBe("RATE_LIMITED");
      // A code the library did not know would land on the same family by its status.
      // (The connector codes name their own family: an app to connect, a tool that failed.)
      if (!["API_KEY_MISSING", "ACCESS_DENIED", "TOOL_NOT_CONNECTED", "TOOL_ERROR"].includes(mapped)) expect(codeForStatus(status)).toBe(mapped);
    }
  });
});

describe("each code, as the client throws it", () => {
  const cases: Array<[ServiceErrorCode, string]> = [];
  const seen = (code: ServiceErrorCode, how: string) => cases.push([code, how]);

  it("API_KEY_MISSING: no key configured, and the service's api_key_required", async () => {
    const none = await failure(client({ agent: t.agent.handle }).read({ user: live }));
    expect(none).toMatchObject({ code: "API_KEY_MISSING", statusCode: 0, retryable: false });
    const stripKey: FetchLike = async (input, init) => {
      const req = new Request(input, init);
      req.headers.delete("x-api-key");
      return serviceFetch(req);
    };
    const err = await failure(client({ agent: t.agent.handle, apiKey: t.keys.sk }, stripKey).read({ user: live }));
    expect(err).toMatchObject({ code: "API_KEY_MISSING", statusCode: 401, type: "api_key_required", retryable: false });
    expect(err.requestId).toMatch(/^req_/);
    seen("API_KEY_MISSING", "service");
  });

  it("AUTH_REQUIRED: a revoked key (401) and a user who has not approved the agent (403)", async () => {
    const revoked = await failure(client({ agent: t.agent.handle, apiKey: t.keys.revoked }).read({ user: live }));
    expect(revoked).toMatchObject({ code: "AUTH_REQUIRED", statusCode: 401, type: "invalid_api_key", suggestedAction: "reauthenticate" });
    const unapproved = await failure(client({ agent: t.agent.handle, apiKey: t.keys.sk }).read({ user: { userId: "user-unapproved" } }));
    expect(unapproved).toMatchObject({ code: "AUTH_REQUIRED", statusCode: 403, type: "agent_not_approved" });
    seen("AUTH_REQUIRED", "service");
  });

  it("ACCESS_DENIED: another writer's memory, a tool the server does not list, a tool outside the declared set", async () => {
    const other = await createAgent({ developerId: t.developer.id, handle: "other-writer", displayName: "Other" });
    await approveAgent({ userId: t.users.live.id, agentId: other.id });
    const { memory } = await client({ agent: other.handle, apiKey: t.keys.sk }).remember({ user: live, text: "I keep bees" });
    const owned = await failure(client({ agent: t.agent.handle, apiKey: t.keys.sk }).forget({ user: live, id: memory.id }));
    expect(owned).toMatchObject({ code: "ACCESS_DENIED", statusCode: 403, type: "memory_not_owned" });
    const unlisted = await failure(client({ agent: t.agent.handle, apiKey: t.keys.sk }).callTool({ name: "service_gmail_search", user: live }));
    expect(unlisted).toMatchObject({ code: "ACCESS_DENIED", type: "tool_not_found" });
    const fetch = counting(serviceFetch);
    const declared = await failure(
      client({ agent: t.agent.handle, apiKey: t.keys.sk, tools: ["service_profile_read"] }, fetch).callTool({ name: "service_profile_forget", user: live }),
    );
    expect(declared).toMatchObject({ code: "ACCESS_DENIED", type: "client" });
    expect(fetch.calls).toEqual([]);
    seen("ACCESS_DENIED", "service");
  });

  it("TOOL_NOT_CONNECTED: a personal tool for a user who has not connected", async () => {
    const err = await failure(client({ agent: t.agent.handle, apiKey: t.keys.sk }).callTool({ name: "service_profile_read", user: { userId: "user-unapproved" } }));
    expect(err).toMatchObject({ code: "TOOL_NOT_CONNECTED", suggestedAction: "connect", retryable: false });
    seen("TOOL_NOT_CONNECTED", "service");
  });

  it("COMMIT_REQUIRED: reads past the 30-minute obligation, over REST and as the MCP -32009", async () => {
    const c = client({ agent: t.agent.handle, apiKey: t.keys.sk });
    await c.read({ user: live, sections: "summary" });
    await (await db()).readObligation.updateMany({ where: { userId: t.users.live.id, agentId: t.agent.id }, data: { openedAt: new Date(Date.now() - 31 * 60_000) } });
    const rest = await failure(c.read({ user: live }));
    expect(rest).toMatchObject({ code: "COMMIT_REQUIRED", statusCode: 428, type: "commit_required", suggestedAction: "commit", retryable: false });
    expect(rest.details.obligation_opened_at).toEqual(expect.any(String));
    const tool = await failure(c.callTool({ name: "service_profile_search", arguments: { query: "bees" }, user: live }));
    expect(tool).toMatchObject({ code: "COMMIT_REQUIRED", type: "commit_required" });
    await c.commit({ user: live, messages: [{ role: "user", content: "thanks" }], sync: true });
    await expect(c.read({ user: live })).resolves.toMatchObject({ linked: true });
    seen("COMMIT_REQUIRED", "service");
  });

  it("PAYMENT_REQUIRED: quota_exceeded (bulk import is not served yet: the wire answer stands in)", async () => {
    const err = await failure(client({ agent: "a", apiKey: "sk_x" }, wireError(402, "quota_exceeded")).read({ user: live }));
    expect(err).toMatchObject({ code: "PAYMENT_REQUIRED", statusCode: 402, type: "quota_exceeded", requestId: "req_standin", retryable: false });
    seen("PAYMENT_REQUIRED", "wire");
  });

  it("RATE_LIMITED: a key past 60 recognitions a minute, with retry_after; not waited for past maxRetryAfterSeconds", async () => {
    const c = client({ agent: t.agent.handle, apiKey: t.keys.sk });
    for (let i = 0; i < 60; i++) await c.recognizePhone({ candidates: ["+14155550199"] });
    const fetch = counting(serviceFetch);
    const limited = client({ agent: t.agent.handle, apiKey: t.keys.sk, retry: { retries: 3, maxRetryAfterSeconds: 5 } }, fetch);
    const err = await failure(limited.recognizePhone({ candidates: ["+14155550199"] }));
    expect(err).toMatchObject({ code: "RATE_LIMITED", statusCode: 429, type: "rate_limited", retryable: true });
    expect(err.retryAfter).toBeGreaterThan(5);
    expect(fetch.calls).toHaveLength(1);
    seen("RATE_LIMITED", "service");
  });

  it("INVALID_INPUT: a body the route refuses, with its fields", async () => {
    const err = await failure(client({ agent: t.agent.handle, apiKey: t.keys.sk }).remember({ user: live, text: "" }));
    expect(err).toMatchObject({ code: "INVALID_INPUT", statusCode: 400, type: "invalid_request", retryable: false });
    expect(err.details.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field: "text" })]));
    seen("INVALID_INPUT", "service");
  });

  it("NOT_FOUND: a user this developer does not know", async () => {
    const err = await failure(client({ agent: t.agent.handle, apiKey: t.keys.sk }).read({ user: { userId: "nobody" } }));
    expect(err).toMatchObject({ code: "NOT_FOUND", statusCode: 404, type: "unknown_user" });
    seen("NOT_FOUND", "service");
  });

  it("TOOL_ERROR: a tool whose connector failed (connector tools are not served yet: the wire answer stands in)", async () => {
    const text = await failure(
      client({ agent: "a", apiKey: "sk_x" }, toolAnswer({ isError: true, content: [{ type: "text", text: "Gmail answered 502." }] })).callTool({
        name: "service_gmail_search",
        user: live,
      }),
    );
    expect(text).toMatchObject({ code: "TOOL_ERROR", type: "tool_error", message: "Gmail answered 502." });
    const coded = await failure(
      client(
        { agent: "a", apiKey: "sk_x" },
        toolAnswer({ isError: true, content: [{ type: "text", text: JSON.stringify({ error: { code: "internal_error", message: "boom" } }) }] }),
      ).callTool({ name: "x", user: live }),
    );
    expect(coded).toMatchObject({ code: "TOOL_ERROR", type: "internal_error" });
    seen("TOOL_ERROR", "wire");
  });

  it("TIMEOUT: a fetch that never answers", async () => {
    const never: FetchLike = () => new Promise(() => {});
    const err = await failure(client({ agent: "a", apiKey: "sk_x", timeoutMs: 50 }, never).read({ user: live }));
    expect(err).toMatchObject({ code: "TIMEOUT", statusCode: 0, type: "timeout", retryable: true });
    seen("TIMEOUT", "fetch");
  });

  it("NETWORK_ERROR: a fetch that throws", async () => {
    const down: FetchLike = async () => {
      throw new TypeError("fetch failed");
    };
    const err = await failure(client({ agent: "a", apiKey: "sk_x" }, down).read({ user: live }));
    expect(err).toMatchObject({ code: "NETWORK_ERROR", statusCode: 0, type: "network_error", retryable: true });
    expect(err.message).toContain("fetch failed");
    seen("NETWORK_ERROR", "fetch");
  });

  it("SERVER_ERROR: 500 and above", async () => {
    const err = await failure(client({ agent: "a", apiKey: "sk_x" }, wireError(503, "service_unavailable")).read({ user: live }));
    expect(err).toMatchObject({ code: "SERVER_ERROR", statusCode: 503, retryable: true, docUrl: expect.stringMatching(/\/docs\/client#error-server-error$/) });
    const bare = await failure(client({ agent: "a", apiKey: "sk_x" }, async () => new Response("Bad gateway", { status: 502 })).read({ user: live }));
    expect(bare).toMatchObject({ code: "SERVER_ERROR", statusCode: 502, type: "http_502" });
    seen("SERVER_ERROR", "wire");
  });

  it("covered all thirteen", () => {
    expect(new Set(cases.map(([c]) => c)).size).toBe(13);
    expect(BASE_URL).toMatch(/^http/);
  });
});
