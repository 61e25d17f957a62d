// The sandbox: provision without signup, a usable synthetic user, reset and simulate.
import { describe, expect, it } from "vitest";
import { POST as provision } from "@/app/v1/sandbox/provision/route";
import { POST as reset } from "@/app/v1/sandbox/reset/route";
import { POST as forget } from "@/app/v1/profile/forget/route";
import { POST as remember } from "@/app/v1/profile/remember/route";
import { GET as search } from "@/app/v1/profile/search/route";
import { SANDBOX_AGENT_MEMORIES, SANDBOX_IMPORTED_MEMORIES } from "@/lib/sandbox/seed-profile";
import { POST as simulate } from "@/app/v1/sandbox/simulate/route";
import { GET as profile } from "@/app/v1/profile/route";
import { db } from "@/lib/platform/db";
import { activeScenarios } from "@/lib/sandbox/sandbox";
import { verifyAgentToken, AGENT_TOKEN_TTL_SECONDS } from "@/lib/bearer-tokens/agent-token";
import { call } from "../helpers/http";

async function provisioned() {
  const res = await call(provision, { headers: { "x-service-client-ip": `10.9.${Math.floor(Math.random() * 250)}.1` } });
  expect(res.status).toBe(201);
  return res.body as {
    secret_key: string;
    publishable_key: string;
    agent: { handle: string; sign_in_url: string };
    user: { id: string; external_id: string; phone: string; verification_code: string; agent_token: string };
  };
}

describe("POST /v1/sandbox/provision", () => {
  it("returns test keys, an agent and a pre-linked synthetic user", async () => {
    const s = await provisioned();
    expect(s.secret_key).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    expect(s.publishable_key).toMatch(/^pk_test_[A-Za-z0-9]{32}$/);
    expect(s.agent.sign_in_url).toBe(`http://localhost:3000/sign-in/${s.agent.handle}`);
    expect(s.user.verification_code).toBe("424242");
    expect(s.user.phone).toMatch(/^\+1\d{3}5550\d{3}$/);
    expect(s.user.id).toMatch(/^[0-9a-f-]{36}$/);

    const claims = await verifyAgentToken(s.user.agent_token);
    expect(claims).toMatchObject({ userId: s.user.id, agent: s.agent.handle, plane: "test" });
    const exp = JSON.parse(Buffer.from(s.user.agent_token.split(".")[1]!, "base64url").toString()).exp;
    const iat = JSON.parse(Buffer.from(s.user.agent_token.split(".")[1]!, "base64url").toString()).iat;
    expect(exp - iat).toBe(AGENT_TOKEN_TTL_SECONDS);
  });

  it("stores no raw secrets and no raw phone number", async () => {
    const s = await provisioned();
    const prisma = await db();
    const keys = await prisma.apiKey.findMany();
    expect(JSON.stringify(keys)).not.toContain(s.secret_key);
    expect(JSON.stringify(keys)).not.toContain(s.publishable_key);
    const user = await prisma.user.findUniqueOrThrow({ where: { id: s.user.id } });
    expect(JSON.stringify(user)).not.toContain(s.user.phone.slice(1));
    expect(user.phoneLast4).toBe(s.user.phone.slice(-4));
  });

  it("lets the sandbox read its user by X-User-Id and by the agent token", async () => {
    const s = await provisioned();
    const base = { "x-api-key": s.secret_key, "x-agent": s.agent.handle };
    const byId = await call(profile, { headers: { ...base, "x-user-id": s.user.external_id } });
    expect(byId.status).toBe(200);
    expect(byId.body.livemode).toBe(false);
    expect(byId.body.identity.name).toBe("Sam Sandbox");
    const byToken = await call(profile, { headers: { ...base, authorization: `Bearer ${s.user.agent_token}` } });
    expect(byToken.status).toBe(200);
    expect(byToken.body.agents.map((x: { handle: string }) => x.handle)).toEqual([s.agent.handle]);
  });

  it("creates independent sandboxes: one sandbox's key cannot reach another's user", async () => {
    const [s1, s2] = [await provisioned(), await provisioned()];
    const res = await call(profile, {
      headers: { "x-api-key": s1.secret_key, "x-agent": s1.agent.handle, authorization: `Bearer ${s2.user.agent_token}` },
    });
    expect(res.status).toBe(401);
  });
});

describe("POST /v1/sandbox/reset", () => {
  it("restores the seeded state: claims, approval and simulated failures", async () => {
    const s = await provisioned();
    const prisma = await db();
    await prisma.user.update({ where: { id: s.user.id }, data: { name: "Changed", location: null } });
    await prisma.agentApproval.updateMany({ where: { userId: s.user.id }, data: { revokedAt: new Date() } });
    const headers = { "x-api-key": s.secret_key, "x-agent": s.agent.handle };
    await call(simulate, { headers, body: { scenario: "gmail_token_expired" } });

    const denied = await call(profile, { headers: { ...headers, "x-user-id": s.user.external_id } });
    expect(denied.status).toBe(403);

    const res = await call(reset, { headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, user: { id: s.user.id, external_id: s.user.external_id } });
    const after = await call(profile, { headers: { ...headers, "x-user-id": s.user.external_id } });
    expect(after.status).toBe(200);
    expect(after.body.identity).toMatchObject({ name: "Sam Sandbox", location: "Lisbon, Portugal" });
    const developerId = (await prisma.user.findUniqueOrThrow({ where: { id: s.user.id } })).developerId!;
    expect(await activeScenarios(developerId)).toEqual([]);
  });
});

