// POST /v1/sso/origins and POST /v1/sso/client: every registration rule and refusal of the spec.
import { beforeEach, describe, expect, it } from "vitest";
import { OPTIONS as clientPreflight, POST as client } from "@/app/v1/sso/client/route";
import { POST as origins } from "@/app/v1/sso/origins/route";
import { setAgentActive } from "@/lib/agents/agents";
import { db } from "@/lib/platform/db";
import { PREFIX } from "@/lib/platform/ids";
import { hashClientSecret, MAX_CONFIDENTIAL_CLIENTS_PER_PLANE, MAX_LOCALHOST_REDIRECT_URIS_PER_CLIENT, MAX_REDIRECT_URIS_PER_CLIENT, SSO_MESSAGES } from "@/lib/oidc/clients";
import { GET as listClientsRoute } from "@/app/v1/sso/clients/route";
import { DELETE as removeUriRoute } from "@/app/v1/sso/clients/[clientId]/redirect-uris/route";
import { authorizeCall, authorizeParams, pkce } from "../helpers/oauth";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { env } from "@/lib/env";
import { freshRateLimits } from "../helpers/env";

/** SSO_LOCALHOST_CALLBACKS_PER_HOUR as configured (its default). */
const LOCALHOST_REGISTRATIONS_PER_KEY_PER_HOUR = env().SSO_LOCALHOST_CALLBACKS_PER_HOUR;

let t: Tenant;
beforeEach(async () => {
  t = await createTenant();
});

const register = (body: Record<string, unknown>) => call(client, { body });
const approve = (origin: string, tenant = t) => call(origins, { headers: { "x-api-key": tenant.keys.sk, "x-agent": tenant.agent.handle }, body: { origin } });

describe("POST /v1/sso/origins", () => {
  it("approves an https origin or localhost, normalised, and refuses anything else", async () => {
    const res = await approve("https://App.Example.com");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, origin: "https://app.example.com" });
    expect((await approve("http://localhost:5173")).body).toEqual({ ok: true, origin: "http://localhost:5173" });
    for (const bad of ["http://app.example.com", "https://app.example.com/callback", "ftp://x.example", "not a url"]) {
      const refused = await approve(bad);
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error).toMatchObject({ code: "invalid_origin", message: SSO_MESSAGES.invalidOrigin });
    }
  });
});

