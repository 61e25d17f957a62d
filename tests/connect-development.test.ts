// The development connection provider (CONNECT_DRIVER=development, the default): an app whose
// provider has no credentials connects through /dev/connect, with the checks a provider makes (state,
// callback, PKCE), and its address never counts as proof for a live account. With
// CONNECT_DRIVER=providers such an app cannot be connected.
import { decodeJwt } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { POST as decide } from "@/app/(hosted)/dev/connect/decide/route";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { createTenant } from "./helpers/fixtures";
import { authorizeCall, authorizeParams, CALLBACK, flowIdFrom, pkce, registerClient, tokenCall } from "./helpers/oauth";

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
    const { startConnection, finishConnection, canConnect, connectsInDevelopment, accessTokenFor } = await conn();
    expect(canConnect("notion")).toBe(true);
    expect(connectsInDevelopment("notion")).toBe(true);
    const url = await startConnection({ app: "outlook", flowId: "dev-flow-1" });
    expect(url.origin + url.pathname).toBe("http://localhost:3000/dev/connect");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");

    const answer = await consent(url, { decision: "allow", email: " Dev.Person@Example.com " });
    expect(answer.status).toBe(303);
    const back = new URL(answer.headers.get("location")!);
    expect(back.origin + back.pathname).toBe("http://localhost:3000/connect/callback");
    expect(back.searchParams.get("state")).toBe(url.searchParams.get("state"));

    const done = await finishConnection(back);
    expect(done).toMatchObject({ app: "outlook", flowId: "dev-flow-1", accountEmail: "dev.person@example.com" });
    const row = await (await db()).appConnection.findUniqueOrThrow({ where: { id: done.id } });
    expect(row).toMatchObject({ provider: "development", accountId: "development:dev.person@example.com", status: "active" });
    expect(await accessTokenFor(done.id)).toMatch(/^dev_/);
    // The code is single use like any other attempt.
    await expect(finishConnection(back)).rejects.toMatchObject({ reason: "unknown_attempt" });
  });

  it("refuses a code for another attempt, a wrong callback, or a missing address; reports a refusal", async () => {
    const { startConnection, finishConnection } = await conn();
    const first = await startConnection({ app: "notion", flowId: "dev-flow-2" });
    const second = await startConnection({ app: "notion", flowId: "dev-flow-2" });
    const firstCode = new URL((await consent(first, { decision: "allow", email: "a@example.com" })).headers.get("location")!).searchParams.get("code")!;
    // The first attempt's code presented with the second attempt's state: the challenge and state do not match.
    const swapped = new URL(`http://localhost:3000/connect/callback?code=${encodeURIComponent(firstCode)}&state=${second.searchParams.get("state")}`);
    await expect(finishConnection(swapped)).rejects.toThrow(/does not match/);

    const elsewhere = new FormData();
    for (const k of ["app", "state", "code_challenge"]) elsewhere.set(k, first.searchParams.get(k)!);
    elsewhere.set("redirect_uri", "https://attacker.example/callback");
    elsewhere.set("decision", "allow");
    elsewhere.set("email", "a@example.com");
    expect((await decide(new Request("http://localhost:3000/dev/connect/decide", { method: "POST", body: elsewhere }))).status).toBe(400);

    const third = await startConnection({ app: "notion", flowId: "dev-flow-2" });
    const noAddress = await consent(third, { decision: "allow", email: "" });
    expect(new URL(noAddress.headers.get("location")!).pathname).toBe("/dev/connect");
    expect(new URL(noAddress.headers.get("location")!).searchParams.get("missing")).toBe("email");

    const denied = new URL((await consent(third, { decision: "deny" })).headers.get("location")!);
    expect(denied.searchParams.get("error")).toBe("access_denied");
    await expect(finishConnection(denied)).rejects.toMatchObject({ reason: "declined", flowId: "dev-flow-2" });
  });

  it("never proves a live account's address: the ID token says email_verified false", async () => {
    const { startConnection, finishConnection, attachFlowConnections, recordMailboxAddress } = await conn();
    const { completeFlow } = await import("@/lib/flow/sessions");
    const { createUser } = await import("@/lib/users/users");
    const user = await createUser({ plane: "live" });
    const url = await startConnection({ app: "outlook", userId: user.id });
    await finishConnection(new URL((await consent(url, { decision: "allow", email: "claimed@example.com" })).headers.get("location")!));
    await (await db()).$transaction(async (tx) => {
      await attachFlowConnections(tx, { flowId: "none", userId: user.id });
      await recordMailboxAddress(tx, user.id);
    });
    const t = await createTenant();
    const { client_id } = await registerClient(t);
    const { verifier, challenge } = pkce();
    const flowId = flowIdFrom(await authorizeCall(authorizeParams(client_id, challenge, { scope: "openid email" })));
    const back = new URL((await completeFlow({ flowId, userId: user.id })).redirectTo);
    const tokens = await tokenCall({ grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: CALLBACK, client_id, code_verifier: verifier });
    expect(decodeJwt(tokens.body.id_token)).toMatchObject({ email: "claimed@example.com", email_verified: false });
  });

  it("is off with CONNECT_DRIVER=providers: the app is not set up, and the page answers 404", async () => {
    process.env.CONNECT_DRIVER = "providers";
    resetEnvForTests();
    const { startConnection, canConnect } = await conn();
    expect(canConnect("notion")).toBe(false);
    await expect(startConnection({ app: "notion", flowId: "dev-flow-3" })).rejects.toMatchObject({ reason: "not_configured" });
    const form = new FormData();
    form.set("decision", "deny");
    expect((await decide(new Request("http://localhost:3000/dev/connect/decide", { method: "POST", body: form }))).status).toBe(404);
  });
});
