// API keys (prefixes, hashing, revocation within a second, last use) and agent resolution.
import { describe, expect, it } from "vitest";
import { GET as profile } from "@/app/v1/profile/route";
import { setAgentActive } from "@/lib/agents/agents";
import { db } from "@/lib/platform/db";
import { PREFIX } from "@/lib/platform/ids";
import { issueApiKey, parseKeyFormat, revokeApiKey } from "@/lib/api-keys/api-keys";
import { createTenant, liveHeaders } from "../helpers/fixtures";
import { call } from "../helpers/http";

describe("API keys", () => {
  it("uses the spec's prefixes for each kind and plane", async () => {
    const t = await createTenant();
    expect(t.keys.sk.startsWith(PREFIX.secretKey) && !t.keys.sk.startsWith(PREFIX.secretTestKey)).toBe(true);
    expect(t.keys.skTest.startsWith("sk_test_")).toBe(true);
    expect(t.keys.pk.startsWith("pk_") && !t.keys.pk.startsWith("pk_test_")).toBe(true);
    expect(t.keys.pkTest.startsWith("pk_test_")).toBe(true);
    expect(PREFIX).toMatchObject({ secretKey: "sk_", secretTestKey: "sk_test_", publishableKey: "pk_", publishableTestKey: "pk_test_" });
    expect(parseKeyFormat(t.keys.skTest)).toMatchObject({ kind: "secret", plane: "test" });
    expect(parseKeyFormat(t.keys.pk)).toMatchObject({ kind: "publishable", plane: "live" });
    expect(parseKeyFormat("sk_short")).toBeNull();
  });

  it("stores a keyed hash and a visible prefix, never the key", async () => {
    const t = await createTenant();
    const { key, record } = await issueApiKey({ developerId: t.developer.id, kind: "secret", plane: "live" });
    const row = await (await db()).apiKey.findUniqueOrThrow({ where: { id: record.id } });
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.startsWith(row.prefix)).toBe(true);
    expect(row.prefix).toHaveLength("sk_".length + 4);
  });

  it("stops accepting a revoked key within one second, even when it was cached", async () => {
    const t = await createTenant();
    const { key, record } = await issueApiKey({ developerId: t.developer.id, kind: "secret", plane: "live" });
    expect((await call(profile, { headers: liveHeaders(t, { "x-api-key": key }) })).status).toBe(200);
    // Revoke behind the cache's back, as another instance would.
    await (await db()).apiKey.update({ where: { id: record.id }, data: { revokedAt: new Date() } });
    await new Promise((r) => setTimeout(r, 1050));
    const res = await call(profile, { headers: liveHeaders(t, { "x-api-key": key }) });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_api_key");
  });

  it("revokes only within the owning developer account", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const { record } = await issueApiKey({ developerId: b.developer.id, kind: "secret", plane: "live" });
    expect(await revokeApiKey({ developerId: a.developer.id, idOrPrefix: record.id })).toBe(0);
    expect(await revokeApiKey({ developerId: b.developer.id, idOrPrefix: record.id })).toBe(1);
  });

  it("records when a key was last used", async () => {
    const t = await createTenant();
    const { key, record } = await issueApiKey({ developerId: t.developer.id, kind: "secret", plane: "live" });
    await call(profile, { headers: liveHeaders(t, { "x-api-key": key }) });
    await expect.poll(async () => (await (await db()).apiKey.findUniqueOrThrow({ where: { id: record.id } })).lastUsedAt).not.toBeNull();
  });
});

describe("agents", () => {
  it("answers 409 agent_inactive for an inactive agent", async () => {
    const t = await createTenant();
    await setAgentActive({ developerId: t.developer.id, handle: t.agent.handle, active: false });
    const res = await call(profile, { headers: liveHeaders(t) });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("agent_inactive");
  });
});

describe("GET /v1/profile", () => {
  it("returns the approved user's profile with livemode", async () => {
    const t = await createTenant();
    const res = await call(profile, { headers: liveHeaders(t) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ linked: true, livemode: true, identity: { name: "Live Person" } });
    expect(res.body.agents.map((a: { handle: string }) => a.handle)).toEqual([t.agent.handle]);
  });

  it("limits the answer to the requested sections and rejects unknown ones", async () => {
    const t = await createTenant();
    const res = await call(profile, { headers: liveHeaders(t), query: { sections: "identity,summary" } });
    expect(Object.keys(res.body).sort()).toEqual(["identity", "linked", "livemode", "summary"]);
    const bad = await call(profile, { headers: liveHeaders(t), query: { sections: "identity,secrets" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields[0].field).toMatch(/^sections/);
  });
});
