// Each webhook event comes from the real change it reports, written in that change's transaction: a
// person finishing a sign-in link with Gmail (approval.granted, app.connected), revoking the agent on
// their account page (approval.revoked), disconnecting an app or taking it back (app.disconnected),
// deleting their account (user.deleted), a bulk import job ending (import_job.completed, .failed). Events
// reach the right developer's endpoints of the right plane only, carry ids and never profile content,
// and a change that rolls back leaves none.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as devDecide } from "@/app/(hosted)/dev/connect/decide/route";
import { GET as signInHost } from "@/app/(hosted)/sign-in/[agent]/route";
import { POST as importSubmit } from "@/app/v1/import/profiles/route";
import { revokeAgent, revokeAgentApp } from "@/lib/account/agents";
import { deleteAccount } from "@/lib/account/delete";
import { disconnectApp } from "@/lib/connectors/connections";
import { findFlow, type Flow } from "@/lib/flow/store";
import * as steps from "@/lib/flow/steps";
import { returnToApp } from "@/lib/flow/transitions";
import { markFailed } from "@/lib/import-jobs/endings";
import { runImportJob } from "@/lib/import-jobs/worker";
import { db } from "@/lib/platform/db";
import { resetEnvForTests } from "@/lib/env";
import { approveAgent } from "@/lib/users/approvals";
import { phoneDigest } from "@/lib/users/phone";
import { createUser } from "@/lib/users/users";
import { webhookPayload } from "@/lib/webhooks/catalogue";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let a: Tenant;
let b: Tenant;
let phones = 0;
const newPhone = () => `+1415556${String(4000 + phones++).padStart(4, "0")}`;

beforeAll(() => {
  process.env.CONNECT_DRIVER = "development";
  resetEnvForTests();
});
afterAll(() => {
  delete process.env.CONNECT_DRIVER;
  resetEnvForTests();
});
beforeEach(async () => {
  a = await createTenant();
  b = await createTenant();
  // Both developers listen on both planes.
  for (const t of [a, b]) {
    await createEndpoint({ developerId: t.developer.id, plane: "live", url: "https://hooks.example.com/live" });
    await createEndpoint({ developerId: t.developer.id, plane: "test", url: "https://hooks.example.com/test" });
  }
});

/** The events stored for a developer's plane, oldest first, as their bodies. */
async function events(t: Tenant, plane: "live" | "test" = "live") {
  const rows = await (await db()).webhookEvent.findMany({ where: { developerId: t.developer.id, plane }, orderBy: { createdAt: "asc" }, include: { deliveries: true } });
  for (const r of rows) {
    expect(r.deliveries).toHaveLength(1);
    expect(r.deliveries[0]).toMatchObject({ status: "pending", plane });
  }
  return rows.map((r) => webhookPayload.parse(JSON.parse(r.payload)));
}

const reload = async (flow: Flow) => (await findFlow(flow.id))!;

