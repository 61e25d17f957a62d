// The sandbox: provision without signup, a usable synthetic user, reset and simulate.
import { describe, expect, it } from "vitest";
import { POST as provision } from "@/app/v1/sandbox/provision/route";
import { POST as reset } from "@/app/v1/sandbox/reset/route";
import { POST as simulate } from "@/app/v1/sandbox/simulate/route";
import { GET as profile } from "@/app/v1/profile/route";
import { db } from "@/lib/db";
import { activeScenarios } from "@/lib/sandbox/sandbox";
import { verifyAgentToken, AGENT_TOKEN_TTL_SECONDS } from "@/lib/tokens/agent-token";
import { call } from "./helpers/http";

async function provisioned() {
  const res = await call(provision, { headers: { "x-forwarded-for": `10.9.${Math.floor(Math.random() * 250)}.1` } });
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

describe("POST /v1/sandbox/simulate", () => {
  it("records gmail_token_expired until the next reset", async () => {
    const s = await provisioned();
    const res = await call(simulate, { headers: { "x-api-key": s.secret_key }, body: { scenario: "gmail_token_expired" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, scenario: "gmail_token_expired", active_scenarios: ["gmail_token_expired"] });
    const again = await call(simulate, { headers: { "x-api-key": s.secret_key }, body: { scenario: "gmail_token_expired" } });
    expect(again.body.active_scenarios).toEqual(["gmail_token_expired"]);
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
