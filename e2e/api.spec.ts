// The production server's API path end to end: sandbox provisioning, then an authenticated read.
import { expect, test } from "@playwright/test";

test("a sandbox provisioned over HTTP reads its user's profile", async ({ request }) => {
  const provisioned = await request.post("/v1/sandbox/provision");
  expect(provisioned.status()).toBe(201);
  expect(provisioned.headers()["x-request-id"]).toMatch(/^req_/);
  const sandbox = await provisioned.json();
  expect(sandbox.secret_key).toMatch(/^sk_test_/);

  const headers = { "X-API-Key": sandbox.secret_key, "X-Agent": sandbox.agent.handle, "X-User-Id": sandbox.user.external_id };
  const profile = await request.get("/v1/profile?sections=identity", { headers });
  expect(profile.status()).toBe(200);
  expect(await profile.json()).toMatchObject({ linked: true, livemode: false, identity: { given_name: "Sam" } });

  const bearer = await request.get("/v1/profile", {
    headers: { "X-API-Key": sandbox.secret_key, "X-Agent": sandbox.agent.handle, Authorization: `Bearer ${sandbox.user.agent_token}` },
  });
  expect(bearer.status()).toBe(200);

  const wrongKey = await request.get("/v1/profile", { headers: { ...headers, "X-API-Key": "sk_test_" + "x".repeat(32) } });
  expect(wrongKey.status()).toBe(401);
  expect((await wrongKey.json()).error.code).toBe("invalid_api_key");
});

test("the production server serves the connector tools' routes: the sandbox person's Gmail is searched with their token, X-User-Id is refused", async ({ request }) => {
  const sandbox = await (await request.post("/v1/sandbox/provision")).json();
  const key = { "X-API-Key": sandbox.secret_key, "X-Agent": sandbox.agent.handle };
  const search = await request.post("/v1/tools/service_gmail_search", { headers: { ...key, Authorization: `Bearer ${sandbox.user.agent_token}` }, data: { limit: 2 } });
  expect(search.status()).toBe(200);
  const found = await search.json();
  expect(found.messages.length).toBeGreaterThan(0);
  expect(found.messages[0]).toMatchObject({ mailbox: "gmail" });
  const byId = await request.post("/v1/tools/service_gmail_search", { headers: { ...key, "X-User-Id": sandbox.user.external_id }, data: {} });
  expect(byId.status()).toBe(400);
  expect((await byId.json()).error.code).toBe("user_token_required");
});

test("discovery and the JWKS are served, open to any origin", async ({ request }) => {
  const discovery = await request.get("/.well-known/openid-configuration");
  expect(discovery.status()).toBe(200);
  const doc = await discovery.json();
  expect(doc.jwks_uri).toBe(`${doc.issuer}/.well-known/jwks.json`);
  const jwks = await request.get("/.well-known/jwks.json", { headers: { Origin: "https://rp.example" } });
  expect(jwks.status()).toBe(200);
  expect(jwks.headers()["access-control-allow-origin"]).toBe("*");
  const { keys } = await jwks.json();
  expect(keys).toHaveLength(1);
  expect(keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
});

test("no answer of the production server can be framed: pages, a flow, the account page, errors, API and assets", async ({ request }) => {
  // A real flow page: sign-up starts a flow and sends the browser to it.
  const signUp = await request.get("/sign-up", { maxRedirects: 0 });
  expect(signUp.status()).toBe(303);
  expect(signUp.headers()["x-frame-options"]).toBe("DENY");
  const paths = ["/", "/docs", "/account", "/dev/outbox", signUp.headers().location!, "/no-such-page", "/v1/no-such-route", "/.well-known/openid-configuration", "/icon.svg"];
  for (const p of paths) {
    const res = await request.get(p, { maxRedirects: 0 });
    expect(res.status(), p).toBeLessThan(500);
    expect(res.headers()["x-frame-options"], p).toBe("DENY");
    expect(res.headers()["content-security-policy"], p).toContain("frame-ancestors 'none'");
  }
});
