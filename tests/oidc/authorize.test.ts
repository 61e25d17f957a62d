// GET /oauth/authorize and the flow it starts: every error shown in the browser (never sent to the
// callback) with the specification's strings, scopes, required, the 15-minute flow, and its end.
import { beforeEach, describe, expect, it } from "vitest";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { returnFromReceipt } from "../helpers/receipt";
import { FLOW_COOKIE_PREFIX, FLOW_TTL_SECONDS, isFlowBrowser } from "@/lib/flow/browser";
import { FlowError } from "@/lib/flow/errors";
import { findFlow } from "@/lib/flow/store";
import { declineFlow } from "@/lib/flow/transitions";
import { setAgentActive } from "@/lib/agents/agents";
import { OAUTH_MESSAGES } from "@/lib/oidc/errors";
import { isApproved } from "@/lib/users/approvals";
import { createUser } from "@/lib/users/users";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { authorizeCall, authorizeParams, CALLBACK, flowIdFrom, pkce, registerClient } from "../helpers/oauth";

let t: Tenant;
let clientId: string;
const { challenge } = pkce();
beforeEach(async () => {
  resetClockForTests();
  t = await createTenant();
  clientId = (await registerClient(t)).client_id;
});

const HTML = { accept: "text/html,application/xhtml+xml" };

