// Partner flow sessions: POST /v1/flows/sessions and GET /v1/flows/sessions/:id, and the hosted flow
// their link opens — connect, linked_account (phone-first where the developer asked for it) and the
// import-only flow — driven through the real steps, with the development provider connecting apps.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as openLink } from "@/app/(hosted)/partner/[sessionId]/route";
import { POST as decide } from "@/app/(hosted)/dev/connect/decide/route";
import { GET as profileRoute } from "@/app/v1/profile/route";
import { POST as createRoute } from "@/app/v1/flows/sessions/route";
import { GET as getRoute } from "@/app/v1/flows/sessions/[id]/route";
import { db } from "@/lib/platform/db";
import { resetEnvForTests } from "@/lib/env";
import { setPartnerPhoneFirst } from "@/lib/developers/developers";
import { findFlow, type Flow } from "@/lib/flow/store";
import { continueState } from "@/lib/flow/queries";
import * as steps from "@/lib/flow/steps";
import { flowScreenView } from "@/lib/flow/views";
import { ERROR_STATUS } from "@/lib/http/errors";
import { PARTNER_ERRORS, PARTNER_SESSION_TTL_SECONDS } from "@/lib/partner-sessions/sessions";
import { phoneDigest } from "@/lib/users/phone";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

beforeEach(() => {
  process.env.CONNECT_DRIVER = "development";
  resetEnvForTests();
});
afterEach(() => {
  delete process.env.CONNECT_DRIVER;
  delete process.env.PARTNER_CONNECT_FLOW;
  resetEnvForTests();
});

const headers = (t: Tenant, key = t.keys.sk) => ({ "x-api-key": key, "x-agent": t.agent.handle });
const create = (t: Tenant, body: unknown, key?: string) => call(createRoute, { headers: headers(t, key), body });
const read = (t: Tenant, id: string, key?: string) => call(getRoute, { path: `/v1/flows/sessions/${id}`, headers: headers(t, key), params: { id } });

let phones = 0;
const newPhone = () => `+1415555${String(2000 + phones++).padStart(4, "0")}`;

/** Opens the session's link as a browser would: the flow it starts. */
async function open(url: string): Promise<Flow> {
  const id = url.split("/").pop()!;
  const res = await openLink(new Request(url), { params: Promise.resolve({ sessionId: id }) });
  expect(res.status, await res.clone().text()).toBe(303);
  return (await findFlow(res.headers.get("location")!.split("/").pop()!))!;
}
const reload = async (flow: Flow) => (await findFlow(flow.id))!;

async function importFrom(flow: Flow, provider: string, text: string) {
  await steps.previewImport(await reload(flow), { provider, text });
  await steps.decidePreview(await reload(flow), { provider, keep: true });
}

/** Connects an app inside the flow through the development provider's consent page. */
async function connect(flow: Flow, app: string, email: string) {
  const { startConnection, finishConnection } = await import("@/lib/connectors/connections");
  const { url, cookie } = await startConnection({ app, flowId: flow.id });
  const form = new FormData();
  for (const k of ["app", "state", "code_challenge", "redirect_uri"]) form.set(k, url.searchParams.get(k)!);
  form.set("decision", "allow");
  form.set("email", email);
  const answer = await decide(new Request("http://localhost:3000/dev/connect/decide", { method: "POST", body: form }));
  await finishConnection(new URL(answer.headers.get("location")!), cookie);
}

async function phoneAndCode(flow: Flow, phone: string) {
  await steps.submitPhone(await reload(flow), { phone, ip: "10.7.0.1" });
  const sms = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
  return steps.submitCode(await reload(flow), { code: sms.body.slice(0, 6) });
}

