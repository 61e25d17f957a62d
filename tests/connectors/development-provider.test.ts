// The development connection provider (CONNECT_DRIVER=development, the default): an app whose
// provider has no credentials connects through /dev/connect, with the checks a provider makes (state,
// callback, PKCE), and its address never counts as proof for a live account. With
// CONNECT_DRIVER=providers such an app cannot be connected.
import { decodeJwt } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as decide } from "@/app/(hosted)/dev/connect/decide/route";
import { db } from "@/lib/platform/db";
import { resetEnvForTests } from "@/lib/env";
import { createTenant } from "../helpers/fixtures";
import { authorizeCall, authorizeParams, CALLBACK, flowIdFrom, pkce, registerClient, tokenCall } from "../helpers/oauth";

// The default on the embedded database; these tests also run with DATABASE_URL, whose default is "providers".
beforeEach(() => {
  process.env.CONNECT_DRIVER = "development";
  resetEnvForTests();
});
afterEach(() => {
  delete process.env.CONNECT_DRIVER;
  resetEnvForTests();
});

const conn = () => import("@/lib/connectors/connections");

async function consent(url: URL, answer: { decision: "allow" | "deny"; email?: string }): Promise<Response> {
  const form = new FormData();
  for (const k of ["app", "state", "code_challenge", "redirect_uri"]) form.set(k, url.searchParams.get(k)!);
  form.set("decision", answer.decision);
  if (answer.email !== undefined) form.set("email", answer.email);
  return decide(new Request("http://localhost:3000/dev/connect/decide", { method: "POST", body: form }));
}