describe("GET /oauth/authorize errors", () => {
  const rows: Array<[string, (id: string) => Record<string, string | undefined>, string, string]> = [
    ["unknown client", () => authorizeParams("oc_doesnotexist000000000000", challenge), "invalid_client", OAUTH_MESSAGES.unknownClient],
    ["missing client_id", (id) => authorizeParams(id, challenge, { client_id: undefined }), "invalid_client", OAUTH_MESSAGES.unknownClient],
    ["unregistered callback", (id) => authorizeParams(id, challenge, { redirect_uri: "http://localhost:4000/other" }), "invalid_request", OAUTH_MESSAGES.redirectUriMismatch],
    ["callback differing by a trailing slash", (id) => authorizeParams(id, challenge, { redirect_uri: `${CALLBACK}/` }), "invalid_request", OAUTH_MESSAGES.redirectUriMismatch],
    ["missing callback", (id) => authorizeParams(id, challenge, { redirect_uri: undefined }), "invalid_request", OAUTH_MESSAGES.redirectUriMismatch],
    ["no PKCE", (id) => authorizeParams(id, challenge, { code_challenge: undefined, code_challenge_method: undefined }), "invalid_request", OAUTH_MESSAGES.pkceRequired],
    ["PKCE method plain", (id) => authorizeParams(id, challenge, { code_challenge_method: "plain" }), "invalid_request", OAUTH_MESSAGES.pkceRequired],
    ["PKCE method missing", (id) => authorizeParams(id, challenge, { code_challenge_method: undefined }), "invalid_request", OAUTH_MESSAGES.pkceRequired],
    ["malformed challenge", (id) => authorizeParams(id, "short", {}), "invalid_request", OAUTH_MESSAGES.codeChallengeFormat],
    ["response_type token", (id) => authorizeParams(id, challenge, { response_type: "token" }), "unsupported_response_type", OAUTH_MESSAGES.responseTypeCode],
    ["response_type missing", (id) => authorizeParams(id, challenge, { response_type: undefined }), "unsupported_response_type", OAUTH_MESSAGES.responseTypeCode],
    ["nonce of 513 characters", (id) => authorizeParams(id, challenge, { nonce: "n".repeat(513) }), "invalid_request", OAUTH_MESSAGES.nonceTooLong],
    ["resource present", (id) => authorizeParams(id, challenge, { resource: "https://mcp.example/x" }), "invalid_target", OAUTH_MESSAGES.resourceNotAllowed],
  ];

  it.each(rows)("%s: shown in the browser with the spec's error, nothing sent to the callback", async (_name, params, error, description) => {
    const flowsBefore = await (await db()).flowSession.count();
    const page = await authorizeCall(params(clientId), HTML);
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.body).toContain(`<dd>${error}</dd>`);
    expect(page.body).toContain(description.replace(/'/g, "&#39;"));
    expect(page.body).toContain("Sign-in could not start");

    const api = await authorizeCall(params(clientId));
    expect(api.status).toBe(400);
    expect(api.body).toEqual({ error, error_description: description });
    expect(await (await db()).flowSession.count()).toBe(flowsBefore);
  });

  it("escapes what it shows", async () => {
    const page = await authorizeCall(authorizeParams(clientId, challenge, { client_id: "<script>" }), HTML);
    expect(page.body).not.toContain("<script>");
  });

  it("checks the client and the callback before anything else", async () => {
    const res = await authorizeCall(authorizeParams(clientId, challenge, { redirect_uri: "https://evil.example/cb", response_type: "token", code_challenge: undefined }));
    expect(res.body.error_description).toBe(OAUTH_MESSAGES.redirectUriMismatch);
  });

  it("refuses a repeated parameter", async () => {
    const res = await authorizeCall({ ...authorizeParams(clientId, challenge) });
    expect(res.status).toBe(303);
    const url = new URL("http://localhost:3000/oauth/authorize");
    for (const [k, v] of Object.entries(authorizeParams(clientId, challenge))) url.searchParams.set(k, v);
    url.searchParams.append("state", "second");
    const { GET } = await import("@/app/oauth/authorize/route");
    const dup = await GET(new Request(url, { headers: { "x-service-client-ip": "127.0.0.1" } }));
    expect(dup.status).toBe(400);
    expect(await dup.json()).toEqual({ error: "invalid_request", error_description: "The state parameter is repeated." });
  });

  it("accepts a nonce of exactly 512 characters", async () => {
    const res = await authorizeCall(authorizeParams(clientId, challenge, { nonce: "n".repeat(512) }));
    expect(res.status).toBe(303);
  });

  it("shows an error when the client's developer has no active agent", async () => {
    await setAgentActive({ developerId: t.developer.id, handle: t.agent.handle, active: false });
    const res = await authorizeCall(authorizeParams(clientId, challenge));
    expect(res.body).toEqual({ error: "invalid_client", error_description: OAUTH_MESSAGES.clientHasNoAgent });
  });
});

describe("a valid authorize request", () => {
  it("starts a 15-minute flow tied to the browser and sends the browser to it", async () => {
    const res = await authorizeCall(authorizeParams(clientId, challenge, { prompt: "login", login_hint: "x@example.com", max_age: "0", extra: "ignored" }));
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!);
    expect(location.origin).toBe("http://localhost:3000");
    const flowId = flowIdFrom(res);
    expect(location.pathname).toBe(`/flow/${flowId}`);
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(new RegExp(`^${FLOW_COOKIE_PREFIX}${flowId}=[A-Za-z0-9]{32}; Path=/flow/${flowId}; Max-Age=${FLOW_TTL_SECONDS}; HttpOnly; SameSite=Lax$`));
    const secret = cookie.split(";")[0]!.split("=")[1];
    expect(await isFlowBrowser(flowId, secret)).toBe(true);
    expect(await isFlowBrowser(flowId, "x".repeat(32))).toBe(false);

    const flow = (await findFlow(flowId))!;
    expect(flow).toMatchObject({ wayIn: "oidc", agentId: t.agent.id, developerId: t.developer.id, plane: "live", status: "active", required: [] });
    expect(flow.request).toEqual({
      client_id: clientId,
      redirect_uri: CALLBACK,
      state: "st-123",
      nonce: "n-456",
      scopes: ["openid", "email", "profile"],
      code_challenge: challenge,
    });
    const lifetime = flow.expiresAt.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan((FLOW_TTL_SECONDS - 5) * 1000);
    expect(lifetime).toBeLessThanOrEqual(FLOW_TTL_SECONDS * 1000);
  });

  it("uses the client's registered scopes when scope is omitted, and only OpenID Connect scopes when sent", async () => {
    const omitted = (await findFlow(flowIdFrom(await authorizeCall(authorizeParams(clientId, challenge, { scope: undefined })))))!;
    expect(omitted.request).toMatchObject({ scopes: ["openid", "email", "profile"] });
    const some = (await findFlow(flowIdFrom(await authorizeCall(authorizeParams(clientId, challenge, { scope: "profile openid offline_access profile.read" })))))!;
    expect(some.request).toMatchObject({ scopes: ["openid", "profile"] });
    // A client made elsewhere registers no scopes: without scope, no openid, so no ID token later.
    await (await db()).oAuthClient.update({ where: { id: clientId }, data: { scopes: [] } });
    const { clearClientCache } = await import("@/lib/oidc/client-auth");
    clearClientCache();
    const none = (await findFlow(flowIdFrom(await authorizeCall(authorizeParams(clientId, challenge, { scope: undefined })))))!;
    expect(none.request).toMatchObject({ scopes: [] });
  });

  it("carries required, parsed by the grammar, to the flow", async () => {
    const flow = (await findFlow(flowIdFrom(await authorizeCall(authorizeParams(clientId, challenge, { required: "email,chatgpt|claude,bogus,notion|typo" })))))!;
    expect(flow.required).toEqual([["gmail", "outlook"], ["chatgpt", "claude"], ["notion"]]);
  });
});