describe("POST /v1/flows/sessions", () => {
  it("creates a session with its link, a day's life and the defaults", async () => {
    const t = await createTenant();
    const res = await create(t, { partner_ref: "acct-1" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      flow: "connect",
      partner_ref: "acct-1",
      sources: ["chatgpt", "claude", "gemini", "grok"],
      required: [],
      status: "open",
      completed_at: null,
      imported: [],
      connected: [],
      partner_ref_linked: null,
    });
    expect(res.body.id).toMatch(/^pfs_[A-Za-z0-9]{24}$/);
    expect(res.body.url).toBe(`http://localhost:3000/partner/${res.body.id}`);
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(PARTNER_SESSION_TTL_SECONDS * 1000);
    expect(PARTNER_SESSION_TTL_SECONDS).toBe(24 * 60 * 60);
  });

  it("parses required as a JSON list: inner lists are alternatives, a flat list requires each", async () => {
    const t = await createTenant();
    const alternatives = await create(t, { flow: "linked_account", partner_ref: "a", sources: ["chatgpt", "Claude"], required: [["gmail", "outlook"], "chatgpt"] });
    expect(alternatives.status).toBe(201);
    expect(alternatives.body).toMatchObject({ flow: "linked_account", sources: ["chatgpt", "claude"], required: [["gmail", "outlook"], ["chatgpt"]] });
    const flat = await create(t, { partner_ref: "a", required: ["gmail", "outlook", "email"] });
    expect(flat.body.required).toEqual([["gmail"], ["outlook"], ["gmail", "outlook"]]);
  });

  it("opens the import-only flow when no flow is given and the installation has no connect flow", async () => {
    process.env.PARTNER_CONNECT_FLOW = "false";
    resetEnvForTests();
    const t = await createTenant();
    expect((await create(t, { partner_ref: "a" })).body.flow).toBe("import");
    expect((await create(t, { flow: "connect", partner_ref: "a" })).body.flow).toBe("connect");
  });

  const refusals: Array<[string, (flow: string) => unknown, string, string[]]> = [
    ["an unknown source", () => ({ partner_ref: "a", sources: ["chatgpt", "copilot", "bard"] }), PARTNER_ERRORS.unknownSources(["copilot", "bard"]), ["copilot", "bard"]],
    ["no source at all", () => ({ partner_ref: "a", sources: [] }), PARTNER_ERRORS.noSources, []],
    [
      "unknown names in required",
      () => ({ partner_ref: "a", required: [["gmail", "gmial"], "chatgtp", 7] }),
      "required names what this session does not accept: gmial, chatgtp, 7.",
      ["gmial", "chatgtp", "7"],
    ],
    [
      "an assistant not among the sources",
      () => ({ partner_ref: "a", sources: ["claude"], required: ["chatgpt", ["gmail", "grok"]] }),
      "required names what this session does not accept: chatgpt, grok.",
      ["chatgpt", "grok"],
    ],
    ["required on the import-only flow", () => ({ flow: "import", partner_ref: "a", required: ["chatgpt"] }), PARTNER_ERRORS.requiredOnImport, ["required"]],
    ["required that is not a list", () => ({ partner_ref: "a", required: "gmail|outlook" }), "required must be a list.", []],
    ["required that is an object", () => ({ partner_ref: "a", required: { any: ["gmail"] } }), "required must be a list.", []],
  ];
  it.each(refusals)("answers 400 invalid_request for %s, naming what it did not accept", async (_name, body, message, rejected) => {
    const t = await createTenant();
    const res = await create(t, body("connect"));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_request", message, rejected });
    expect(ERROR_STATUS.invalid_request).toBe(400);
  });

  it("refuses a missing partner_ref, an unknown flow, a publishable key and no agent", async () => {
    const t = await createTenant();
    expect((await create(t, {})).body.error).toMatchObject({ code: "invalid_request", message: "Invalid request body: partner_ref." });
    expect((await create(t, { flow: "signup", partner_ref: "a" })).body.error).toMatchObject({ code: "invalid_request", message: "Invalid request body: flow." });
    expect((await create(t, { partner_ref: "a" }, t.keys.pk)).status).toBe(401);
    expect((await call(createRoute, { headers: { "x-api-key": t.keys.sk }, body: { partner_ref: "a" } })).body.error.code).toBe("agent_required");
  });
});

describe("GET /v1/flows/sessions/:id", () => {
  it("answers 404 for another developer's, another agent's or another plane's session, and for ids that are not one", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const { createAgent } = await import("@/lib/agents/agents");
    const second = await createAgent({ developerId: t.developer.id, handle: "second", displayName: "Second" });
    const { id } = (await create(t, { partner_ref: "a" })).body;
    expect((await read(t, id)).status).toBe(200);
    for (const res of [
      await read(other, id),
      await read(t, id, t.keys.skTest),
      await call(getRoute, { path: `/v1/flows/sessions/${id}`, headers: { "x-api-key": t.keys.sk, "x-agent": second.handle }, params: { id } }),
      await read(t, "pfs_nope"),
      await read(t, "mcc_" + id.slice(4)),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ code: "not_found", message: PARTNER_ERRORS.notFound });
    }
  });
});

