// The hosted flow's steps end to end through the service functions: import with a preview, phone,
// code, receipt and return; Sign in first; required entries holding Continue; the sandbox's 424242;
// and a scan of the whole database after a sign-in that finds no raw phone number.
import { beforeEach, describe, expect, it } from "vitest";
import { resetClockForTests } from "@/lib/platform/clock";
import { db, database } from "@/lib/platform/db";
import { findFlow, type Flow } from "@/lib/flow/store";
import { returnToApp } from "@/lib/flow/transitions";
import { screensOf } from "@/lib/flow/sequence";
import { continueState } from "@/lib/flow/queries";
import { chooseSignIn, continueFromImport, continueFromMailbox, decidePreview, previewImport, StepError, submitCode, submitPhone } from "@/lib/flow/steps";
import { isApproved } from "@/lib/users/approvals";
import { phoneDigest } from "@/lib/users/phone";
import { flowScreenView } from "@/lib/flow/views";
import { outsideDevelopment } from "../helpers/env";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { authorizeCall, authorizeParams, flowIdFrom, pkce, registerClient } from "../helpers/oauth";

let t: Tenant;
let clientId: string;
beforeEach(async () => {
  resetClockForTests();
  t = await createTenant();
  clientId = (await registerClient(t)).client_id;
});

const MEMORY_LIST = "[2024-03-05] - I live in Lisbon\n[2024-04-01] - I'm vegetarian\n- I love trail running";
let n = 0;
const freshPhone = () => `+4420794600${String(10 + (n++ % 90))}`;
const reload = async (flow: Flow) => (await findFlow(flow.id))!;

async function startFlow(extra: Record<string, string | undefined> = {}) {
  return (await findFlow(flowIdFrom(await authorizeCall(authorizeParams(clientId, pkce().challenge, extra)))))!;
}

async function codeFromOutbox(phone: string) {
  const row = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
  return row.body.slice(0, 6);
}