describe("the development provider", () => {
  it("stands in for a provider without credentials: consent for an address, then the connection", async () => {
    const { startConnection, finishConnection, accessTokenFor } = await conn();
    const { canConnectApp, appConnectsInDevelopment } = await import("@/lib/connectors/providers");
    expect(canConnectApp("notion")).toBe(true);
    expect(appConnectsInDevelopment("notion")).toBe(true);
    const { url, cookie } = await startConnection({ app: "outlook", flowId: "dev-flow-1" });
    expect(url.origin + url.pathname).toBe("http://localhost:3000/dev/connect");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");

    const answer = await consent(url, { decision: "allow", email: " Dev.Person@Example.com " });
    expect(answer.status).toBe(303);
    const back = new URL(answer.headers.get("location")!);
    expect(back.origin + back.pathname).toBe("http://localhost:3000/connect/callback");
    expect(back.searchParams.get("state")).toBe(url.searchParams.get("state"));

    const done = await finishConnection(back, cookie);
    expect(done).toMatchObject({ app: "outlook", flowId: "dev-flow-1", accountEmail: "dev.person@example.com" });
    const row = await (await db()).appConnection.findUniqueOrThrow({ where: { id: done.id } });
    expect(row).toMatchObject({ provider: "development", accountId: "development:dev.person@example.com", status: "active" });
    expect(await accessTokenFor(done.id)).toMatch(/^dev_/);
    // The code is single use like any other attempt.
    await expect(finishConnection(back, cookie)).rejects.toMatchObject({ reason: "unknown_attempt" });
  });

  it("refuses a code for another attempt, a wrong callback, or a missing address; reports a refusal", async () => {
    const { startConnection, finishConnection } = await conn();
    const { url: first } = await startConnection({ app: "notion", flowId: "dev-flow-2" });
    const { url: second, cookie: secondCookie } = await startConnection({ app: "notion", flowId: "dev-flow-2" });
    const firstCode = new URL((await consent(first, { decision: "allow", email: "a@example.com" })).headers.get("location")!).searchParams.get("code")!;
    // The first attempt's code presented with the second attempt's state: the challenge and state do not match.
    const swapped = new URL(`http://localhost:3000/connect/callback?code=${encodeURIComponent(firstCode)}&state=${second.searchParams.get("state")}`);
    await expect(finishConnection(swapped, secondCookie)).rejects.toThrow(/does not match/);

    const elsewhere = new FormData();
    for (const k of ["app", "state", "code_challenge"]) elsewhere.set(k, first.searchParams.get(k)!);
    elsewhere.set("redirect_uri", "https://attacker.example/callback");
    elsewhere.set("decision", "allow");
    elsewhere.set("email", "a@example.com");
    expect((await decide(new Request("http://localhost:3000/dev/connect/decide", { method: "POST", body: elsewhere }))).status).toBe(400);

    const { url: third, cookie: thirdCookie } = await startConnection({ app: "notion", flowId: "dev-flow-2" });
    const noAddress = await consent(third, { decision: "allow", email: "" });
    expect(new URL(noAddress.headers.get("location")!).pathname).toBe("/dev/connect");
    expect(new URL(noAddress.headers.get("location")!).searchParams.get("missing")).toBe("email");

    const denied = new URL((await consent(third, { decision: "deny" })).headers.get("location")!);
    expect(denied.searchParams.get("error")).toBe("access_denied");
    await expect(finishConnection(denied, thirdCookie)).rejects.toMatchObject({ reason: "declined", flowId: "dev-flow-2" });
  });

  it("never proves a live account's address: the ID token says email_verified false", async () => {
    const { startConnection, finishConnection } = await conn();
    const { returnFromReceipt } = await import("../helpers/receipt");
    const { createUser } = await import("@/lib/users/users");
    const user = await createUser({ plane: "live" });
    const { url, cookie } = await startConnection({ app: "outlook", userId: user.id });
    await finishConnection(new URL((await consent(url, { decision: "allow", email: "claimed@example.com" })).headers.get("location")!), cookie);
    // Connected for the account: its address became the account's, unproven.
    expect(await (await db()).user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ email: "claimed@example.com", emailProof: "none" });
    const t = await createTenant();
    const { client_id } = await registerClient(t);
    const { verifier, challenge } = pkce();
    const flowId = flowIdFrom(await authorizeCall(authorizeParams(client_id, challenge, { scope: "openid email" })));
    const back = new URL((await returnFromReceipt({ flowId, userId: user.id })).redirectTo);
    const tokens = await tokenCall({ grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: CALLBACK, client_id, code_verifier: verifier });
    expect(decodeJwt(tokens.body.id_token)).toMatchObject({ email: "claimed@example.com", email_verified: false });
  });

  it("leaves the mailbox page and its proofs offered after the code when the only mailbox is a development one", async () => {
    const { startConnection, finishConnection } = await conn();
    const { findFlow } = await import("@/lib/flow/store");
    const steps = await import("@/lib/flow/steps");
    const { phoneDigest } = await import("@/lib/users/phone");
    const t = await createTenant();
    const { client_id } = await registerClient(t);
    const flowId = flowIdFrom(await authorizeCall(authorizeParams(client_id, pkce().challenge, { scope: "openid email" })));
    const reload = async () => (await findFlow(flowId))!;
    const { url, cookie } = await startConnection({ app: "gmail", flowId });
    await finishConnection(new URL((await consent(url, { decision: "allow", email: "local@example.com" })).headers.get("location")!), cookie);
    await steps.continueFromImport(await reload());
    const phone = "+14155550191";
    await steps.submitPhone(await reload(), { phone, ip: "10.7.0.1" });
    const sms = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
    await steps.submitCode(await reload(), { code: sms.body.slice(0, 6) });
    expect((await reload()).screen).toBe("mailbox");
  });

  it("is off with CONNECT_DRIVER=providers: the app is not set up, and the page answers 404", async () => {
    process.env.CONNECT_DRIVER = "providers";
    resetEnvForTests();
    const { startConnection } = await conn();
    const { canConnectApp } = await import("@/lib/connectors/providers");
    expect(canConnectApp("notion")).toBe(false);
    await expect(startConnection({ app: "notion", flowId: "dev-flow-3" })).rejects.toMatchObject({ reason: "not_configured" });
    const form = new FormData();
    form.set("decision", "deny");
    expect((await decide(new Request("http://localhost:3000/dev/connect/decide", { method: "POST", body: form }))).status).toBe(404);
  });
});