describe("the partner link's flows", () => {
  it("connect: import, phone and code; the account approves the agent and partner_ref is bound to it", async () => {
    const t = await createTenant();
    const session = (await create(t, { flow: "connect", partner_ref: "ref-connect", sources: ["chatgpt", "claude"], required: [["gmail", "outlook"]] })).body;
    let flow = await open(session.url);
    expect(flow).toMatchObject({ wayIn: "partner", screen: "import", request: { partner_session_id: session.id } });
    // The import screen: only the session's sources; the required mailboxes on top, marked; Continue off.
    let view = await flowScreenView({ state: "open", flow });
    expect(view).toMatchObject({ screen: "import", signInOffered: true, continueEnabled: false, alternatives: true, linkNotice: { phoneLast4: null } });
    if (view.screen !== "import") throw new Error("not the import screen");
    expect(view.assistants.map((a) => a.assistant)).toEqual(["chatgpt", "claude"]);
    expect(view.apps.slice(0, 2).map((a) => [a.app, a.required])).toEqual([
      ["gmail", true],
      ["outlook", true],
    ]);
    expect(view.apps.slice(2).every((a) => !a.required)).toBe(true);
    await expect(steps.previewImport(flow, { provider: "gemini", text: "- I live in Oslo" })).rejects.toMatchObject({ field: "provider" });

    await importFrom(flow, "chatgpt", "- I live in Lyon\n- I work as a nurse");
    flow = await reload(flow);
    // An import alone does not meet the mailbox entry.
    expect((await continueState(flow)).enabled).toBe(false);
    await expect(steps.continueFromImport(flow)).rejects.toMatchObject({ field: "form" });
    await connect(flow, "gmail", "ref.connect@example.com");
    flow = await reload(flow);
    view = await flowScreenView({ state: "open", flow });
    expect(view).toMatchObject({ continueEnabled: true, alternatives: false });
    await steps.continueFromImport(flow);
    flow = await reload(flow);
    expect(flow.screen).toBe("phone");
    const { userId } = await phoneAndCode(flow, newPhone());
    flow = await reload(flow);
    expect(flow.screen).toBe("receipt");
    expect(await flowScreenView({ state: "open", flow })).toMatchObject({ screen: "receipt", returnAction: null, approved: true, connected: ["Gmail"] });

    const after = (await read(t, session.id)).body;
    expect(after).toMatchObject({ status: "completed", connected: ["gmail"], partner_ref_linked: true, imported: [{ provider: "chatgpt", memories: 2 }] });
    expect(after.imported[0].import_ids).toHaveLength(1);
    expect(after.imported[0].import_ids[0]).toMatch(/^imp_/);
    // The partner reads the person with its own id.
    const profile = await call(profileRoute, { headers: { ...headers(t), "x-user-id": "ref-connect" } });
    expect(profile.status).toBe(200);
    const approvals = await (await db()).agentApproval.findMany({ where: { userId, agentId: t.agent.id, revokedAt: null } });
    expect(approvals).toHaveLength(1);
    // A used link opens nothing more.
    const again = await openLink(new Request(session.url), { params: Promise.resolve({ sessionId: session.id }) });
    expect(again.status).toBe(410);
  });

  it("never rebinds partner_ref: a second person finishing a link for an id already held changes nothing", async () => {
    const t = await createTenant();
    const first = (await create(t, { partner_ref: "ref-held" })).body;
    let flow = await open(first.url);
    await importFrom(flow, "claude", "- I like jazz");
    await steps.continueFromImport(await reload(flow));
    const { userId: owner } = await phoneAndCode(flow, newPhone());

    const second = (await create(t, { partner_ref: "ref-held" })).body;
    flow = await open(second.url);
    expect(flow).toMatchObject({ wayIn: "partner", request: { binds_external_id: false } });
    expect(await flowScreenView({ state: "open", flow })).toMatchObject({ linkNotice: null });
    await importFrom(flow, "claude", "- I like opera");
    await steps.continueFromImport(await reload(flow));
    const { userId: intruder } = await phoneAndCode(flow, newPhone());
    expect(intruder).not.toBe(owner);
    const held = await (
      await db()
    ).externalUserId.findUniqueOrThrow({ where: { developerId_plane_externalId: { developerId: t.developer.id, plane: "live", externalId: "ref-held" } } });
    expect(held.userId).toBe(owner);
    expect((await read(t, second.id)).body).toMatchObject({ status: "completed", partner_ref_linked: false });
    expect((await read(t, first.id)).body).toMatchObject({ status: "completed", partner_ref_linked: true });
  });

  it("linked_account: served as connect; with the developer's phone-first order, phone and code come first", async () => {
    const t = await createTenant();
    const plain = (await create(t, { flow: "linked_account", partner_ref: "ref-la" })).body;
    const flow = await open(plain.url);
    expect(flow.screen).toBe("import");
    expect((await flowScreenView({ state: "open", flow })).screen === "import" && (await flowScreenView({ state: "open", flow }))).toMatchObject({
      shell: { steps: ["import", "phone", "code", "receipt"] },
    });

    await setPartnerPhoneFirst({ developerId: t.developer.id, on: true });
    const session = (await create(t, { flow: "linked_account", partner_ref: "ref-la-first", required: ["notion"] })).body;
    let first = await open(session.url);
    expect(first.screen).toBe("phone");
    expect(await flowScreenView({ state: "open", flow: first })).toMatchObject({ screen: "phone", signInFirst: false, shell: { steps: ["phone", "code", "import", "receipt"] } });
    await phoneAndCode(first, newPhone());
    first = await reload(first);
    expect(first.screen).toBe("import");
    // Signed in now, but the required app still holds Continue.
    expect(await flowScreenView({ state: "open", flow: first })).toMatchObject({ screen: "import", signedIn: true, signInOffered: false, continueEnabled: false });
    await connect(first, "notion", "ref.la@example.com");
    await steps.continueFromImport(await reload(first));
    expect((await reload(first)).screen).toBe("receipt");
    expect((await read(t, session.id)).body).toMatchObject({ status: "completed", connected: ["notion"], imported: [], partner_ref_linked: true });
    // A connect session of the same developer is not phone-first.
    expect((await open((await create(t, { flow: "connect", partner_ref: "x" })).body.url)).screen).toBe("import");
  });

  it("import-only: the import screen then the receipt, saved under a developer-scoped user for partner_ref", async () => {
    const t = await createTenant();
    const session = (await create(t, { flow: "import", partner_ref: "ref-import", sources: ["gemini", "grok"] })).body;
    let flow = await open(session.url);
    const view = await flowScreenView({ state: "open", flow });
    expect(view).toMatchObject({ screen: "import", signInOffered: false, apps: [], linkNotice: null, shell: { steps: ["import", "receipt"] } });
    if (view.screen !== "import") throw new Error("not the import screen");
    expect(view.assistants.map((a) => a.assistant)).toEqual(["gemini", "grok"]);
    // No way to phone and code, and no app to connect.
    await steps.chooseSignIn(flow);
    expect((await reload(flow)).screen).toBe("import");
    await expect(steps.continueFromImport(flow)).rejects.toMatchObject({ field: "form" });
    await importFrom(flow, "grok", "- I live in Austin\n- I have two cats");
    await steps.continueFromImport(await reload(flow));
    flow = await reload(flow);
    expect(flow.screen).toBe("receipt");
    expect(flow.phoneHash).toBeNull();
    const user = await (await db()).user.findUniqueOrThrow({ where: { id: flow.userId! } });
    expect(user).toMatchObject({ phoneHash: null, developerId: t.developer.id, plane: "live" });

    const after = (await read(t, session.id)).body;
    expect(after).toMatchObject({ status: "completed", imported: [{ provider: "grok", memories: 2 }], connected: [], partner_ref_linked: true });
    const profile = await call(profileRoute, { headers: { ...headers(t), "x-user-id": "ref-import" } });
    expect(profile.status).toBe(200);
    expect(JSON.stringify(profile.body)).toContain("Austin");

    // A second import-only session for the same id adds to the same account.
    const more = await open((await create(t, { flow: "import", partner_ref: "ref-import" })).body.url);
    await importFrom(more, "chatgpt", "- I play chess");
    await steps.continueFromImport(await reload(more));
    expect((await reload(more)).userId).toBe(user.id);
  });

  it("import-only never writes into the profile of a person who signs in with a number", async () => {
    const t = await createTenant();
    // user-live is the tenant's phone-verified person.
    const session = (await create(t, { flow: "import", partner_ref: "user-live" })).body;
    const res = await openLink(new Request(session.url), { params: Promise.resolve({ sessionId: session.id }) });
    expect(res.status).toBe(409);
  });

  it("test keys make test-plane sessions whose flows keep to the plane", async () => {
    const t = await createTenant();
    const session = (await create(t, { flow: "import", partner_ref: "ref-test" }, t.keys.skTest)).body;
    const flow = await open(session.url);
    expect(flow.plane).toBe("test");
    await importFrom(flow, "claude", "- I surf");
    await steps.continueFromImport(await reload(flow));
    const user = await (await db()).user.findUniqueOrThrow({ where: { id: (await reload(flow)).userId! } });
    expect(user).toMatchObject({ plane: "test", developerId: t.developer.id });
    expect((await read(t, session.id, t.keys.skTest)).body.status).toBe("completed");
    expect((await read(t, session.id)).status).toBe(404);
  });

  it("an unknown or expired link opens nothing", async () => {
    const t = await createTenant();
    const unknown = await openLink(new Request("http://localhost:3000/partner/pfs_x"), { params: Promise.resolve({ sessionId: "pfs_x" }) });
    expect(unknown.status).toBe(404);
    const session = (await create(t, { partner_ref: "a" })).body;
    await (await db()).partnerSession.update({ where: { id: session.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await openLink(new Request(session.url), { params: Promise.resolve({ sessionId: session.id }) });
    expect(expired.status).toBe(410);
    expect((await read(t, session.id)).body.status).toBe("expired");
  });
});