describe("a new person signing in", () => {
  it("imports, enters a number and the code, and reaches the receipt; returning issues the code", async () => {
    let flow = await startFlow();
    expect((await continueState(flow)).enabled).toBe(false);
    await expect(continueFromImport(flow)).rejects.toBeInstanceOf(StepError);

    const preview = await previewImport(flow, { provider: "chatgpt", text: MEMORY_LIST });
    expect(preview.memories.map((m) => m.text)).toEqual(["I live in Lisbon", "I'm vegetarian", "I love trail running"]);
    expect(preview.memories[0]!.at).toBe("2024-03-05T00:00:00.000Z");
    flow = await reload(flow);
    expect((await continueState(flow)).enabled).toBe(false); // a preview is not yet kept
    await decidePreview(flow, { provider: "chatgpt", keep: true });
    flow = await reload(flow);
    expect((await continueState(flow)).enabled).toBe(true);
    await continueFromImport(flow);
    flow = await reload(flow);
    expect(flow.screen).toBe("phone");

    const phone = freshPhone();
    await expect(submitPhone(flow, { phone: "12", ip: "10.9.0.1" })).rejects.toMatchObject({ field: "phone" });
    await submitPhone(flow, { phone: `0${phone.slice(3)}`, country: "GB", ip: "10.9.0.1" });
    flow = await reload(flow);
    expect(flow).toMatchObject({ screen: "code", phoneLast4: phone.slice(-4) });
    await expect(submitCode(flow, { code: "12" })).rejects.toMatchObject({ field: "code", message: "Enter the six digits from the text message." });
    const { userId } = await submitCode(flow, { code: await codeFromOutbox(phone) });
    flow = await reload(flow);
    // The client asked for email and the new account has no verified address: the mailbox is offered.
    expect(flow).toMatchObject({ screen: "mailbox", userId });
    expect(screensOf(flow)).toEqual(["import", "phone", "code", "mailbox", "receipt"]);
    await continueFromMailbox(flow);
    flow = await reload(flow);
    expect(flow.screen).toBe("receipt");
    expect(flow.receipt).toEqual({ saved: [{ provider: "chatgpt", count: 3 }], connected: [], approvedAgentId: t.agent.id });
    expect(await isApproved({ userId, agentId: t.agent.id })).toBe(true);
    const user = await (await db()).user.findUniqueOrThrow({ where: { id: userId } });
    expect(user).toMatchObject({ plane: "live", phoneHash: phoneDigest(phone).phoneHash, phoneLast4: phone.slice(-4) });
    const memories = await (await db()).memory.findMany({ where: { userId } });
    expect(memories.map((m) => m.source)).toEqual(["imports/chatgpt", "imports/chatgpt", "imports/chatgpt"]);

    const { redirectTo } = await returnToApp({ flowId: flow.id, userId });
    expect(new URL(redirectTo).searchParams.get("code")).toBeTruthy();

    // No raw phone number anywhere in the database: every text column of every table is scanned.
    const digits = phone.slice(1);
    const national = `0${phone.slice(3)}`;
    const tables = await (
      await database()
    ).sql.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`);
    for (const { table_name } of tables) {
      const rows = await (await database()).sql.query<{ row: string }>(`SELECT row_to_json(x)::text AS row FROM "${table_name}" x`);
      for (const { row } of rows) {
        expect(row, table_name).not.toContain(digits);
        expect(row, table_name).not.toContain(national);
      }
    }
    expect(tables.length).toBeGreaterThan(10);
  });

  it("the code screen links the development outbox where the text message waits, and only there", async () => {
    let flow = await startFlow();
    await previewImport(flow, { provider: "chatgpt", text: MEMORY_LIST });
    await decidePreview(await reload(flow), { provider: "chatgpt", keep: true });
    await continueFromImport(await reload(flow));
    await submitPhone(await reload(flow), { phone: freshPhone(), ip: "10.9.0.2" });
    flow = await reload(flow);
    expect(await flowScreenView({ state: "open", flow })).toMatchObject({ screen: "code", outbox: "/dev/outbox" });
    // Sent by Twilio in production: nothing kept, nothing to link.
    await outsideDevelopment(async () => {
      expect(await flowScreenView({ state: "open", flow })).toMatchObject({ screen: "code", outbox: null });
    });
  });

  it("the same number signs in to the same account, and an existing account's memories turn Continue on", async () => {
    const phone = freshPhone();
    let first = await startFlow();
    await previewImport(first, { provider: "claude", text: MEMORY_LIST });
    await decidePreview(await reload(first), { provider: "claude", keep: true });
    await continueFromImport(await reload(first));
    await submitPhone(await reload(first), { phone, ip: "10.9.0.2" });
    const { userId } = await submitCode(await reload(first), { code: await codeFromOutbox(phone) });
    await continueFromMailbox(await reload(first));

    // "Sign in" under Continue: phone and code first, then the import screen, signed in.
    let flow = await startFlow();
    await chooseSignIn(flow);
    flow = await reload(flow);
    expect(flow.screen).toBe("phone");
    await submitPhone(flow, { phone, ip: "10.9.0.3" });
    const again = await submitCode(await reload(flow), { code: await codeFromOutbox(phone) });
    expect(again.userId).toBe(userId);
    flow = await reload(flow);
    expect(flow).toMatchObject({ screen: "import", userId, signInFirst: true });
    expect((await continueState(flow)).enabled).toBe(true);
    await continueFromImport(flow);
    flow = await reload(flow);
    expect(flow.screen).toBe("receipt");
    expect(flow.receipt!.saved).toEqual([]);
    first = await reload(first);
    expect(first.userId).toBe(userId);
  });
});

describe("export files", () => {
  it("reads a ChatGPT or Claude conversations.json into a preview, and says what is wrong with any other file", async () => {
    const { readFileSync } = await import("node:fs");
    const flow = await startFlow();
    const chatgpt = new Uint8Array(readFileSync("tests/fixtures/exports/chatgpt-conversations.json"));
    const preview = await previewImport(flow, { provider: "chatgpt", file: chatgpt });
    expect(preview.via).toBe("file");
    expect(preview.memories.length).toBeGreaterThan(0);
    const claude = new Uint8Array(readFileSync("tests/fixtures/exports/claude-conversations.json"));
    expect((await previewImport(await reload(flow), { provider: "claude", file: claude })).memories.length).toBeGreaterThan(0);
    await expect(previewImport(await reload(flow), { provider: "claude", file: chatgpt })).rejects.toMatchObject({
      field: "file",
      message: "That is a ChatGPT export, not Claude.",
    });
    await expect(previewImport(await reload(flow), { provider: "chatgpt", file: new TextEncoder().encode("not json") })).rejects.toMatchObject({
      field: "file",
      message: "That file is not conversations.json. Unzip the export and upload conversations.json.",
    });
    await expect(previewImport(await reload(flow), { provider: "gemini", file: chatgpt })).rejects.toMatchObject({ field: "file" });
    await expect(previewImport(await reload(flow), { provider: "chatgpt", text: "   " })).rejects.toMatchObject({ field: "text", message: "Paste the assistant's answer first." });
  });
});

describe("the mailbox after the code", () => {
  it("is not offered when the client did not ask for email, or the account's address is proven", async () => {
    const flow = await startFlow({ scope: "openid profile" });
    await previewImport(flow, { provider: "chatgpt", text: MEMORY_LIST });
    await decidePreview(await reload(flow), { provider: "chatgpt", keep: true });
    await continueFromImport(await reload(flow));
    const phone = freshPhone();
    await submitPhone(await reload(flow), { phone, ip: "10.9.0.9" });
    await submitCode(await reload(flow), { code: await codeFromOutbox(phone) });
    expect((await reload(flow)).screen).toBe("receipt");
  });
});

describe("required", () => {
  it("holds Continue until every entry is met; one alternative is enough", async () => {
    let flow = await startFlow({ required: "chatgpt|claude,grok" });
    await previewImport(flow, { provider: "claude", text: MEMORY_LIST });
    await decidePreview(await reload(flow), { provider: "claude", keep: true });
    flow = await reload(flow);
    let state = await continueState(flow);
    expect(state).toEqual({
      enabled: false,
      required: [
        { names: ["chatgpt", "claude"], met: true },
        { names: ["grok"], met: false },
      ],
    });
    await previewImport(flow, { provider: "grok", text: "I work as a nurse" });
    await decidePreview(await reload(flow), { provider: "grok", keep: true });
    state = await continueState(await reload(flow));
    expect(state.enabled).toBe(true);
  });

  it("a typo drops the entry: nothing is held but the first import", async () => {
    const flow = await startFlow({ required: "chatgtp" });
    expect(flow.required).toEqual([]);
  });
});

describe("the sandbox", () => {
  it("signs the synthetic user in with 424242 and sends no message", async () => {
    const { provisionSandbox } = await import("@/lib/sandbox/sandbox");
    const sandbox = await provisionSandbox();
    const { resolveApiKey } = await import("@/lib/api-keys/api-keys");
    const developerId = (await resolveApiKey(sandbox.publishable_key))!.developerId;
    const { client_id } = await registerClient(t, { pk: sandbox.publishable_key });
    let flow = (await findFlow(flowIdFrom(await authorizeCall(authorizeParams(client_id, pkce().challenge)))))!;
    expect(flow.plane).toBe("test");
    expect(flow.developerId).toBe(developerId);
    await chooseSignIn(flow);
    const before = await (await db()).smsOutbox.count();
    await submitPhone(await reload(flow), { phone: sandbox.user.phone, ip: "10.9.0.4" });
    expect(await (await db()).smsOutbox.count()).toBe(before);
    const { userId } = await submitCode(await reload(flow), { code: "424242" });
    expect(userId).toBe(sandbox.user.id);
    flow = await reload(flow);
    expect((await continueState(flow)).enabled).toBe(true); // the seeded profile holds something
  });
});
