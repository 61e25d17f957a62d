// Hosted sign-in links: the sign-in host opens the flow each way in asks for; finishing returns a
// one-time code to a registered return destination; the code buys an agent token once; validate
// stands only for this developer, agent and plane while the user approves the agent.
import { afterEach, describe, expect, it } from "vitest";
import * as hosted from "@/app/v1/auth/sign-in/agents/[agent]/hosted/route";
import * as codeRoute from "@/app/v1/auth/sign-in/code/route";
import * as exchangeRoute from "@/app/v1/auth/sign-in/exchange/route";
import * as destinationsRoute from "@/app/v1/auth/sign-in/return-destinations/route";
import * as validateRoute from "@/app/v1/auth/sign-in/validate/route";
import * as agentRoute from "@/app/v1/agents/[handle]/route";
import * as agentsRoute from "@/app/v1/agents/route";
import { GET as signInHost } from "@/app/(hosted)/sign-in/[agent]/route";
import { GET as signInHostReconnect } from "@/app/(hosted)/sign-in/[agent]/reconnect/route";
import { createAgent } from "@/lib/agents/agents";
import { AGENT_TOKEN_TTL_SECONDS, issueAgentToken, verifyAgentToken } from "@/lib/bearer-tokens/agent-token";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { returnFromReceipt } from "../helpers/receipt";
import { findFlow } from "@/lib/flow/store";
import { declineFlow } from "@/lib/flow/transitions";
import { flowScreenView } from "@/lib/flow/views";
import { MESSAGES } from "@/lib/http/errors";
import { CODE_MESSAGES, SIGN_IN_CODE_TTL_SECONDS } from "@/lib/sign-in/codes";
import { DESTINATION_MESSAGES, MAX_RETURN_DESTINATIONS, normalizeDestination } from "@/lib/sign-in/destinations";
import { HOSTED_METADATA_PER_MINUTE, SIGN_IN_CODES_PER_MINUTE } from "@/lib/sign-in/limits";
import { LINK_MESSAGES } from "@/lib/sign-in/host";
import { revokeApproval } from "@/lib/users/approvals";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

const RETURN = "https://app.example.com/auth/callback";

afterEach(() => resetClockForTests());

function keyHeaders(t: Tenant, key = t.keys.sk) {
  return { "x-api-key": key, "x-agent": t.agent.handle };
}

async function register(t: Tenant, returnTo = RETURN, key = t.keys.sk) {
  return call(destinationsRoute.POST, { headers: keyHeaders(t, key), body: { return_to: returnTo } });
}

/** Opens {SIGN_IN_URL}/<agent> as a browser would: the flow it starts, or the page it answers. */
async function openLink(name: string, query: Record<string, string | string[]> = {}, reconnect = false) {
  const url = new URL(`http://localhost:3000/sign-in/${name}${reconnect ? "/reconnect" : ""}`);
  for (const [k, v] of Object.entries(query)) for (const value of [v].flat()) url.searchParams.append(k, value);
  const res = await (reconnect ? signInHostReconnect : signInHost)(new Request(url, { headers: { "x-service-client-ip": "10.9.0.1" } }), {
    params: Promise.resolve({ agent: name }),
  });
  const location = res.headers.get("location");
  const flowId = res.status === 303 && location?.includes("/flow/") ? location.split("/flow/")[1]! : null;
  return { res, flow: flowId ? await findFlow(flowId) : null, text: res.status === 303 ? "" : await res.text() };
}

async function signInName(t: Tenant): Promise<string> {
  return (await (await db()).agent.findUniqueOrThrow({ where: { id: t.agent.id } })).signInName;
}

/** A sign-in link finished by the tenant's live user: the code and state it returned with. */
async function finishedLink(t: Tenant, query: Record<string, string> = {}) {
  const { flow } = await openLink(await signInName(t), { return_to: RETURN, state: "st-1", ...query });
  const { redirectTo } = await returnFromReceipt({ flowId: flow!.id, userId: t.users.live.id });
  const back = new URL(redirectTo);
  return { back, code: back.searchParams.get("code")!, state: back.searchParams.get("state") };
}