describe("the flow's end", () => {
  async function startFlow(extra: Record<string, string | undefined> = {}) {
    return flowIdFrom(await authorizeCall(authorizeParams(clientId, challenge, extra)));
  }

  it("approves the agent and redirects to the callback with code and state, once", async () => {
    const user = await createUser({ plane: "live" });
    const flowId = await startFlow();
    expect(await isApproved({ userId: user.id, agentId: t.agent.id })).toBe(false);
    const { redirectTo } = await returnFromReceipt({ flowId, userId: user.id });
    const url = new URL(redirectTo);
    expect(`${url.origin}${url.pathname}`).toBe(CALLBACK);
    expect([...url.searchParams.keys()].sort()).toEqual(["code", "state"]);
    expect(url.searchParams.get("state")).toBe("st-123");
    expect(url.searchParams.get("code")).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(await isApproved({ userId: user.id, agentId: t.agent.id })).toBe(true);
    await expect(returnFromReceipt({ flowId, userId: user.id })).rejects.toEqual(new FlowError("ended"));
  });

  it("keeps the callback's own query and sends no state when none was given", async () => {
    await registerClient(t, { redirectUri: "http://localhost:4000/cb?app=1" });
    const { clearClientCache } = await import("@/lib/oidc/client-auth");
    clearClientCache();
    const flowId = await startFlow({ redirect_uri: "http://localhost:4000/cb?app=1", state: undefined });
    const url = new URL((await returnFromReceipt({ flowId, userId: t.users.live.id })).redirectTo);
    expect(url.searchParams.get("app")).toBe("1");
    expect(url.searchParams.has("state")).toBe(false);
    expect(url.searchParams.has("code")).toBe(true);
  });

  it("a decline redirects with error=access_denied and state, and no code", async () => {
    const flowId = await startFlow();
    const url = new URL((await declineFlow({ flowId })).redirectTo);
    expect([...url.searchParams.entries()]).toEqual([
      ["error", "access_denied"],
      ["state", "st-123"],
    ]);
    await expect(returnFromReceipt({ flowId, userId: t.users.live.id })).rejects.toEqual(new FlowError("ended"));
  });

  it("expires after 15 minutes", async () => {
    const flowId = await startFlow();
    advanceClockForTests(FLOW_TTL_SECONDS * 1000 + 1);
    await expect(returnFromReceipt({ flowId, userId: t.users.live.id })).rejects.toEqual(new FlowError("expired"));
    resetClockForTests();
  });

  it("is still open just before 15 minutes", async () => {
    const flowId = await startFlow();
    advanceClockForTests(FLOW_TTL_SECONDS * 1000 - 2_000);
    await expect(returnFromReceipt({ flowId, userId: t.users.live.id })).resolves.toHaveProperty("redirectTo");
    resetClockForTests();
  });

  it("refuses a person of the other key plane, and two completions at once end it once", async () => {
    const flowId = await startFlow();
    await expect(returnFromReceipt({ flowId, userId: t.users.test.id })).rejects.toEqual(new FlowError("wrong_plane"));
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => returnFromReceipt({ flowId, userId: t.users.live.id })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await (await db()).oAuthCode.count({ where: { clientId } })).toBe(1);
  });
});