describe("POST /v1/sso/client", () => {
  it("registers a public client for a localhost callback with no other setup, and answers its id again", async () => {
    const first = await register({ publishable_key: t.keys.pk, redirect_uri: "http://localhost:3000/callback" });
    expect(first.status).toBe(201);
    expect(Object.keys(first.body)).toEqual(["client_id"]);
    expect(first.body.client_id.startsWith(PREFIX.oauthClient)).toBe(true);
    const again = await register({ publishable_key: t.keys.pk, redirect_uri: "http://localhost:3000/callback" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const stored = await (await db()).oAuthClient.findUniqueOrThrow({ where: { id: first.body.client_id }, include: { redirectUris: true } });
    expect(stored).toMatchObject({ developerId: t.developer.id, plane: "live", tokenEndpointAuthMethod: "none", secretHash: null, scopes: ["openid", "email", "profile"] });
    expect(stored.redirectUris.map((r) => r.uri)).toEqual(["http://localhost:3000/callback"]);
  });

  it("needs the callback's origin approved first, unless it is localhost", async () => {
    const denied = await register({ publishable_key: t.keys.pk, redirect_uri: "https://app.example.com/cb" });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: "origin_not_approved", message: SSO_MESSAGES.originNotApproved });
    await approve("https://app.example.com");
    expect((await register({ publishable_key: t.keys.pk, redirect_uri: "https://app.example.com/cb" })).status).toBe(201);
    // Another developer's approval does not count.
    const other = await createTenant("other-dev", "other-agent");
    expect((await register({ publishable_key: other.keys.pk, redirect_uri: "https://app.example.com/cb" })).status).toBe(403);
  });

  it("gives a confidential client its ocs_ secret once and stores only its hash", async () => {
    const res = await register({ publishable_key: t.keys.pk, redirect_uri: "http://127.0.0.1:8080/cb", token_endpoint_auth_method: "client_secret_basic" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["client_id", "client_secret"]);
    expect(res.body.client_secret.startsWith(PREFIX.oauthClientSecret)).toBe(true);
    const stored = await (await db()).oAuthClient.findUniqueOrThrow({ where: { id: res.body.client_id } });
    expect(stored.secretHash).toBe(hashClientSecret(res.body.client_secret));
    expect(JSON.stringify(stored)).not.toContain(res.body.client_secret);
    const second = await register({ publishable_key: t.keys.pk, redirect_uri: "http://127.0.0.1:8080/cb", token_endpoint_auth_method: "client_secret_post" });
    expect(second.body.client_id).not.toBe(res.body.client_id);
  });

  it("refuses a missing, secret, revoked or unknown key with the spec's messages", async () => {
    const missing = await register({ redirect_uri: "http://localhost/cb" });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: "publishable_key_required", message: SSO_MESSAGES.publishableKeyRequired });
    for (const key of [t.keys.sk, t.keys.revoked, `pk_${"x".repeat(32)}`, "pk_short"]) {
      const res = await register({ publishable_key: key, redirect_uri: "http://localhost/cb" });
      expect(res.status, key.slice(0, 6)).toBe(403);
      expect(res.body.error).toEqual({ code: "invalid_publishable_key", message: SSO_MESSAGES.invalidPublishableKey });
    }
  });

  it("accepts only absolute https callbacks (or http on localhost) without wildcards, fragments or credentials", async () => {
    await approve("https://app.example.com");
    const cases: [string, string][] = [
      ["/callback", "invalid_redirect_uri"],
      ["https://app.example.com/cb#frag", "invalid_redirect_uri"],
      ["https://*.example.com/cb", "invalid_redirect_uri"],
      ["https://app.example.com/cb/*", "invalid_redirect_uri"],
      ["https://user:pw@app.example.com/cb", "invalid_redirect_uri"],
      ["", "invalid_redirect_uri"],
      ["http://app.example.com/cb", "invalid_origin"],
      ["myapp://callback", "invalid_origin"],
    ];
    for (const [uri, code] of cases) {
      const res = await register({ publishable_key: t.keys.pk, redirect_uri: uri });
      expect(res.status, uri).toBe(400);
      expect(res.body.error.code, uri).toBe(code);
    }
    expect((await register({ publishable_key: t.keys.pk })).body.error.message).toBe(SSO_MESSAGES.invalidRedirectUri);
    expect(await (await db()).oAuthClient.count({ where: { developerId: t.developer.id } })).toBe(0);
  });

  it("holds at most 25 callbacks on the public client", async () => {
    await approve("https://app.example.com");
    for (let i = 0; i < MAX_REDIRECT_URIS_PER_CLIENT; i++) {
      expect((await register({ publishable_key: t.keys.pk, redirect_uri: `https://app.example.com/cb${i}` })).status).toBe(i === 0 ? 201 : 200);
    }
    const over = await register({ publishable_key: t.keys.pk, redirect_uri: "https://app.example.com/one-more" });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: "too_many_redirect_uris", limit: MAX_REDIRECT_URIS_PER_CLIENT });
  });

  it("never lets localhost callbacks, which the public key alone can add, crowd out real ones", async () => {
    const uris = async () => (await db()).oAuthRedirectUri.findMany({ where: { client: { developerId: t.developer.id } }, orderBy: { createdAt: "asc" }, select: { uri: true } });
    // Someone holding the public key fills the client with localhost callbacks over hours (the hourly
    // count starts afresh each time here): only the newest 10 stay.
    for (let i = 0; i < 30; i++) {
      if (i % LOCALHOST_REGISTRATIONS_PER_KEY_PER_HOUR === 0) await freshRateLimits();
      expect((await register({ publishable_key: t.keys.pk, redirect_uri: `http://localhost:${5000 + i}/cb` })).status).toBeLessThan(300);
    }
    expect((await uris()).map((r) => r.uri)).toEqual(Array.from({ length: MAX_LOCALHOST_REDIRECT_URIS_PER_CLIENT }, (_, i) => `http://localhost:${5020 + i}/cb`));
    // The developer's real callbacks all fit; once the client is full, each takes the oldest localhost one's place.
    await approve("https://app.example.com");
    for (let i = 0; i < MAX_REDIRECT_URIS_PER_CLIENT; i++) {
      expect((await register({ publishable_key: t.keys.pk, redirect_uri: `https://app.example.com/cb${i}` })).status, `real ${i}`).toBe(200);
    }
    const held = (await uris()).map((r) => r.uri);
    expect(held).toHaveLength(MAX_REDIRECT_URIS_PER_CLIENT);
    expect(held.filter((u) => u.startsWith("https://"))).toHaveLength(MAX_REDIRECT_URIS_PER_CLIENT);
  });

  it("answers an identical confidential request with its client (never its secret again), and holds at most 10 per key plane", async () => {
    const clients = () => db().then((p) => p.oAuthClient.count({ where: { developerId: t.developer.id, plane: "live", tokenEndpointAuthMethod: { not: "none" } } }));
    const first = await register({ publishable_key: t.keys.pk, redirect_uri: "http://localhost:8080/cb", token_endpoint_auth_method: "client_secret_basic" });
    expect(first.status).toBe(201);
    const again = await register({ publishable_key: t.keys.pk, redirect_uri: "http://localhost:8080/cb", token_endpoint_auth_method: "client_secret_basic" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ client_id: first.body.client_id });
    await approve("https://app.example.com");
    for (let i = 1; i < MAX_CONFIDENTIAL_CLIENTS_PER_PLANE; i++) {
      expect((await register({ publishable_key: t.keys.pk, redirect_uri: `https://app.example.com/cb${i}`, token_endpoint_auth_method: "client_secret_post" })).status).toBe(201);
    }
    expect(await clients()).toBe(MAX_CONFIDENTIAL_CLIENTS_PER_PLANE);
    const over = await register({ publishable_key: t.keys.pk, redirect_uri: "https://app.example.com/one-more", token_endpoint_auth_method: "client_secret_post" });
    expect(over.status).toBe(400);
    expect(over.body.error).toEqual({ code: "too_many_clients", message: SSO_MESSAGES.tooManyClients, limit: MAX_CONFIDENTIAL_CLIENTS_PER_PLANE });
    expect(await clients()).toBe(MAX_CONFIDENTIAL_CLIENTS_PER_PLANE);
    // Identical requests still answer; the public client and the test plane are counted apart.
    expect((await register({ publishable_key: t.keys.pk, redirect_uri: "https://app.example.com/cb3", token_endpoint_auth_method: "client_secret_post" })).status).toBe(200);
    expect((await register({ publishable_key: t.keys.pk, redirect_uri: "https://app.example.com/one-more" })).status).toBe(201);
    expect((await register({ publishable_key: t.keys.pkTest, redirect_uri: "http://localhost:8080/cb", token_endpoint_auth_method: "client_secret_basic" })).status).toBe(201);
  });

  it("counts new localhost callbacks per publishable key per hour, so the public key cannot push out the developer's own", async () => {
    const uris = async () =>
      (
        await (await db()).oAuthRedirectUri.findMany({ where: { client: { developerId: t.developer.id, plane: "live" } }, orderBy: { createdAt: "asc" }, select: { uri: true } })
      ).map((r) => r.uri);
    const own = "http://localhost:3000/callback";
    expect((await register({ publishable_key: t.keys.pk, redirect_uri: own })).status).toBe(201);
    for (let i = 1; i < LOCALHOST_REGISTRATIONS_PER_KEY_PER_HOUR; i++) {
      expect((await register({ publishable_key: t.keys.pk, redirect_uri: `http://localhost:${6000 + i}/cb` })).status).toBe(200);
    }
    const held = await uris();
    // The sixth new localhost callback in the hour, public or confidential: 429, and nothing changes.
    for (const method of [undefined, "client_secret_basic"]) {
      const limited = await register({ publishable_key: t.keys.pk, redirect_uri: "http://localhost:7000/cb", ...(method ? { token_endpoint_auth_method: method } : {}) });
      expect(limited.status).toBe(429);
      expect(limited.body.error).toMatchObject({ code: "rate_limited", message: SSO_MESSAGES.localhostRateLimited });
      expect(limited.headers.get("retry-after")).toBe(String(limited.body.error.retry_after));
    }
    expect(await uris()).toEqual(held);
    expect(held).toContain(own);
    // A callback already held still answers, and callbacks on an approved origin are not counted.
    expect((await register({ publishable_key: t.keys.pk, redirect_uri: own })).status).toBe(200);
    await approve("https://app.example.com");
    expect((await register({ publishable_key: t.keys.pk, redirect_uri: "https://app.example.com/cb" })).status).toBe(200);
    // Another key of the account counts on its own.
    expect((await register({ publishable_key: t.keys.pkTest, redirect_uri: "http://localhost:7000/cb" })).status).toBe(201);
  });

  it("needs an active agent, and keeps the test plane apart from the live one", async () => {
    const live = await register({ publishable_key: t.keys.pk, redirect_uri: "http://localhost/cb" });
    const test = await register({ publishable_key: t.keys.pkTest, redirect_uri: "http://localhost/cb" });
    expect(test.body.client_id).not.toBe(live.body.client_id);
    expect((await (await db()).oAuthClient.findUniqueOrThrow({ where: { id: test.body.client_id } })).plane).toBe("test");
    await setAgentActive({ developerId: t.developer.id, handle: t.agent.handle, active: false });
    const none = await register({ publishable_key: t.keys.pk, redirect_uri: "http://localhost/other" });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: "no_active_agent", message: SSO_MESSAGES.noActiveAgent });
  });

  it("answers browsers: open CORS and a preflight", async () => {
    const res = await register({ publishable_key: t.keys.pk, redirect_uri: "http://localhost/cb" });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const pre = await clientPreflight();
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
  });
});