async function openSignInLink(t: Tenant, query: Record<string, string> = {}): Promise<Flow> {
  const name = (await (await db()).agent.findUniqueOrThrow({ where: { id: t.agent.id } })).signInName;
  const url = new URL(`http://localhost:3000/sign-in/${name}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await signInHost(new Request(url, { headers: { "x-service-client-ip": "10.9.0.1" } }), { params: Promise.resolve({ agent: name }) });
  expect(res.status, await res.clone().text()).toBe(303);
  return (await findFlow(res.headers.get("location")!.split("/flow/")[1]!))!;
}

async function connectInFlow(flow: Flow, app: string) {
  const { startConnection, finishConnection } = await import("@/lib/connectors/connections");
  const { url, cookie } = await startConnection({ app, flowId: flow.id });
  const form = new FormData();
  for (const k of ["app", "state", "code_challenge", "redirect_uri"]) form.set(k, url.searchParams.get(k)!);
  form.set("decision", "allow");
  form.set("email", "p2@example.com");
  const answer = await devDecide(new Request("http://localhost:3000/dev/connect/decide", { method: "POST", body: form }));
  await finishConnection(new URL(answer.headers.get("location")!), cookie);
}

/** A new person finishes the agent's sign-in link with Gmail connected: the hosted flow, end to end. */
async function signInWithGmail(t: Tenant) {
  const phone = newPhone();
  const person = await createUser({ plane: "live", phone });
  const flow = await openSignInLink(t, { connectors: "gmail" });
  await connectInFlow(flow, "gmail");
  await steps.continueFromApp(await reload(flow));
  await steps.submitPhone(await reload(flow), { phone, ip: "10.9.0.1" });
  const sms = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
  expect((await steps.submitCode(await reload(flow), { code: sms.body.slice(0, 6) })).userId).toBe(person.id);
  await returnToApp({ flowId: flow.id, userId: person.id });
  return person;
}

describe("events from the real changes", () => {
  it("a person finishing a sign-in link with Gmail: approval.granted and app.connected, once, to that developer only", async () => {
    const person = await signInWithGmail(a);
    const got = await events(a);
    expect(got.map((e) => e.type)).toEqual(["approval.granted", "app.connected"]);
    expect(got[0]).toEqual({
      id: expect.stringMatching(/^evt_[A-Za-z0-9]{24}$/),
      type: "approval.granted",
      createdAt: expect.any(String),
      livemode: true,
      data: { userId: person.id, externalIds: [], agent: a.agent.handle },
    });
    expect(got[1]!.data).toEqual({ userId: person.id, externalIds: [], agent: a.agent.handle, app: "gmail" });
    expect(await events(b)).toEqual([]);
    expect(await events(a, "test")).toEqual([]);
    // Approving again what is approved changes nothing and says nothing.
    await approveAgent({ userId: person.id, agentId: a.agent.id });
    expect(await events(a)).toHaveLength(2);
  });

  it("revoking on the account page: approval.revoked with the developer's own ids; approving again: approval.granted", async () => {
    await revokeAgent({ userId: a.users.live.id, agentId: a.agent.id });
    const [revoked] = await events(a);
    expect(revoked).toMatchObject({ type: "approval.revoked", livemode: true, data: { userId: a.users.live.id, externalIds: ["a-only", "user-live"], agent: a.agent.handle } });
    await approveAgent({ userId: a.users.live.id, agentId: a.agent.id });
    expect((await events(a)).map((e) => e.type)).toEqual(["approval.revoked", "approval.granted"]);
    expect(await events(b)).toEqual([]);
  });

  it("the test plane's person goes to the test plane's endpoints", async () => {
    await revokeAgent({ userId: a.users.test.id, agentId: a.agent.id });
    expect((await events(a, "test")).map((e) => [e.type, e.livemode, e.data.externalIds])).toEqual([["approval.revoked", false, ["user-test"]]]);
    expect(await events(a)).toEqual([]);
  });

  it("a change that fails leaves no event", async () => {
    await expect(revokeAgent({ userId: a.users.unapproved.id, agentId: a.agent.id })).rejects.toThrow();
    await expect(revokeAgentApp({ userId: a.users.live.id, agentId: a.agent.id, app: "gmail" })).rejects.toThrow();
    expect(await events(a)).toEqual([]);
  });

  it("disconnecting an app, or taking it back from one agent: app.disconnected", async () => {
    const person = await signInWithGmail(a);
    await revokeAgentApp({ userId: person.id, agentId: a.agent.id, app: "gmail" });
    expect((await events(a)).at(-1)).toMatchObject({ type: "app.disconnected", data: { userId: person.id, agent: a.agent.handle, app: "gmail" } });

    const other = await signInWithGmail(b);
    expect(await disconnectApp(other.id, "gmail")).toBe(true);
    expect((await events(b)).map((e) => e.type)).toEqual(["approval.granted", "app.connected", "app.disconnected"]);
  });

  it("deleting the account: user.deleted to every developer that knew the person, with its own ids", async () => {
    // The live person is known to a by two ids; b's agent was approved by them too (and b linked an id).
    await approveAgent({ userId: a.users.live.id, agentId: b.agent.id });
    await (await db()).externalUserId.create({ data: { developerId: b.developer.id, plane: "live", externalId: "b-42", userId: a.users.live.id } });
    const userId = a.users.live.id;
    expect(await deleteAccount({ userId, confirmation: "delete" })).toBe(true);
    expect((await events(a)).map((e) => [e.type, e.data])).toEqual([["user.deleted", { userId, externalIds: ["a-only", "user-live"] }]]);
    expect((await events(b)).map((e) => [e.type, e.data])).toEqual([
      ["approval.granted", { userId, externalIds: [], agent: b.agent.handle }],
      ["user.deleted", { userId, externalIds: ["b-42"] }],
    ]);
  });

  it("a bulk import job ending: import_job.completed, or import_job.failed; never the profiles' content", async () => {
    const headers = { "x-api-key": a.keys.sk, "x-agent": a.agent.handle };
    const users = ["imp-1", "imp-2"].map((externalId) => ({
      externalId,
      profile: { summary: "Works as a carpenter in Lyon." },
      conversations: [{ id: "c1", messages: [{ role: "user", content: "I love sailing on Lake Geneva." }] }],
    }));
    const job = await call(importSubmit, { headers, body: { mode: "backfill", idempotencyKey: "k-1", users } });
    expect(job.status).toBe(202);
    await runImportJob(job.body.id);
    const failed = await call(importSubmit, { headers, body: { mode: "backfill", idempotencyKey: "k-2", users: [{ ...users[0], externalId: "imp-3" }] } });
    await markFailed(failed.body.id, new Error("worker gave up"));
    await markFailed(failed.body.id, new Error("again")); // a job ends once: no second event

    const ended = (await events(a)).filter((e) => e.type.startsWith("import_job."));
    expect(ended.map((e) => [e.type, e.data])).toEqual([
      ["import_job.completed", { jobId: job.body.id, agent: a.agent.handle, profilesImported: 2, profilesFailed: 0 }],
      ["import_job.failed", { jobId: failed.body.id, agent: a.agent.handle, profilesImported: 0, profilesFailed: 1 }],
    ]);
    const stored = JSON.stringify(await (await db()).webhookEvent.findMany({ where: { developerId: a.developer.id } }));
    for (const secret of ["carpenter", "Lyon", "sailing", "Geneva"]) expect(stored).not.toContain(secret);
  });

  it("stores nothing for a developer with no endpoint taking the event", async () => {
    await (await db()).webhookEndpoint.updateMany({ where: { developerId: a.developer.id }, data: { events: ["import_job.failed"] } });
    await revokeAgent({ userId: a.users.live.id, agentId: a.agent.id });
    expect(await (await db()).webhookEvent.count({ where: { developerId: a.developer.id } })).toBe(0);
  });
});
