// Connecting Gmail inside a sign-in, against a local provider speaking Google's side: the mailbox page
// first for a mailbox-only required entry, the connection meeting it, the account created at the
// code, and a real ID token whose email_verified comes from that mailbox — true while it works.
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { returnFromReceipt } from "../helpers/receipt";
import { findFlow } from "@/lib/flow/store";
import { returnToApp } from "@/lib/flow/transitions";
import { continueState } from "@/lib/flow/queries";
import { continueFromImport, continueFromMailbox, StepError, submitCode, submitPhone } from "@/lib/flow/steps";
import { flowScreenView } from "@/lib/flow/views";
import { phoneDigest } from "@/lib/users/phone";
import { type Flow } from "@/lib/flow/store";
import { createTenant } from "../helpers/fixtures";
import { startGoogleProvider } from "../helpers/google-provider";
import { authorizeCall, authorizeParams, CALLBACK, flowIdFrom, pkce, registerClient, tokenCall } from "../helpers/oauth";

let provider: Awaited<ReturnType<typeof startGoogleProvider>>;
beforeAll(async () => {
  provider = await startGoogleProvider({ redirectUri: "http://localhost:3000/connect/callback", email: "grace@example.com", accountId: "g-grace" });
  Object.assign(process.env, provider.env);
  (await import("@/lib/env")).resetEnvForTests();
});
afterAll(() => provider.close());

/** What the flow page shows this flow's browser. */
const shown = (flow: Flow) => flowScreenView({ state: "open", flow });

describe("a sign-in that requires a mailbox", () => {
  it("connects Gmail first, then signs in, and the ID token's email is verified by the mailbox", async () => {
    const { startConnection, finishConnection } = await import("@/lib/connectors/connections");
    const t = await createTenant();
    const { client_id } = await registerClient(t);
    const { verifier, challenge } = pkce();
    const flowId = flowIdFrom(await authorizeCall(authorizeParams(client_id, challenge, { required: "gmail", scope: "openid email" })));
    let flow = (await findFlow(flowId))!;
    expect(flow.screen).toBe("mailbox");
    await expect(continueFromMailbox(flow)).rejects.toBeInstanceOf(StepError);
    // The page shows what the step enforces: Continue off until the required mailbox is connected.
    expect(await shown(flow)).toMatchObject({
      screen: "mailbox",
      offered: false,
      rows: [{ app: "gmail", required: true }],
      continueEnabled: false,
      connectedMailbox: false,
      emailCode: null,
    });

    const started = await startConnection({ app: "gmail", flowId });
    await finishConnection(await provider.consent(started.url), started.cookie);
    flow = (await findFlow(flowId))!;
    expect(await shown(flow)).toMatchObject({
      rows: [{ app: "gmail", state: "connected", required: false }],
      continueEnabled: true,
      connectedMailbox: true,
      continueLabel: "Continue",
    });
    await continueFromMailbox(flow);
    flow = (await findFlow(flowId))!;
    expect(flow.screen).toBe("import");
    const state = await continueState(flow);
    expect(state).toEqual({ enabled: true, required: [{ names: ["gmail"], met: true }] }); // the connection is the one thing brought in

    await continueFromImport(flow);
    const phone = "+14155550142";
    await submitPhone((await findFlow(flowId))!, { phone, ip: "10.7.0.1" });
    const message = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
    const { userId } = await submitCode((await findFlow(flowId))!, { code: message.body.slice(0, 6) });
    flow = (await findFlow(flowId))!;
    expect(flow.receipt?.connected).toEqual(["gmail"]);
    const user = await (await db()).user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.email).toBe("grace@example.com");
    expect(user.emailProof).toBe("none"); // the proof is the working connection, checked at each issuance
    expect(await (await db()).appConnection.count({ where: { userId, app: "gmail", status: "active" } })).toBe(1);

    const url = new URL((await returnToApp({ flowId, userId })).redirectTo);
    const tokens = await tokenCall({ grant_type: "authorization_code", code: url.searchParams.get("code")!, redirect_uri: CALLBACK, client_id, code_verifier: verifier });
    expect(decodeJwt(tokens.body.id_token)).toMatchObject({ sub: userId, email: "grace@example.com", email_verified: true });

    // The mailbox stops working: the next ID token says so.
    await (await db()).appConnection.updateMany({ where: { userId }, data: { status: "needs_reconnect" } });
    const again = pkce();
    const second = flowIdFrom(await authorizeCall(authorizeParams(client_id, again.challenge, { scope: "openid email" })));
    const back = new URL((await returnFromReceipt({ flowId: second, userId })).redirectTo);
    const next = await tokenCall({ grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: CALLBACK, client_id, code_verifier: again.verifier });
    expect(decodeJwt(next.body.id_token)).toMatchObject({ email: "grace@example.com", email_verified: false });
  });
});

describe("the mailbox page after the code", () => {
  it("is offered when a Gmail connected in the flow will not prove the account's own address", async () => {
    const { startConnection, finishConnection } = await import("@/lib/connectors/connections");
    const t = await createTenant();
    const { client_id } = await registerClient(t);
    // An existing account whose address was typed somewhere, never proven.
    const phone = "+14155550151";
    const prisma = await db();
    const existing = await prisma.user.create({ data: { plane: "live", phoneScope: "", ...phoneDigest(phone), email: "typed@example.org" } });
    const flowId = flowIdFrom(await authorizeCall(authorizeParams(client_id, pkce().challenge, { scope: "openid email" })));
    const started = await startConnection({ app: "gmail", flowId });
    await finishConnection(await provider.consent(started.url), started.cookie);
    await continueFromImport((await findFlow(flowId))!);
    await submitPhone((await findFlow(flowId))!, { phone, ip: "10.7.0.2" });
    const message = await prisma.smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
    const { userId } = await submitCode((await findFlow(flowId))!, { code: message.body.slice(0, 6) });
    expect(userId).toBe(existing.id);
    // grace@example.com's Gmail does not own typed@example.org: the address is still unproven, so the page is offered.
    expect((await findFlow(flowId))!.screen).toBe("mailbox");
    // Offered, not required: Continue says "Not now", and the other proofs are offered.
    expect(await shown((await findFlow(flowId))!)).toMatchObject({
      offered: true,
      rows: [{ app: "gmail" }, { app: "outlook" }],
      continueEnabled: true,
      continueLabel: "Not now",
      emailCode: { pendingEmail: null },
    });
    // Deciding it changed nothing: the Gmail still waits on the flow, the account keeps its address.
    expect(await prisma.appConnection.count({ where: { flowId, userId: null, app: "gmail" } })).toBe(1);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: userId } })).email).toBe("typed@example.org");
  });
});