describe("agents carry their sign-in link", () => {
  it("gives every agent a sign-in name unique across developers: the handle first, then with a tail", async () => {
    const a = await createTenant(undefined, "shared-handle-x");
    const b = await createTenant(undefined, "shared-handle-x");
    const [na, nb] = [await signInName(a), await signInName(b)];
    expect(na).not.toBe(nb);
    expect([na, nb]).toContain("shared-handle-x");
    const listed = await call(agentsRoute.GET, { headers: { "x-api-key": b.keys.sk } });
    expect(listed.body.agents[0].sign_in_url).toBe(`http://localhost:3000/sign-in/${nb}`);
  });

  it("updates display name, logo, colour and active state, answering sign_in_url", async () => {
    const t = await createTenant();
    const res = await call(agentRoute.PATCH, {
      path: `/v1/agents/${t.agent.handle}`,
      params: { handle: t.agent.handle },
      headers: { "x-api-key": t.keys.sk },
      body: { display_name: "Trail Guide", logo_url: "https://cdn.example.com/logo.png", brand_color: "#1D4ED8" },
    });
    expect(res.status).toBe(200);
    expect(res.body.agent).toMatchObject({ display_name: "Trail Guide", logo_url: "https://cdn.example.com/logo.png", brand_color: "#1d4ed8" });
    expect(res.body.agent.sign_in_url).toMatch(/\/sign-in\//);
    const bad = await call(agentRoute.PATCH, {
      path: "/v1/agents/x",
      params: { handle: t.agent.handle },
      headers: { "x-api-key": t.keys.sk },
      body: { logo_url: "http://cdn.example.com/l.png" },
    });
    expect(bad.status).toBe(400);
    const unknown = await call(agentRoute.PATCH, { path: "/v1/agents/nope", params: { handle: "nope" }, headers: { "x-api-key": t.keys.sk }, body: { active: false } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: "unknown_agent", message: MESSAGES.unknownAgent });
  });
});

describe("GET /v1/auth/sign-in/agents/:agent/hosted", () => {
  it("answers public branding, this address and the publishable key of the agent's plane", async () => {
    const t = await createTenant();
    const name = await signInName(t);
    const res = await call(hosted.GET, { path: `/v1/auth/sign-in/agents/${name}/hosted`, params: { agent: name } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      signInUrl: `http://localhost:3000/sign-in/${name}`,
      signInName: name,
      displayName: "Assistant",
      logoUrl: null,
      initials: "AS",
      brandColor: null,
      metadataUrl: `http://localhost:3000/v1/auth/sign-in/agents/${name}/hosted`,
      publishableKey: t.keys.pk,
      plane: "live",
    });
  });

  it("is 404 for an unknown or inactive agent", async () => {
    const t = await createTenant();
    const name = await signInName(t);
    expect((await call(hosted.GET, { path: "/v1/auth/sign-in/agents/none-such/hosted", params: { agent: "none-such" } })).status).toBe(404);
    await call(agentRoute.PATCH, { path: "/v1/agents/x", params: { handle: t.agent.handle }, headers: { "x-api-key": t.keys.sk }, body: { active: false } });
    const res = await call(hosted.GET, { path: `/v1/auth/sign-in/agents/${name}/hosted`, params: { agent: name } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("unknown_agent");
  });
});

describe("limits on the routes without a key", () => {
  it(`answers 429 past ${HOSTED_METADATA_PER_MINUTE} hosted metadata reads and ${SIGN_IN_CODES_PER_MINUTE} codes a minute per IP`, async () => {
    const t = await createTenant();
    const name = await signInName(t);
    const ip = { "x-service-client-ip": "10.61.0.1" };
    const reads = await Promise.all(
      Array.from({ length: HOSTED_METADATA_PER_MINUTE }, () => call(hosted.GET, { path: `/v1/auth/sign-in/agents/${name}/hosted`, params: { agent: name }, headers: ip })),
    );
    expect(reads.every((r) => r.status === 200)).toBe(true);
    const limited = await call(hosted.GET, { path: `/v1/auth/sign-in/agents/${name}/hosted`, params: { agent: name }, headers: ip });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: "rate_limited", message: MESSAGES.rateLimited });

    const { token } = await issueAgentToken({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
    const auth = { authorization: `Bearer ${token}`, "x-service-client-ip": "10.61.0.2" };
    for (let i = 0; i < SIGN_IN_CODES_PER_MINUTE; i++) expect((await call(codeRoute.POST, { headers: auth })).status).toBe(201);
    expect((await call(codeRoute.POST, { headers: auth })).status).toBe(429);
  });
});

describe("return destinations", () => {
  it("registers idempotently, strips the fragment, lists per agent and plane, and removes", async () => {
    const t = await createTenant();
    const first = await register(t, `${RETURN}#frag`);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ destination: { returnTo: RETURN }, created: true, livemode: true });
    const again = await register(t, RETURN);
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect((await register(t, "com.example.app://signed-in")).status).toBe(201);
    const listed = await call(destinationsRoute.GET, { headers: keyHeaders(t) });
    expect(listed.body.destinations.map((d: { returnTo: string }) => d.returnTo)).toEqual([RETURN, "com.example.app://signed-in"]);
    // The test plane has its own.
    expect((await call(destinationsRoute.GET, { headers: keyHeaders(t, t.keys.skTest) })).body.destinations).toEqual([]);
    const removed = await call(destinationsRoute.DELETE, { headers: keyHeaders(t), body: { return_to: RETURN } });
    expect(removed.body).toMatchObject({ deleted: true, destinations: [{ returnTo: "com.example.app://signed-in" }] });
    expect((await call(destinationsRoute.DELETE, { headers: keyHeaders(t), body: { return_to: RETURN } })).status).toBe(404);
  });

  it(`keeps at most ${MAX_RETURN_DESTINATIONS} per agent and plane: the next is 400, nothing written`, async () => {
    const t = await createTenant();
    for (let i = 0; i < MAX_RETURN_DESTINATIONS; i++) expect((await register(t, `https://app.example.com/cb/${i}`)).status).toBe(201);
    const over = await register(t, "https://app.example.com/cb/over");
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe("invalid_request");
    // Registering one already there is still fine.
    expect((await register(t, "https://app.example.com/cb/0")).status).toBe(200);
    expect((await call(destinationsRoute.GET, { headers: keyHeaders(t) })).body.destinations).toHaveLength(MAX_RETURN_DESTINATIONS);
  });

  it("refuses what cannot be a destination, and writes nothing", async () => {
    const t = await createTenant();
    for (const bad of ["http://app.example.com/cb", "/relative", "javascript:alert(1)", "https://user:pw@app.example.com/", "data:text/html,x", "myapp:"]) {
      const res = await register(t, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_destination", message: DESTINATION_MESSAGES.invalid });
    }
    expect(normalizeDestination("http://localhost:4000/cb#x")).toBe("http://localhost:4000/cb");
    expect((await call(destinationsRoute.GET, { headers: keyHeaders(t) })).body.destinations).toEqual([]);
  });
});

describe("the sign-in host: each way in opens its first screen", () => {
  it.each([
    ["a plain link", {}, "import"],
    ["connectors naming one app", { connectors: "calendar" }, "app"],
    ["connectors ['gmail'] with required ['email']", { connectors: "gmail", required: "email" }, "app"],
    ["connectors ['drive'] with required ['email']", { connectors: "drive", required: "email" }, "mailbox"],
    ["two connectors", { connectors: "gmail,notion" }, "import"],
    ["outlook, never a sign-in-link connector", { connectors: "outlook" }, "import"],
    ["connectors only sheets (the older connect page, required ignored)", { connectors: "sheets", required: "email" }, "phone"],
  ])("%s", async (_, query, screen) => {
    const t = await createTenant();
    await register(t);
    const { flow } = await openLink(await signInName(t), { return_to: RETURN, ...query });
    expect(flow?.screen).toBe(screen);
    expect(flow?.wayIn).toBe("sign_in_link");
    expect(flow?.plane).toBe("live");
  });

  it("offers exactly the apps a link with two or more connectors names, Sheets included", async () => {
    const t = await createTenant();
    const { flow } = await openLink(await signInName(t), { connectors: "sheets,gmail" });
    const view = await flowScreenView({ state: "open", flow: flow! });
    expect(view.screen === "import" && view.apps.map((r) => r.app)).toEqual(["sheets", "gmail"]);
    const plain = await openLink(await signInName(t));
    const plainView = await flowScreenView({ state: "open", flow: plain.flow! });
    expect(plainView.screen === "import" && plainView.apps.map((r) => r.app)).toEqual(["gmail", "calendar", "drive", "notion", "outlook"]);
  });

  it("takes the plane from the link's publishable key, and refuses another developer's", async () => {
    const t = await createTenant();
    const other = await createTenant();
    await register(t, RETURN, t.keys.skTest);
    expect((await openLink(await signInName(t), { return_to: RETURN, publishable_key: t.keys.pkTest })).flow?.plane).toBe("test");
    const refused = await openLink(await signInName(t), { publishable_key: other.keys.pk });
    expect(refused.res.status).toBe(400);
    expect(refused.text).toContain(LINK_MESSAGES.badKey.replace(/'/g, "&#39;"));
  });

  it("refuses a return_to the agent did not register in that plane, and opens no flow", async () => {
    const t = await createTenant();
    await register(t, RETURN, t.keys.skTest);
    const before = await (await db()).flowSession.count({ where: { agentId: t.agent.id } });
    for (const returnTo of [RETURN, `${RETURN}/other`, "https://evil.example.com/cb"]) {
      const { res, text } = await openLink(await signInName(t), { return_to: returnTo });
      expect(res.status).toBe(400);
      expect(text).toContain("has not registered the address");
    }
    expect(await (await db()).flowSession.count({ where: { agentId: t.agent.id } })).toBe(before);
    expect((await openLink("no-such-agent-here")).res.status).toBe(404);
  });

  it("is 404 for an inactive agent, and the agent's routes answer 409 agent_inactive", async () => {
    const t = await createTenant();
    await register(t);
    const { code } = await finishedLink(t);
    await call(agentRoute.PATCH, { path: "/v1/agents/x", params: { handle: t.agent.handle }, headers: { "x-api-key": t.keys.sk }, body: { active: false } });
    const { res, text } = await openLink(await signInName(t), { return_to: RETURN });
    expect(res.status).toBe(404);
    expect(text).toContain("does not lead to an app");
    for (const [route, body] of [
      [exchangeRoute.POST, { code }],
      [validateRoute.POST, { token: "x" }],
    ] as const) {
      const answer = await call(route, { headers: keyHeaders(t), body });
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatchObject({ code: "agent_inactive", message: MESSAGES.agentInactive });
    }
  });

  it("refuses a repeated parameter and an overlong state", async () => {
    const t = await createTenant();
    expect((await openLink(await signInName(t), { state: ["a", "b"] })).res.status).toBe(400);
    expect((await openLink(await signInName(t), { state: "s".repeat(2_049) })).res.status).toBe(400);
  });

  it("shows the link's display name and keeps the reconnect form", async () => {
    const t = await createTenant();
    const { flow } = await openLink(await signInName(t), { displayName: "Trail Guide", connectors: "gmail" }, true);
    expect(flow).toMatchObject({ wayIn: "sign_in_link", request: { display_name: "Trail Guide", reconnect: true, connectors: ["gmail"], return_to: null } });
  });
});

describe("finishing and cancelling", () => {
  it("returns a code and the state to return_to; cancelling returns access_denied and the state", async () => {
    const t = await createTenant();
    await register(t);
    const { back, code, state } = await finishedLink(t);
    expect(`${back.origin}${back.pathname}`).toBe(RETURN);
    expect(code).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(state).toBe("st-1");
    // Never a JWT on the callback.
    expect(back.search).not.toMatch(/eyJ/);
    const { flow } = await openLink(await signInName(t), { return_to: RETURN, state: "st-2" });
    const declined = new URL((await declineFlow({ flowId: flow!.id })).redirectTo);
    expect(Object.fromEntries(declined.searchParams)).toEqual({ error: "access_denied", state: "st-2" });
  });

  it("approves the agent for the person", async () => {
    const t = await createTenant();
    await register(t);
    await revokeApproval({ userId: t.users.live.id, agentId: t.agent.id });
    await finishedLink(t);
    const approval = await (await db()).agentApproval.findUniqueOrThrow({ where: { userId_agentId: { userId: t.users.live.id, agentId: t.agent.id } } });
    expect(approval.revokedAt).toBeNull();
  });
});

describe("POST /v1/auth/sign-in/exchange", () => {
  it("exchanges a code once for a 24-hour agent token of this user and agent", async () => {
    const t = await createTenant();
    await register(t);
    const { code } = await finishedLink(t);
    const res = await call(exchangeRoute.POST, { headers: keyHeaders(t), body: { code } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: t.users.live.id, tokenUse: "agent", approved: true, agent: t.agent.handle, livemode: true });
    const claims = await verifyAgentToken(res.body.token);
    expect(claims).toMatchObject({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, plane: "live" });
    const replay = await call(exchangeRoute.POST, { headers: keyHeaders(t), body: { code } });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toMatchObject({ code: "code_already_used", message: CODE_MESSAGES.alreadyUsed });
  });

  it("answers approved: false when the approval was revoked after the code was made, and validate refuses the token", async () => {
    const t = await createTenant();
    await register(t);
    const { code } = await finishedLink(t);
    await revokeApproval({ userId: t.users.live.id, agentId: t.agent.id });
    const res = await call(exchangeRoute.POST, { headers: keyHeaders(t), body: { code } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: t.users.live.id, approved: false });
    expect((await call(validateRoute.POST, { headers: keyHeaders(t), body: { token: res.body.token } })).body).toMatchObject({ valid: false, approved: false });
  });

  it("lets exactly one of 20 parallel exchanges of one code succeed", async () => {
    const t = await createTenant();
    await register(t);
    const { code } = await finishedLink(t);
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(exchangeRoute.POST, { headers: keyHeaders(t), body: { code } })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400 && a.body.error.code === "code_already_used")).toHaveLength(19);
  });

  it("refuses an expired code after 5 minutes", async () => {
    const t = await createTenant();
    await register(t);
    const { code } = await finishedLink(t);
    advanceClockForTests((SIGN_IN_CODE_TTL_SECONDS + 1) * 1000);
    const res = await call(exchangeRoute.POST, { headers: keyHeaders(t), body: { code } });
    expect(res.body.error).toMatchObject({ code: "code_expired", message: CODE_MESSAGES.expired });
  });

  it("refuses another developer's, another agent's and another plane's code as not valid, leaving it usable", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const second = await createAgent({ developerId: t.developer.id, handle: "second-agent" });
    await register(t);
    const { code } = await finishedLink(t);
    const tries = [
      { "x-api-key": other.keys.sk, "x-agent": other.agent.handle },
      { "x-api-key": t.keys.sk, "x-agent": second.handle },
      { "x-api-key": t.keys.skTest, "x-agent": t.agent.handle },
    ];
    for (const headers of tries) {
      const res = await call(exchangeRoute.POST, { headers, body: { code } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_code", message: CODE_MESSAGES.invalid });
    }
    expect((await call(exchangeRoute.POST, { headers: keyHeaders(t), body: { code } })).status).toBe(200);
    expect((await call(exchangeRoute.POST, { headers: keyHeaders(t), body: { code: "x".repeat(43) } })).body.error.code).toBe("invalid_code");
  });

  it("answers 401 for a bad key", async () => {
    const t = await createTenant();
    const res = await call(exchangeRoute.POST, { headers: keyHeaders(t, t.keys.revoked), body: { code: "x" } });
    expect(res.status).toBe(401);
  });
});

describe("POST /v1/auth/sign-in/validate", () => {
  it("is valid for this developer, agent and plane while the user approves the agent; revoking ends it at once", async () => {
    const t = await createTenant();
    await register(t);
    const { code } = await finishedLink(t);
    const { token } = (await call(exchangeRoute.POST, { headers: keyHeaders(t), body: { code } })).body;
    const ok = await call(validateRoute.POST, { headers: keyHeaders(t), body: { token } });
    expect(ok.body).toMatchObject({ valid: true, userId: t.users.live.id, tokenUse: "agent", approved: true, agent: t.agent.handle });
    await revokeApproval({ userId: t.users.live.id, agentId: t.agent.id });
    const revoked = await call(validateRoute.POST, { headers: keyHeaders(t), body: { token } });
    expect(revoked.body).toMatchObject({ valid: false, userId: t.users.live.id, approved: false });
  });

  it("is not valid for another developer, agent or plane, expired, or not an agent token", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const { token } = await issueAgentToken({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
    const invalid = { valid: false, userId: null, tokenUse: null, approved: false };
    expect((await call(validateRoute.POST, { headers: { "x-api-key": other.keys.sk, "x-agent": other.agent.handle }, body: { token } })).body).toMatchObject(invalid);
    expect((await call(validateRoute.POST, { headers: keyHeaders(t, t.keys.skTest), body: { token } })).body).toMatchObject(invalid);
    expect((await call(validateRoute.POST, { headers: keyHeaders(t), body: { token: "mcp_at_nothing" } })).body).toMatchObject(invalid);
    const second = await createAgent({ developerId: t.developer.id, handle: "validate-second" });
    expect((await call(validateRoute.POST, { headers: { "x-api-key": t.keys.sk, "x-agent": second.handle }, body: { token } })).body).toMatchObject(invalid);
  });

  it("keeps an agent token 24 hours on the service's clock, and no longer", async () => {
    const t = await createTenant();
    await register(t);
    const { code } = await finishedLink(t);
    const { token } = (await call(exchangeRoute.POST, { headers: keyHeaders(t), body: { code } })).body;
    advanceClockForTests((AGENT_TOKEN_TTL_SECONDS - 1) * 1000);
    expect((await call(validateRoute.POST, { headers: keyHeaders(t), body: { token } })).body.valid).toBe(true);
    advanceClockForTests(2_000);
    expect((await call(validateRoute.POST, { headers: keyHeaders(t), body: { token } })).body).toMatchObject({ valid: false, userId: null, tokenUse: null });
  });
});

describe("POST /v1/auth/sign-in/code", () => {
  it("makes a code for an approved agent token's holder, exchangeable by the developer", async () => {
    const t = await createTenant();
    const { token } = await issueAgentToken({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
    const res = await call(codeRoute.POST, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(201);
    expect(res.body.expiresIn).toBe(SIGN_IN_CODE_TTL_SECONDS);
    const exchanged = await call(exchangeRoute.POST, { headers: keyHeaders(t), body: { code: res.body.code } });
    expect(exchanged.body.userId).toBe(t.users.live.id);
  });

  it("is 401 without a valid agent token and 403 once the approval is revoked", async () => {
    const t = await createTenant();
    expect((await call(codeRoute.POST, {})).status).toBe(401);
    expect((await call(codeRoute.POST, { headers: { authorization: "Bearer nope" } })).body.error.code).toBe("invalid_access_token");
    const { token } = await issueAgentToken({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
    await revokeApproval({ userId: t.users.live.id, agentId: t.agent.id });
    const res = await call(codeRoute.POST, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "agent_not_approved", message: CODE_MESSAGES.notApproved });
  });
});