describe("the seeded profile", () => {
  it("holds imported ChatGPT memories and the agent's own, composed into identity, preferences and a summary", async () => {
    const s = await provisioned();
    const headers = { "x-api-key": s.secret_key, "x-agent": s.agent.handle, "x-user-id": s.user.external_id };
    const res = await call(profile, { headers });
    expect(res.status).toBe(200);
    expect(res.body.identity.facts).toEqual(["Is called Sam", "Lives in Lisbon", "Works as a product designer at a travel startup", "Has a dog named Miso"]);
    expect(res.body.preferences).toContain("Is vegetarian");
    expect(res.body.preferences).toContain("Prefers window seats on flights");
    expect(res.body.summary).toMatch(/^The user is called Sam, lives in Lisbon and works as a product designer/);
    expect(res.body.imports).toHaveLength(1);
    expect(res.body.imports[0]).toMatchObject({ provider: "chatgpt", source: "imports/chatgpt", memory_count: SANDBOX_IMPORTED_MEMORIES.length });
    const found = await call(search, { headers, query: { source: "chatgpt", limit: "50" } });
    expect(found.body.sourceCounts).toEqual({
      "agents/sandbox-agent": SANDBOX_AGENT_MEMORIES.length,
      "imports/chatgpt": SANDBOX_IMPORTED_MEMORIES.length,
    });
  });

  it("is restored exactly by reset after the agent changed it", async () => {
    const s = await provisioned();
    const headers = { "x-api-key": s.secret_key, "x-agent": s.agent.handle, "x-user-id": s.user.external_id };
    const before = await call(profile, { headers });
    await call(remember, { headers, body: { text: "I moved to Porto" } });
    await call(forget, { headers, body: { scope: "all", confirm: true } });
    await call(forget, { headers, body: { match: "vegetarian", confirm: true, reason: "user_request" } });
    const changed = await call(profile, { headers });
    expect(changed.body.summary).not.toBe(before.body.summary);
    await call(reset, { headers: { "x-api-key": s.secret_key, "x-agent": s.agent.handle } });
    const after = await call(profile, { headers });
    // Ids and times are new; the content is what is restored.
    const comparable = (b: Record<string, unknown>) => ({
      ...b,
      imports: (b.imports as { provider: string; memory_count: number }[]).map((i) => [i.provider, i.memory_count]),
      agents: (b.agents as { handle: string }[]).map((a) => a.handle),
    });
    expect(comparable(after.body)).toEqual(comparable(before.body));
  });
});

describe("POST /v1/sandbox/simulate", () => {
  it("records gmail_token_expired until the next reset", async () => {
    const s = await provisioned();
    const res = await call(simulate, { headers: { "x-api-key": s.secret_key }, body: { scenario: "gmail_token_expired" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, scenario: "gmail_token_expired", active_scenarios: ["gmail_token_expired"] });
    const again = await call(simulate, { headers: { "x-api-key": s.secret_key }, body: { scenario: "gmail_token_expired" } });
    expect(again.body.active_scenarios).toEqual(["gmail_token_expired"]);
  });

  it("gmail_token_expired makes the synthetic user's connected Gmail fail as a revoked grant, until reset", async () => {
    const s = await provisioned();
    const headers = { "x-api-key": s.secret_key, "x-agent": s.agent.handle, "x-user-id": s.user.external_id };
    const before = (await call(profile, { headers })).body;
    expect(before.connections).toEqual([
      { app: "gmail", provider: "development", account_email: "sam.sandbox@example.com", status: "active", connected_at: "2024-10-01T12:00:00.000Z" },
    ]);
    expect(before.integrations).toEqual(["gmail"]);
    const { accessTokenFor } = await import("@/lib/connectors/connections");
    const gmail = await (await db()).appConnection.findFirstOrThrow({ where: { userId: s.user.id, app: "gmail" } });
    expect(await accessTokenFor(gmail.id)).toMatch(/^dev_/);

    await call(simulate, { headers: { "x-api-key": s.secret_key }, body: { scenario: "gmail_token_expired" } });
    await expect(accessTokenFor(gmail.id)).rejects.toMatchObject({ reason: "needs_reconnect" });
    const during = (await call(profile, { headers })).body;
    expect(during.connections[0].status).toBe("needs_reconnect");
    expect(during.integrations).toEqual([]);

    await call(reset, { headers: { "x-api-key": s.secret_key, "x-agent": s.agent.handle } });
    const after = (await call(profile, { headers })).body;
    expect(after.connections).toEqual(before.connections);
    expect(after.integrations).toEqual(["gmail"]);
  });

  it("answers 400 for an unknown or missing scenario and records nothing", async () => {
    const s = await provisioned();
    const unknown = await call(simulate, { headers: { "x-api-key": s.secret_key }, body: { scenario: "disk_on_fire" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: "unknown_scenario", scenarios: ["gmail_token_expired"] });
    const missing = await call(simulate, { headers: { "x-api-key": s.secret_key }, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("invalid_request");
    expect(missing.body.error.fields[0].field).toBe("scenario");
    const user = await (await db()).user.findUniqueOrThrow({ where: { id: s.user.id } });
    expect(await activeScenarios(user.developerId!)).toEqual([]);
  });
});
