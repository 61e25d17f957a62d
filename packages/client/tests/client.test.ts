// The library against the real service: every profile method, the hosted sign-in calls (with the
// replayed-exchange rule), MCP sessions, retries honouring Retry-After, and the fail-open turn helpers.
import { beforeAll, describe, expect, it } from "vitest";
import { GET as signInHost } from "@/app/(hosted)/sign-in/[agent]/route";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { flushAccessLog } from "@/lib/access-log/access-log";
import { db } from "@/lib/platform/db";
import { restCorrelation } from "@/lib/http/turns";
import { createTenant, type Tenant } from "@/tests/helpers/fixtures";
import { ProfileClient, ServiceError, buildSignInUrl, callToolForTurn, commitForTurn, readForTurn, type FetchLike } from "../src/index";
import { BASE_URL, client, counting, serviceFetch } from "./service";

const RETURN_TO = "https://app.example.com/sign-in/done";
const live = { userId: "user-live" };
let t: Tenant;
let c: ProfileClient;
beforeAll(async () => {
  t = await createTenant();
  c = client({ agent: t.agent.handle, apiKey: t.keys.sk, signIn: { returnTo: RETURN_TO } });
});

async function signInCode(): Promise<string> {
  const { token } = await issueAgentToken({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
  const res = await serviceFetch(`${BASE_URL}/v1/auth/sign-in/code`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { code: string }).code;
}

function warnings() {
  const lines: Array<{ message: string; details: Record<string, unknown> }> = [];
  return { lines, logger: { warn: (message: string, details: Record<string, unknown>) => void lines.push({ message, details }) } };
}

describe("profile methods", () => {
  it("remember, search, read, import, forget and commit", async () => {
    const saved = await c.remember({ user: live, text: "I live in York", kind: "location" });
    expect(saved).toMatchObject({ saved: true, memory: { id: expect.stringMatching(/^mem_/), text: expect.stringContaining("York") } });
    const found = await c.search({ user: live, query: "York" });
    expect(found.results.map((r) => r.id)).toContain(saved.memory.id);
    const profile = await c.read({ user: live, sections: "identity,preferences,summary" });
    expect(profile.linked).toBe(true);
    const imported = await c.import({ user: live, text: "I love hiking in the Dales. I work as a carpenter." });
    expect(imported.saved).toBe(true);
    const preview = await c.forget({ user: live, match: "York" });
    expect(preview).toMatchObject({ deleted: false, confirm_required: true });
    const gone = await c.forget({ user: live, id: saved.memory.id });
    expect(gone).toMatchObject({ deleted: true, deleted_count: 1 });
    const committed = await c.commit({ user: live, messages: [{ role: "user", content: "I prefer tea to coffee." }], sync: true });
    expect(committed).toMatchObject({ status: "completed" });
  });

  it("takes the user as an agent token too", async () => {
    const { token } = await issueAgentToken({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
    await expect(c.read({ user: { token }, sections: "summary" })).resolves.toMatchObject({ linked: true });
  });

  it("mints MCP sessions and continues one", async () => {
    const first = await c.mcpSession({ userId: "user-live" });
    expect(first).toMatchObject({ ok: true, linked: true, continued: false, mcp_servers: [{ type: "url", authorization_token: first.session.token }] });
    const next = await c.mcpSession({ userId: "user-live", previousToken: first.session.token });
    expect(next.continued).toBe(true);
    expect(await c.callTool({ name: "service_profile_read", user: { token: next.session.token } })).toMatchObject({ linked: true });
  });
});

describe("hosted sign-in", () => {
  it("builds links the sign-in host opens, once the constant returnTo is registered (idempotently)", async () => {
    expect(await c.registerReturnDestination()).toMatchObject({ created: true });
    expect(await c.registerReturnDestination()).toMatchObject({ created: false });
    expect((await c.listReturnDestinations()).destinations).toEqual([expect.objectContaining({ returnTo: RETURN_TO })]);
    const url = new URL(c.signInUrl({ state: "s1", displayName: "Demo", connectors: ["gmail"], required: [["gmail", "outlook"], "chatgpt"], publishableKey: t.keys.pk }));
    expect(url.pathname).toBe(`/sign-in/${t.agent.handle}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      return_to: RETURN_TO,
      state: "s1",
      display_name: "Demo",
      connectors: "gmail",
      required: "gmail|outlook,chatgpt",
      publishable_key: t.keys.pk,
    });
    expect(url.search).toContain("required=gmail%7Coutlook%2Cchatgpt");
    const opened = await signInHost(new Request(url), { params: Promise.resolve({ agent: t.agent.handle }) });
    expect(opened.status).toBeLessThan(400);
    expect(() => buildSignInUrl({ signInUrl: url.toString(), publishableKey: t.keys.sk })).toThrow(ServiceError);
  });

  it("exchanges a code for { token, userId }, and treats a replayed URL as signed in when the held token is valid", async () => {
    const code = await signInCode();
    const first = await c.exchangeCode({ code });
    expect(first).toEqual({ token: expect.any(String), userId: t.users.live.id, replayed: false });
    expect(await c.validate({ token: first.token })).toMatchObject({ valid: true, userId: t.users.live.id, tokenUse: "agent" });

    const replay = await c.exchangeCode({ code, currentToken: first.token });
    expect(replay).toEqual({ token: first.token, userId: t.users.live.id, replayed: true });
    await expect(c.exchangeCode({ code })).rejects.toMatchObject({ code: "INVALID_INPUT", type: "code_already_used" });
    await expect(c.exchangeCode({ code, currentToken: "not-a-token" })).rejects.toMatchObject({ type: "code_already_used" });
    await expect(c.exchangeCode({ code: "unknown-code" })).rejects.toMatchObject({ type: "invalid_code" });
  });

  it("registers, lists and revokes message lines; createMessageSignInUrl drops required", async () => {
    const phone = "+14155550123";
    const { line } = await c.registerMessageLine({ phone, label: "Support" });
    expect(line).toMatchObject({ phoneLast4: "0123", status: "active" });
    expect((await c.listMessageLines()).lines.map((l) => l.id)).toContain(line.id);
    const link = await c.createMessageSignInUrl({ agentPhone: phone, messageBody: "hi", required: ["gmail"] });
    expect(link).toMatchObject({ mode: "plain", reason: "signin", fallbackReason: "sender_proof_missing" });
    expect(new URL(link.url).searchParams.has("required")).toBe(false);
    expect(await c.revokeMessageLine({ phone })).toMatchObject({ deleted: true });
  });

  it("recognizes nobody from an unknown number", async () => {
    expect(await c.recognizePhone({ candidates: ["tel:+14155550987"] })).toMatchObject({ matched: false, approved: false, token: null });
  });
});

describe("retries", () => {
  it("retries a retryable answer after its Retry-After, then succeeds", async () => {
    let n = 0;
    const flaky: FetchLike = async (input, init) => {
      n++;
      if (n === 1)
        return Response.json({ error: { code: "rate_limited", message: "slow down", retry_after: 1 }, request_id: "req_x" }, { status: 429, headers: { "retry-after": "1" } });
      if (n === 2) return new Response("upstream", { status: 503, headers: { "retry-after": "0" } });
      return serviceFetch(input, init);
    };
    const delays: number[] = [];
    const r = new ProfileClient({
      baseUrl: BASE_URL,
      agent: t.agent.handle,
      apiKey: t.keys.sk,
      fetch: flaky,
      retry: { retries: 2 },
      onRetry: ({ delayMs }) => delays.push(delayMs),
    });
    const started = Date.now();
    await expect(r.read({ user: live, sections: "summary" })).resolves.toMatchObject({ linked: true });
    expect(delays).toEqual([1000, 0]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("backs off on network failures, and never retries what cannot pass", async () => {
    let n = 0;
    const down: FetchLike = async (input, init) => (++n < 3 ? Promise.reject(new TypeError("fetch failed")) : serviceFetch(input, init));
    const r = new ProfileClient({ baseUrl: BASE_URL, agent: t.agent.handle, apiKey: t.keys.sk, fetch: down, retry: { retries: 2, baseDelayMs: 10 } });
    await expect(r.read({ user: live, sections: "summary" })).resolves.toMatchObject({ linked: true });
    expect(n).toBe(3);
    const fetch = counting(serviceFetch);
    const strict = new ProfileClient({ baseUrl: BASE_URL, agent: t.agent.handle, apiKey: t.keys.sk, fetch, retry: { retries: 3, baseDelayMs: 10 } });
    await expect(strict.remember({ user: live, text: "" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    expect(fetch.calls).toHaveLength(1);
  });
});

describe("fail open", () => {
  const never: FetchLike = () => new Promise(() => {});

  it("a read past its budget gives an empty profile and a warning, not an error", async () => {
    const w = warnings();
    const slow = client({ agent: t.agent.handle, apiKey: t.keys.sk }, never);
    const started = Date.now();
    const profile = await readForTurn(slow, { user: live, budgetMs: 100, logger: w.logger });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(profile).toMatchObject({ linked: false, unavailable: true, preferences: [], summary: "" });
    expect(w.lines).toEqual([{ message: expect.stringContaining("profile read failed"), details: expect.objectContaining({ code: "TIMEOUT" }) }]);
    await expect(readForTurn(c, { user: live, logger: w.logger })).resolves.toMatchObject({ linked: true });
  });

  it("a failed commit or tool call is a warning and null", async () => {
    const w = warnings();
    const revoked = client({ agent: t.agent.handle, apiKey: t.keys.revoked });
    expect(await commitForTurn(revoked, { user: live, messages: [{ role: "user", content: "hi" }], logger: w.logger })).toBeNull();
    expect(await callToolForTurn(c, { name: "service_profile_read", user: { userId: "user-unapproved" }, logger: w.logger })).toBeNull();
    expect(w.lines.map((l) => l.details.code)).toEqual(["AUTH_REQUIRED", "TOOL_NOT_CONNECTED"]);
  });

  it("an agent turn answers whether or not the service does", async () => {
    async function turn(service: ProfileClient, message: string): Promise<string> {
      const w = warnings();
      const profile = await readForTurn(service, { user: live, budgetMs: 300, logger: w.logger });
      const answer = `${"summary" in profile && profile.summary ? "(personal) " : ""}echo: ${message}`;
      await commitForTurn(service, { user: live, messages: [{ role: "user", content: message }], response: answer, budgetMs: 300, logger: w.logger });
      return answer;
    }
    expect(await turn(c, "hello")).toContain("echo: hello");
    expect(await turn(client({ agent: t.agent.handle, apiKey: t.keys.sk }, never), "hello")).toBe("echo: hello");
  });

  it("a turn's read and commit carry its conversation and turn ids, which the service records as one turn", async () => {
    const since = new Date();
    const seen: Array<[string, string | null, string | null]> = [];
    const watching: FetchLike = async (input, init) => {
      const req = new Request(input, init);
      seen.push([`${req.method} ${new URL(req.url).pathname}`, req.headers.get("x-service-conversation-id"), req.headers.get("x-service-turn-id")]);
      return serviceFetch(req);
    };
    const service = client({ agent: t.agent.handle, apiKey: t.keys.sk }, watching);
    const w = warnings();
    const turn = { conversationId: "chat_7", turnId: "3" };
    expect(await readForTurn(service, { user: live, turn, logger: w.logger })).toMatchObject({ linked: true });
    expect(await commitForTurn(service, { user: live, turn, messages: [{ role: "user", content: "I cycle to work." }], sync: true, logger: w.logger })).toMatchObject({
      status: "completed",
    });
    await service.search({ user: live, turn: { conversationId: "chat_7" }, query: "cycle" });
    expect(w.lines).toEqual([]);
    expect(seen).toEqual([
      ["GET /v1/profile", "chat_7", "3"],
      ["POST /v1/profile/commit", "chat_7", "3"],
      ["GET /v1/profile/search", "chat_7", null],
    ]);

    await flushAccessLog();
    const entries = await (
      await db()
    ).accessLogEntry.findMany({
      where: { userId: t.users.live.id, at: { gte: since } },
      orderBy: [{ at: "asc" }, { id: "asc" }],
      select: { action: true, conversation: true, turn: true },
    });
    const scope = { developerId: t.developer.id, plane: "live" as const, agentId: t.agent.id };
    const recorded = restCorrelation(scope, { conversation: "chat_7", turn: "3" });
    expect(entries).toEqual([
      { action: "GET /v1/profile", ...recorded },
      { action: "POST /v1/profile/commit", ...recorded },
      { action: "GET /v1/profile/search", conversation: recorded.conversation, turn: null },
    ]);

    // An id the service refuses is INVALID_INPUT, naming the header; the fail-open read goes on without it.
    const err = await service.read({ user: live, turn: { conversationId: "chat 7" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ code: "INVALID_INPUT", statusCode: 400, message: "Invalid headers: X-Service-Conversation-Id." });
    expect(await readForTurn(service, { user: live, turn: { conversationId: "chat 7" }, logger: w.logger })).toMatchObject({ unavailable: true });
  });
});
