// A database that cannot be reached is a 503 with Retry-After on every API surface, never a 500: the
// /v1 shape (service_unavailable, retry_after), the OAuth endpoints' (RFC 6749 temporarily_unavailable)
// and JSON-RPC's on both MCP servers.
// The database here is a PostgreSQL address where nothing listens, so each connection is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as profile } from "@/app/v1/profile/route";
import { POST as token } from "@/app/oauth/token/route";
import { POST as developerMcp } from "@/app/mcp/route";
import { POST as personalMcp } from "@/app/personal-mcp/route";
import { MCP_UNAVAILABLE_CODE } from "@/lib/mcp/json-rpc";
import { database } from "@/lib/platform/db";
import { databaseUnavailable } from "@/lib/platform/db/unavailable";
import { MESSAGES, UNAVAILABLE_RETRY_AFTER_SECONDS } from "@/lib/http/errors";
import { OAUTH_MESSAGES } from "@/lib/oidc/errors";
import { makeDatabaseUnreachable } from "../../helpers/env";

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await makeDatabaseUnreachable();
});
afterAll(() => restore());

describe("while the database is away", () => {
  it("a /v1 route answers 503 service_unavailable with Retry-After, in the /v1 error shape", async () => {
    const res = await profile(new Request("http://localhost:3000/v1/profile", { headers: { "x-api-key": `sk_test_${"a".repeat(32)}`, "x-agent": "desk" } }));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    const body = await res.json();
    expect(body).toEqual({
      error: { code: "service_unavailable", message: MESSAGES.serviceUnavailable, retry_after: UNAVAILABLE_RETRY_AFTER_SECONDS },
      request_id: expect.stringMatching(/^req_/),
    });
  });

  it("the token endpoint answers 503 temporarily_unavailable with Retry-After, in RFC 6749's shape", async () => {
    const form = new URLSearchParams({ grant_type: "refresh_token", refresh_token: "mcp_rt_abcdefghijklmnop", client_id: "oc_abcdefghijklmnop" });
    const res = await token(new Request("http://localhost:3000/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form }));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ error: "temporarily_unavailable", error_description: OAUTH_MESSAGES.temporarilyUnavailable });
  });

  const toolCall = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "service_profile_read", arguments: {} } });
  const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const jsonRpcUnavailable = {
    jsonrpc: "2.0",
    id: null,
    error: { code: MCP_UNAVAILABLE_CODE, message: MESSAGES.serviceUnavailable, data: { code: "service_unavailable", retry_after: UNAVAILABLE_RETRY_AFTER_SECONDS } },
  };

  it("the developer MCP server answers 503 with Retry-After and a JSON-RPC error", async () => {
    const res = await developerMcp(
      new Request("http://localhost:3000/mcp", { method: "POST", headers: { ...mcpHeaders, "x-api-key": `sk_test_${"a".repeat(32)}`, "x-agent": "desk" }, body: toolCall }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    expect(await res.json()).toEqual(jsonRpcUnavailable);
  });

  it("the personal MCP endpoint answers 503 with Retry-After and a JSON-RPC error", async () => {
    const res = await personalMcp(
      new Request("http://localhost:3000/personal-mcp", { method: "POST", headers: { ...mcpHeaders, authorization: `Bearer mcp_at_${"b".repeat(43)}` }, body: toolCall }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    expect(await res.json()).toEqual(jsonRpcUnavailable);
  });

  it("is told apart from the code's own faults by the error the driver gives", async () => {
    const refused = await database().then(
      (d) => d.sql.query("SELECT 1"),
      (err: unknown) => err,
    );
    expect(databaseUnavailable(refused)).toBe(true);
    expect(databaseUnavailable(new Error("Cannot read properties of undefined"))).toBe(false);
    expect(databaseUnavailable(Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505" }))).toBe(false);
    expect(databaseUnavailable(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(true);
    expect(databaseUnavailable(new Error("wrapped", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) }))).toBe(true);
  });
});
