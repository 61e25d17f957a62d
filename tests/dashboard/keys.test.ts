// The dashboard's keys, agents and origins: a rotated key keeps working for the overlap (24 hours) on
// the API's key resolution, then stops, while its MCP sessions end at the rotation; revoking ends a
// key at once; agents and origins through the same functions as the API and the command-line tool.
import { afterEach, describe, expect, it } from "vitest";
import * as agentsRoute from "@/app/v1/agents/route";
import { issueMcpSession, readMcpSession } from "@/lib/bearer-tokens/mcp-session";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { createTenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

afterEach(() => resetClockForTests());

async function owner(developerId: string, email: string) {
  const { dashboardUserFor } = await import("@/lib/developer-auth/codes");
  const user = await dashboardUserFor(email);
  await (await db()).developerMember.create({ data: { developerId, dashboardUserId: user.id, role: "owner" } });
  return user;
}

const listAgents = (key: string) => call(agentsRoute.GET, { headers: { "x-api-key": key } });

describe("key rotation", () => {
  it("the old key works during the 24-hour overlap on the API, and not after; its MCP sessions end at the rotation", async () => {
    const t = await createTenant();
    const me = await owner(t.developer.id, "rotator@example.com");
    const { keysOf, rotateKey, KEY_ROTATION_OVERLAP_HOURS } = await import("@/lib/dashboard/keys");
    expect(KEY_ROTATION_OVERLAP_HOURS).toBe(24);
    const old = (await keysOf(t.developer.id)).find((k) => t.keys.sk.startsWith(k.prefix) && k.state === "active" && k.kind === "secret" && k.plane === "live")!;
    const rotated = await rotateKey({ actorId: me.id, developerId: t.developer.id, keyId: old.id });
    expect(rotated.key).toMatch(/^sk_[A-Za-z0-9]{32}$/);
    expect(rotated.record.kind).toBe("secret");
    expect(rotated.record.plane).toBe("live");
    // The new secret is stored only as a hash.
    expect(await (await db()).apiKey.count({ where: { hash: rotated.key } })).toBe(0);
    await expect(rotateKey({ actorId: me.id, developerId: t.developer.id, keyId: old.id })).rejects.toMatchObject({ reason: "key_not_rotatable" });

    const session = (at: Date) =>
      issueMcpSession({ sessionId: "s1", developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live", keyId: old.id }, at).then((s) =>
        readMcpSession(s.token),
      );

    expect((await listAgents(t.keys.sk)).status).toBe(200);
    expect((await listAgents(rotated.key)).status).toBe(200);
    expect((await session(new Date())).state).toBe("invalid");
    expect((await keysOf(t.developer.id)).find((k) => k.id === old.id)!.state).toBe("rotating");

    advanceClockForTests(KEY_ROTATION_OVERLAP_HOURS * 3_600_000 - 60_000);
    expect((await listAgents(t.keys.sk)).status).toBe(200);

    advanceClockForTests(61_000);
    const after = await listAgents(t.keys.sk);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("invalid_api_key");
    expect((await listAgents(rotated.key)).status).toBe(200);
    const { now } = await import("@/lib/platform/clock");
    expect((await session(now())).state).toBe("invalid");
    expect((await keysOf(t.developer.id)).find((k) => k.id === old.id)!.state).toBe("revoked");
  });

  it("revoking ends a key at once, a rotated one in its overlap too", async () => {
    const t = await createTenant();
    const me = await owner(t.developer.id, "revoker@example.com");
    const { keysOf, rotateKey, revokeKey, createKey } = await import("@/lib/dashboard/keys");
    const made = await createKey({ actorId: me.id, developerId: t.developer.id, kind: "secret", plane: "test", name: "ci" });
    expect(made.key).toMatch(/^sk_test_/);
    expect((await listAgents(made.key)).status).toBe(200);
    const rotated = await rotateKey({ actorId: me.id, developerId: t.developer.id, keyId: made.record.id });
    await revokeKey({ actorId: me.id, developerId: t.developer.id, keyId: made.record.id });
    expect((await listAgents(made.key)).status).toBe(401);
    expect((await listAgents(rotated.key)).status).toBe(200);
    await revokeKey({ actorId: me.id, developerId: t.developer.id, keyId: rotated.record.id });
    expect((await listAgents(rotated.key)).status).toBe(401);
    await expect(revokeKey({ actorId: me.id, developerId: t.developer.id, keyId: rotated.record.id })).rejects.toMatchObject({ reason: "not_found" });
    expect((await keysOf(t.developer.id)).filter((k) => k.name === "ci").map((k) => k.state)).toEqual(["revoked", "revoked"]);
    await expect(createKey({ actorId: me.id, developerId: t.developer.id, kind: "root", plane: "live", name: "" })).rejects.toMatchObject({ reason: "invalid_input" });
  });
});

describe("agents and origins", () => {
  it("are created and changed through the API's own rules", async () => {
    const t = await createTenant();
    const me = await owner(t.developer.id, "agents@example.com");
    const { agentsOf, createDashboardAgent, updateDashboardAgent } = await import("@/lib/dashboard/agents");
    const made = await createDashboardAgent({ actorId: me.id, developerId: t.developer.id, handle: "helper-bot", displayName: "" });
    expect(made).toMatchObject({ handle: "helper-bot", display_name: "helper-bot", active: true });
    expect(made.sign_in_url).toMatch(/\/sign-in\/helper-bot$/);
    await expect(createDashboardAgent({ actorId: me.id, developerId: t.developer.id, handle: "helper-bot", displayName: "" })).rejects.toMatchObject({ code: "agent_exists" });
    await expect(createDashboardAgent({ actorId: me.id, developerId: t.developer.id, handle: "Bad Handle", displayName: "" })).rejects.toMatchObject({
      reason: "invalid_input",
      field: "handle",
    });
    const changed = await updateDashboardAgent({
      actorId: me.id,
      developerId: t.developer.id,
      handle: "helper-bot",
      displayName: "Helper",
      logoUrl: "https://cdn.example.com/l.png",
      brandColor: "#AA0011",
      active: false,
    });
    expect(changed).toMatchObject({ display_name: "Helper", logo_url: "https://cdn.example.com/l.png", brand_color: "#aa0011", active: false });
    await expect(
      updateDashboardAgent({
        actorId: me.id,
        developerId: t.developer.id,
        handle: "helper-bot",
        displayName: "Helper",
        logoUrl: "http://insecure.example.com/l.png",
        brandColor: "",
        active: true,
      }),
    ).rejects.toMatchObject({ field: "logoUrl" });
    await expect(
      updateDashboardAgent({ actorId: me.id, developerId: t.developer.id, handle: "helper-bot", displayName: "Helper", logoUrl: "", brandColor: "red", active: true }),
    ).rejects.toMatchObject({ field: "brandColor" });
    const cleared = await updateDashboardAgent({
      actorId: me.id,
      developerId: t.developer.id,
      handle: "helper-bot",
      displayName: "Helper",
      logoUrl: "",
      brandColor: "",
      active: true,
    });
    expect(cleared).toMatchObject({ logo_url: null, brand_color: null, active: true });
    expect((await agentsOf(t.developer.id)).map((a) => a.handle)).toEqual(["assistant", "helper-bot"]);
    // The API lists what the dashboard made.
    const listed = await listAgents(t.keys.sk);
    expect(listed.body.agents.map((a: { handle: string }) => a.handle)).toContain("helper-bot");
  });

  it("origins are approved with the API's rule and withdrawn", async () => {
    const t = await createTenant();
    const me = await owner(t.developer.id, "origins@example.com");
    const { addDashboardOrigin, originsOf, removeDashboardOrigin } = await import("@/lib/dashboard/origins");
    expect(await addDashboardOrigin({ actorId: me.id, developerId: t.developer.id, origin: "https://app.example.com/" })).toBe("https://app.example.com");
    await expect(addDashboardOrigin({ actorId: me.id, developerId: t.developer.id, origin: "http://app.example.com" })).rejects.toMatchObject({ code: "invalid_origin" });
    expect((await originsOf(t.developer.id)).map((o) => o.origin)).toEqual(["https://app.example.com"]);
    const { isRegisteredDestination } = await import("@/lib/developers/destinations");
    expect(await isRegisteredDestination({ developerId: t.developer.id, url: "https://app.example.com/done" })).toBe(true);
    await removeDashboardOrigin({ actorId: me.id, developerId: t.developer.id, origin: "https://app.example.com" });
    expect(await isRegisteredDestination({ developerId: t.developer.id, url: "https://app.example.com/done" })).toBe(false);
    await expect(removeDashboardOrigin({ actorId: me.id, developerId: t.developer.id, origin: "https://app.example.com" })).rejects.toMatchObject({ reason: "not_found" });
  });
});

describe("SSO clients", () => {
  it("are made public or confidential with no scopes registered, the secret returned once; callbacks follow the API's rules", async () => {
    const t = await createTenant();
    const me = await owner(t.developer.id, "sso@example.com");
    const { createSsoClient, addSsoCallback, removeSsoCallback, ssoClientsOf } = await import("@/lib/dashboard/sso-clients");
    const { findClient, hashClientSecret } = await import("@/lib/oidc/client-auth");
    const pub = await createSsoClient({ actorId: me.id, developerId: t.developer.id, plane: "test", method: "none", redirectUri: "http://localhost:4000/cb" });
    expect(pub.clientSecret).toBeUndefined();
    expect(pub.clientId).toMatch(/^oc_[A-Za-z0-9]{24}$/);
    const conf = await createSsoClient({ actorId: me.id, developerId: t.developer.id, plane: "live", method: "client_secret_basic", redirectUri: "http://127.0.0.1:4000/cb" });
    expect(conf.clientSecret).toMatch(/^ocs_[A-Za-z0-9]{40}$/);
    const stored = await (await db()).oAuthClient.findUniqueOrThrow({ where: { id: conf.clientId } });
    expect(stored.secretHash).toBe(hashClientSecret(conf.clientSecret!));
    expect(stored.scopes).toEqual([]);
    expect((await findClient(pub.clientId))?.scopes).toEqual([]);

    // Off localhost, the origin must be approved first; the refusal is the API's.
    await expect(addSsoCallback({ actorId: me.id, developerId: t.developer.id, clientId: pub.clientId, redirectUri: "https://app.example.com/cb" })).rejects.toMatchObject({
      code: "origin_not_approved",
    });
    await expect(addSsoCallback({ actorId: me.id, developerId: t.developer.id, clientId: pub.clientId, redirectUri: "https://app.example.com/cb#x" })).rejects.toMatchObject({
      code: "invalid_redirect_uri",
    });
    const { addOrigin } = await import("@/lib/developers/developers");
    await addOrigin({ developerId: t.developer.id, origin: "https://app.example.com" });
    await addSsoCallback({ actorId: me.id, developerId: t.developer.id, clientId: pub.clientId, redirectUri: "https://app.example.com/cb" });
    let listed = await ssoClientsOf(t.developer.id);
    expect(listed.find((c) => c.client_id === pub.clientId)).toMatchObject({
      plane: "test",
      token_endpoint_auth_method: "none",
      redirect_uris: ["http://localhost:4000/cb", "https://app.example.com/cb"],
    });
    expect(listed.find((c) => c.client_id === conf.clientId)).toMatchObject({ plane: "live", token_endpoint_auth_method: "client_secret_basic" });
    await removeSsoCallback({ actorId: me.id, developerId: t.developer.id, clientId: pub.clientId, plane: "test", redirectUri: "http://localhost:4000/cb" });
    listed = await ssoClientsOf(t.developer.id);
    expect(listed.find((c) => c.client_id === pub.clientId)!.redirect_uris).toEqual(["https://app.example.com/cb"]);
    await expect(
      removeSsoCallback({ actorId: me.id, developerId: t.developer.id, clientId: pub.clientId, plane: "live", redirectUri: "https://app.example.com/cb" }),
    ).rejects.toMatchObject({ reason: "not_found" });

    // A developer with no active agent has nothing for a client to act for.
    const { setAgentActive } = await import("@/lib/agents/agents");
    await setAgentActive({ developerId: t.developer.id, handle: t.agent.handle, active: false });
    await expect(createSsoClient({ actorId: me.id, developerId: t.developer.id, plane: "test", method: "none", redirectUri: "http://localhost:4000/cb" })).rejects.toMatchObject({
      code: "no_active_agent",
    });
  });
});

describe("sign-in links", () => {
  it("return destinations are added and removed with the API's rule; message lines show their last four digits only", async () => {
    const t = await createTenant();
    const me = await owner(t.developer.id, "links@example.com");
    const { addDashboardDestination, removeDashboardDestination, signInLinksOf } = await import("@/lib/dashboard/sign-in-links");
    expect(await addDashboardDestination({ actorId: me.id, developerId: t.developer.id, handle: t.agent.handle, plane: "test", url: "https://app.example.com/done#frag" })).toEqual(
      { url: "https://app.example.com/done", created: true },
    );
    expect(await addDashboardDestination({ actorId: me.id, developerId: t.developer.id, handle: t.agent.handle, plane: "test", url: "https://app.example.com/done" })).toEqual({
      url: "https://app.example.com/done",
      created: false,
    });
    await expect(addDashboardDestination({ actorId: me.id, developerId: t.developer.id, handle: t.agent.handle, plane: "live", url: "javascript:alert(1)" })).rejects.toMatchObject(
      { code: "invalid_destination" },
    );
    await expect(addDashboardDestination({ actorId: me.id, developerId: t.developer.id, handle: "nobody", plane: "live", url: "https://app.example.com/x" })).rejects.toMatchObject(
      { reason: "not_found" },
    );
    const { registerLine } = await import("@/lib/sign-in/message-lines");
    await registerLine({ developerId: t.developer.id, agentId: t.agent.id, plane: "live", channel: "sms", phone: "+14155550123", label: "Support" });
    const [links] = await signInLinksOf(t.developer.id);
    expect(links).toMatchObject({
      handle: t.agent.handle,
      destinations: [{ plane: "test", url: "https://app.example.com/done" }],
      lines: [{ plane: "live", channel: "sms", last4: "0123", label: "Support" }],
    });
    expect(JSON.stringify(links)).not.toContain("5550123");
    await removeDashboardDestination({ actorId: me.id, developerId: t.developer.id, handle: t.agent.handle, plane: "test", url: "https://app.example.com/done" });
    await expect(
      removeDashboardDestination({ actorId: me.id, developerId: t.developer.id, handle: t.agent.handle, plane: "test", url: "https://app.example.com/done" }),
    ).rejects.toMatchObject({ reason: "not_found" });
  });
});