describe("GET /v1/sso/clients and DELETE /v1/sso/clients/:clientId/redirect-uris", () => {
  const sk = (tenant: Tenant, key = tenant.keys.sk) => ({ "x-api-key": key, "x-agent": tenant.agent.handle });

  it("list the developer's clients in the key's plane and remove a callback, which then stops working at authorize", async () => {
    const { client_id } = (await register({ publishable_key: t.keys.pk, redirect_uri: "http://localhost:4000/callback" })).body;
    await register({ publishable_key: t.keys.pk, redirect_uri: "http://localhost:4001/callback" });
    const listed = await call(listClientsRoute, { headers: sk(t) });
    expect(listed.status).toBe(200);
    expect(listed.body.clients).toEqual([
      { client_id, token_endpoint_auth_method: "none", redirect_uris: ["http://localhost:4000/callback", "http://localhost:4001/callback"], created_at: expect.any(String) },
    ]);
    expect((await call(listClientsRoute, { headers: sk(t, t.keys.skTest) })).body.clients).toEqual([]);

    const removed = await call(removeUriRoute, { headers: sk(t), params: { clientId: client_id }, body: { redirect_uri: "http://localhost:4000/callback" } });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ok: true, client_id, redirect_uris: ["http://localhost:4001/callback"] });
    const authorize = await authorizeCall({ ...authorizeParams(client_id, pkce().challenge), redirect_uri: "http://localhost:4000/callback" });
    expect(authorize.body).toEqual({ error: "invalid_request", error_description: "redirect_uri must exactly match client registration." });
    const again = await call(removeUriRoute, { headers: sk(t), params: { clientId: client_id }, body: { redirect_uri: "http://localhost:4000/callback" } });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe(SSO_MESSAGES.redirectUriNotFound);
  });

  it("keep tenants apart: another developer's client is not found, and keys are checked", async () => {
    const { client_id } = (await register({ publishable_key: t.keys.pk, redirect_uri: "http://localhost:4000/callback" })).body;
    const other = await createTenant();
    expect((await call(listClientsRoute, { headers: sk(other) })).body.clients).toEqual([]);
    const foreign = await call(removeUriRoute, { headers: sk(other), params: { clientId: client_id }, body: { redirect_uri: "http://localhost:4000/callback" } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe(SSO_MESSAGES.clientNotFound);
    expect((await call(removeUriRoute, { headers: sk(t), params: { clientId: "oc_%00" }, body: { redirect_uri: "x" } })).status).toBe(404);
    expect((await call(listClientsRoute, { headers: { "x-api-key": t.keys.pk, "x-agent": t.agent.handle } })).status).toBe(401);
    expect((await call(listClientsRoute, { headers: { "x-api-key": t.keys.revoked, "x-agent": t.agent.handle } })).status).toBe(401);
    expect(await (await db()).oAuthRedirectUri.count({ where: { clientId: client_id } })).toBe(1);
  });
});
