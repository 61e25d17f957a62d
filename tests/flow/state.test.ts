// Two submissions of one flow at once — a double-clicked Continue, two tabs — through the steps every
// page and action calls: the flow moves once, what was brought in is saved once, and neither tab
// loses the other's preview. Each request reads the flow before either writes, as two browsers do.
// Also the one loader that opens a flow for a browser, and the stored state parsed when read.
import { beforeEach, describe, expect, it } from "vitest";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { FLOW_TTL_SECONDS } from "@/lib/flow/browser";
import { openFlowFor } from "@/lib/flow/open";
import { findFlow, type Flow } from "@/lib/flow/store";
import { declineFlow } from "@/lib/flow/transitions";
import { openProfileSignup } from "@/lib/flow/ways-in/profile-signup";
import { chooseSignIn, continueFromImport, decidePreview, previewImport, StepError, submitCode, submitPhone } from "@/lib/flow/steps";
import { phoneDigest } from "@/lib/users/phone";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { authorizeCall, authorizeParams, flowIdFrom, pkce, registerClient } from "../helpers/oauth";

let t: Tenant;
let clientId: string;
beforeEach(async () => {
  resetClockForTests();
  t = await createTenant();
  clientId = (await registerClient(t)).client_id;
});

const reload = async (flow: Flow) => (await findFlow(flow.id))!;
const startFlow = async () => (await findFlow(flowIdFrom(await authorizeCall(authorizeParams(clientId, pkce().challenge)))))!;

/** A flow signed in by phone and code first ("Sign in"), back on the import screen. */
async function signedInFlow(phone: string): Promise<Flow> {
  const flow = await startFlow();
  await chooseSignIn(flow);
  await submitPhone(await reload(flow), { phone, ip: "10.11.0.1" });
  const message = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
  await submitCode(await reload(flow), { code: message.body.slice(0, 6) });
  const back = await reload(flow);
  expect(back).toMatchObject({ screen: "import", userId: expect.any(String) });
  return back;
}

describe("two submissions of one flow at once", () => {
  it("two tabs previewing two assistants each keep theirs", async () => {
    const flow = await startFlow();
    // Both requests read the same flow (no preview yet), then write.
    await Promise.all([previewImport(flow, { provider: "chatgpt", text: "- I live in Porto" }), previewImport(flow, { provider: "claude", text: "- I love trail running" })]);
    const previews = await reload(flow);
    expect(previews.broughtIn.map((b) => b.provider).sort()).toEqual(["chatgpt", "claude"]);
    await Promise.all([decidePreview(previews, { provider: "chatgpt", keep: true }), decidePreview(previews, { provider: "claude", keep: true })]);
    expect((await reload(flow)).broughtIn.map((b) => [b.provider, b.confirmed]).sort()).toEqual([
      ["chatgpt", true],
      ["claude", true],
    ]);
  });

  it("a double-clicked Continue moves the flow once; the second is told the step is done", async () => {
    const flow = await startFlow();
    await previewImport(flow, { provider: "chatgpt", text: "- I live in Porto" });
    await decidePreview(await reload(flow), { provider: "chatgpt", keep: true });
    const ready = await reload(flow);
    const results = await Promise.allSettled([continueFromImport(ready), continueFromImport(ready)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected");
    expect(refused?.reason).toBeInstanceOf(StepError);
    expect((refused!.reason as StepError).message).toBe("This step is already done. The page has been brought up to date.");
    expect((await reload(flow)).screen).toBe("phone");
  });

  it("a signed-in person's double-clicked Continue finishes the flow once: one import, one approval", async () => {
    const flow = await signedInFlow("+14155550161");
    await previewImport(flow, { provider: "chatgpt", text: "- I live in Porto\n- I'm vegetarian" });
    await decidePreview(await reload(flow), { provider: "chatgpt", keep: true });
    const ready = await reload(flow);
    const results = await Promise.allSettled([continueFromImport(ready), continueFromImport(ready)]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const prisma = await db();
    const userId = ready.userId!;
    expect(await prisma.import.count({ where: { userId } })).toBe(1);
    expect(await prisma.memory.count({ where: { userId } })).toBe(2);
    expect(await prisma.agentApproval.count({ where: { userId, agentId: t.agent.id } })).toBe(1);
    const done = await reload(flow);
    expect(done.screen).toBe("receipt");
    expect(done.receipt?.saved).toEqual([{ provider: "chatgpt", count: 2 }]);
  });
});

describe("finishing while another tab changes what was brought in", () => {
  it("saves what was kept by the time the flow finishes, not what this request read", async () => {
    const flow = await signedInFlow("+14155550162");
    await previewImport(flow, { provider: "chatgpt", text: "- I live in Porto" });
    await decidePreview(await reload(flow), { provider: "chatgpt", keep: true });
    const stale = await reload(flow);
    // Another tab keeps Claude's preview after this request read the flow.
    await previewImport(await reload(flow), { provider: "claude", text: "- I love trail running" });
    await decidePreview(await reload(flow), { provider: "claude", keep: true });
    await continueFromImport(stale);
    const done = await reload(flow);
    expect(done.receipt?.saved.map((s) => s.provider).sort()).toEqual(["chatgpt", "claude"]);
    expect(await (await db()).memory.count({ where: { userId: stale.userId! } })).toBe(2);
  });
});

describe("opening a flow (openFlowFor, the one check every flow page, action and route makes)", () => {
  it("answers open, foreign, ended, expired or unknown", async () => {
    const { id, browserSecret } = await openProfileSignup("10.11.0.9");
    expect((await openFlowFor(id, browserSecret)).state).toBe("open");
    expect((await openFlowFor(id, undefined)).state).toBe("foreign");
    expect((await openFlowFor(id, "x".repeat(43))).state).toBe("foreign");
    expect(await openFlowFor("A".repeat(32), browserSecret)).toEqual({ state: "unknown", flow: null });
    expect(await openFlowFor("not\u0000an id", browserSecret)).toEqual({ state: "unknown", flow: null });
    advanceClockForTests(FLOW_TTL_SECONDS * 1000);
    expect((await openFlowFor(id, browserSecret)).state).toBe("expired");
    resetClockForTests();
    await declineFlow({ flowId: id });
    expect((await openFlowFor(id, browserSecret)).state).toBe("ended");
  });

  it("parses the stored state when it reads it: a row the service did not write so is refused", async () => {
    const { id } = await openProfileSignup("10.11.0.9");
    await (await db()).flowSession.update({ where: { id }, data: { broughtIn: [{ provider: "__proto__", via: "paste", memories: [], confirmed: true }] } });
    await expect(findFlow(id)).rejects.toThrow();
    // The way in, the status and the screen are enums in the database itself: an unknown value is refused there.
    await expect((await db()).$executeRawUnsafe(`UPDATE flow_sessions SET screen = 'nowhere' WHERE id = $1`, id)).rejects.toThrow();
    await expect((await db()).$executeRawUnsafe(`UPDATE flow_sessions SET status = 'paused' WHERE id = $1`, id)).rejects.toThrow();
  });
});
