// Per-agent app grants across two developers: an app connected through one developer's agent is that
// agent's alone. Another agent the person approved (a sign-in link, an OpenID Connect login, a
// connect link, a partner link, a bulk import, an X-User-Id session) reads it only after the person
// gives it that app: over REST (/v1/tools/*), over /mcp with an agent token, and over /mcp with an MCP
// session minted from X-User-Id alone. The permission link names the agent and its developer and takes
// one tap; the account page takes one app back from one agent; existing connections are migrated to
// the agents they were connected through, and nothing else.
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as devDecide } from "@/app/(hosted)/dev/connect/decide/route";
import { GET as openPartnerLink } from "@/app/(hosted)/partner/[sessionId]/route";
import { GET as signInHost } from "@/app/(hosted)/sign-in/[agent]/route";
import { GET as openConnectLink } from "@/app/personal-mcp/connect/[linkId]/route";
import { POST as partnerCreate } from "@/app/v1/flows/sessions/route";
import { POST as importSubmit } from "@/app/v1/import/profiles/route";
import { POST as connectRoute } from "@/app/v1/profile/connect/route";
import { POST as linkRoute } from "@/app/v1/profile/link/route";
import { POST as mcpSessionRoute } from "@/app/v1/profile/mcp-session/route";
import { POST as gmailSearchRoute } from "@/app/v1/tools/service_gmail_search/route";
import { approvedAgents, NO_SUCH_APP_GRANT, revokeAgentApp } from "@/lib/account/agents";
import { AccountError } from "@/lib/account/errors";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { db } from "@/lib/platform/db";
import { applyMigrations, MIGRATIONS_DIR, readMigrations } from "@/lib/platform/db/migrate";
import { PGLITE_EXTENSIONS } from "@/lib/platform/db/open";
import { pgliteSql } from "@/lib/platform/db/sql";
import { env, resetEnvForTests } from "@/lib/env";
import { findFlow, type Flow } from "@/lib/flow/store";
import { returnToApp } from "@/lib/flow/transitions";
import * as steps from "@/lib/flow/steps";
import { flowScreenView } from "@/lib/flow/views";
import { runImportJob } from "@/lib/import-jobs/worker";
import { createUser } from "@/lib/users/users";
import { phoneDigest } from "@/lib/users/phone";
import { mcpCall, mcpClient } from "../helpers/connector-tools";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { exchange, registerClient } from "../helpers/oauth";

let a: Tenant;
let b: Tenant;
let phones = 0;
const newPhone = () => `+1415555${String(3000 + phones++).padStart(4, "0")}`;

beforeAll(async () => {
  process.env.CONNECT_DRIVER = "development";
  resetEnvForTests();
  a = await createTenant("Acme A", "alpha-bot");
  b = await createTenant("Acme B", "beta-bot");
  const prisma = await db();
  await prisma.agent.update({ where: { id: a.agent.id }, data: { displayName: "Alpha Bot" } });
  await prisma.agent.update({ where: { id: b.agent.id }, data: { displayName: "Beta Bot" } });
});
afterAll(() => {
  delete process.env.CONNECT_DRIVER;
  resetEnvForTests();
});

const reload = async (flow: Flow) => (await findFlow(flow.id))!;

async function signInName(t: Tenant): Promise<string> {
  return (await (await db()).agent.findUniqueOrThrow({ where: { id: t.agent.id } })).signInName;
}

/** Opens {SIGN_IN_URL}/<agent> as a browser would: the flow it starts. */
async function openSignInLink(t: Tenant, query: Record<string, string> = {}): Promise<Flow> {
  const name = await signInName(t);
  const url = new URL(`http://localhost:3000/sign-in/${name}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await signInHost(new Request(url, { headers: { "x-service-client-ip": "10.8.0.1" } }), { params: Promise.resolve({ agent: name }) });
  expect(res.status, await res.clone().text()).toBe(303);
  return (await findFlow(res.headers.get("location")!.split("/flow/")[1]!))!;
}

/** Connects an app inside the flow through the development provider's consent page. */
async function connectInFlow(flow: Flow, app: string, userId?: string) {
  const { startConnection, finishConnection } = await import("@/lib/connectors/connections");
  const { url, cookie } = await startConnection({ app, flowId: flow.id, userId });
  const form = new FormData();
  for (const k of ["app", "state", "code_challenge", "redirect_uri"]) form.set(k, url.searchParams.get(k)!);
  form.set("decision", "allow");
  form.set("email", "p1@example.com");
  const answer = await devDecide(new Request("http://localhost:3000/dev/connect/decide", { method: "POST", body: form }));
  await finishConnection(new URL(answer.headers.get("location")!), cookie);
}

async function phoneAndCode(flow: Flow, phone: string) {
  await steps.submitPhone(await reload(flow), { phone, ip: "10.8.0.1" });
  const sms = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
  return steps.submitCode(await reload(flow), { code: sms.body.slice(0, 6) });
}

async function importSomething(flow: Flow) {
  await steps.previewImport(await reload(flow), { provider: "chatgpt", text: "- I live in Lyon" });
  await steps.decidePreview(await reload(flow), { provider: "chatgpt", keep: true });
}

/** A person with a number, as the service knows them. */
async function person() {
  const phone = newPhone();
  const user = await createUser({ plane: "live", phone });
  return { id: user.id, phone };
}

/** The person connects Gmail on the agent's sign-in link (connectors=gmail): the app's screen, then phone and code. */
async function connectGmailThrough(t: Tenant, p: { id: string; phone: string }) {
  const flow = await openSignInLink(t, { connectors: "gmail" });
  expect(flow.screen).toBe("app");
  await connectInFlow(flow, "gmail");
  await steps.continueFromApp(await reload(flow));
  expect((await phoneAndCode(flow, p.phone)).userId).toBe(p.id);
  expect((await reload(flow)).screen).toBe("receipt");
  await returnToApp({ flowId: flow.id, userId: p.id });
}

/** The person finishes the agent's plain sign-in link: imports something, then phone and code. */
async function signInThrough(t: Tenant, p: { id: string; phone: string }) {
  const flow = await openSignInLink(t);
  await importSomething(flow);
  await steps.continueFromImport(await reload(flow));
  await phoneAndCode(flow, p.phone);
  const receipt = await flowScreenView({ state: "open", flow: await reload(flow) });
  await returnToApp({ flowId: flow.id, userId: p.id });
  return receipt;
}

async function tokenFor(t: Tenant, userId: string) {
  return (await issueAgentToken({ userId, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" })).token;
}

const bearer = (t: Tenant, token: string) => ({ "x-api-key": t.keys.sk, "x-agent": t.agent.handle, authorization: `Bearer ${token}` });

/** service_gmail_search over REST, /mcp with the agent token, and /mcp with an MCP session from X-User-Id when one is given. */
async function searchEverywhere(t: Tenant, userId: string, externalId?: string) {
  const token = await tokenFor(t, userId);
  const viaRest = await call(gmailSearchRoute, { headers: bearer(t, token), body: {} });
  const client = await mcpClient(bearer(t, token));
  const viaMcp = await mcpCall(client, "service_gmail_search", {});
  await client.close();
  const viaSession = externalId ? await searchThroughSession(t, externalId) : null;
  return { viaRest, viaMcp, viaSession };
}

/** POST /v1/profile/mcp-session with X-User-Id alone, then service_gmail_search on /mcp with its token. */
async function searchThroughSession(t: Tenant, externalId: string) {
  const minted = await call(mcpSessionRoute, { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": externalId }, body: {} });
  expect(minted.status, JSON.stringify(minted.body)).toBe(200);
  expect(minted.body.linked).toBe(true);
  const client = await mcpClient(bearer(t, minted.body.session.token));
  const answer = await mcpCall(client, "service_gmail_search", {});
  await client.close();
  return answer;
}

/** Refused with a fresh permission link for gmail:read, on every surface asked. */
function expectPermissionNeeded(r: Awaited<ReturnType<typeof searchEverywhere>>) {
  expect(r.viaRest.status, JSON.stringify(r.viaRest.body)).toBe(403);
  expect(r.viaRest.body.error).toMatchObject({ code: "permission_needed", capability: "gmail:read", connect_url: expect.stringMatching(/\/connect\/mcc_/) });
  expect(r.viaRest.body.messages).toBeUndefined();
  expect(r.viaMcp).toMatchObject({ ok: false, body: { code: "permission_needed", capability: "gmail:read" } });
  if (r.viaSession) expect(r.viaSession).toMatchObject({ ok: false, body: { code: "permission_needed", capability: "gmail:read" } });
}

function expectMail(r: Awaited<ReturnType<typeof searchEverywhere>>) {
  expect(r.viaRest.status, JSON.stringify(r.viaRest.body)).toBe(200);
  expect(r.viaRest.body.messages.length).toBeGreaterThan(0);
  expect(r.viaMcp.ok).toBe(true);
  if (r.viaSession) expect(r.viaSession.ok).toBe(true);
}

async function sessionCookie(userId: string) {
  return `authjs.session-token=${await encode({ token: { sub: userId }, secret: env().AUTH_SECRET, salt: "authjs.session-token" })}`;
}

/** The person, signed in, opens a connect link: the flow it starts. */
async function openSignedIn(link: string, userId: string): Promise<Flow> {
  const res = await openConnectLink(new Request(link, { headers: { cookie: await sessionCookie(userId), "x-service-client-ip": "10.8.0.1" } }), {
    params: Promise.resolve({ linkId: link.split("/").pop()! }),
  });
  expect(res.status).toBe(303);
  return (await findFlow(res.headers.get("location")!.split("/").pop()!))!;
}

const grantsOf = async (userId: string) =>
  (await (await db()).capabilityGrant.findMany({ where: { userId }, select: { agentId: true, capability: true } }))
    .map((g) => `${g.agentId === a.agent.id ? "alpha" : g.agentId === b.agent.id ? "beta" : g.agentId}:${g.capability}`)
    .sort();

describe("an app connected through one developer's agent", () => {
  it("is that agent's only: another developer's approved agent gets permission_needed until the person gives it, in one tap", async () => {
    const p1 = await person();
    await connectGmailThrough(a, p1);
    expect(await grantsOf(p1.id)).toEqual(["alpha:gmail:read"]);
    // The receipt of the other agent's sign-in names its developer and says it may use none of the person's apps.
    const receipt = await signInThrough(b, p1);
    expect(receipt).toMatchObject({ screen: "receipt", approved: true, agentApps: [], shell: { appName: "Beta Bot", developerName: "Acme B" } });
    expect(await grantsOf(p1.id)).toEqual(["alpha:gmail:read"]);

    expectMail(await searchEverywhere(a, p1.id));
    const refused = await searchEverywhere(b, p1.id);
    expectPermissionNeeded(refused);
    // service_connect for Gmail is not import_ready for the agent the app was not given to.
    const asked = await call(connectRoute, { headers: bearer(b, await tokenFor(b, p1.id)), body: { app: "gmail" } });
    expect(asked.body.status).toBe("connect_app");

    // The link's page says exactly what it unlocks, and who asks; one tap for the signed-in person.
    const flow = await openSignedIn(refused.viaRest.body.error.connect_url, p1.id);
    const view = await flowScreenView({ state: "open", flow });
    expect(view).toMatchObject({ screen: "capability", capability: "gmail:read", phrase: "search your Gmail", shell: { appName: "Beta Bot", developerName: "Acme B" } });
    expect(await steps.allowCapability(flow)).toBeNull();
    const done = await flowScreenView({ state: "open", flow: await reload(flow) });
    expect(done).toMatchObject({ screen: "receipt", agentApps: ["Gmail"] });
    expect(await grantsOf(p1.id)).toEqual(["alpha:gmail:read", "beta:gmail:read"]);

    expectMail(await searchEverywhere(b, p1.id));
    expect((await call(connectRoute, { headers: bearer(b, await tokenFor(b, p1.id)), body: { app: "gmail" } })).body.status).toBe("import_ready");
  });

  it("given through a permission link before it is connected, is connected on the way (the provider's consent), then granted", async () => {
    const p2 = await person();
    await signInThrough(b, p2);
    const refused = await searchEverywhere(b, p2.id);
    expectPermissionNeeded(refused);
    const flow = await openSignedIn(refused.viaRest.body.error.connect_url, p2.id);
    expect(await steps.allowCapability(flow)).toEqual({ consent: "gmail" });
    expect((await reload(flow)).screen).toBe("capability");
    await connectInFlow(flow, "gmail", p2.id);
    expect(await steps.finishCapabilityConsent(flow.id)).toBe("granted");
    expect(await grantsOf(p2.id)).toEqual(["beta:gmail:read"]);
    expectMail(await searchEverywhere(b, p2.id));
    // The other developer's agent the person also approved still has nothing.
    await signInThrough(a, p2);
    expectPermissionNeeded(await searchEverywhere(a, p2.id));
  });

  it("asks an action on an app the agent holds nothing on as that action, never saying whether it is connected", async () => {
    const p3 = await person();
    await connectGmailThrough(a, p3);
    await signInThrough(b, p3);
    const token = await tokenFor(b, p3.id);
    const { POST: sendRoute } = await import("@/app/v1/tools/service_email_send/route");
    const send = await call(sendRoute, { headers: bearer(b, token), body: { to: ["x@example.com"], subject: "s", body: "b", idempotency_key: "grant-key-0001" } });
    expect(send.status).toBe(403);
    expect(send.body.error).toMatchObject({ code: "permission_needed", capability: "gmail:send" });
    // A person with no Gmail at all gets the same answer from the same agent.
    const p4 = await person();
    await signInThrough(b, p4);
    const other = await call(sendRoute, {
      headers: bearer(b, await tokenFor(b, p4.id)),
      body: { to: ["x@example.com"], subject: "s", body: "b", idempotency_key: "grant-key-0002" },
    });
    expect(other.body.error).toMatchObject({ code: "permission_needed", capability: "gmail:send" });
  });
});

describe("a connect link for one app", () => {
  it("gives a connected app to the agent with Continue on its screen; the list of every app gives none by itself", async () => {
    const p = await person();
    await connectGmailThrough(a, p);
    await signInThrough(b, p);
    const token = await tokenFor(b, p.id);
    // The list of every app: Continue approves, and gives the agent none of the apps connected for others.
    const list = await call(connectRoute, { headers: bearer(b, token), body: {} });
    const listFlow = await openSignedIn(list.body.connect_url, p.id);
    expect(listFlow.screen).toBe("apps");
    await steps.continueFromApps(listFlow);
    expect(await grantsOf(p.id)).toEqual(["alpha:gmail:read"]);

    const asked = await call(connectRoute, { headers: bearer(b, token), body: { app: "gmail" } });
    expect(asked.body.status).toBe("connect_app");
    const flow = await openSignedIn(asked.body.connect_url, p.id);
    const view = await flowScreenView({ state: "open", flow });
    expect(view).toMatchObject({ screen: "app", app: "gmail", met: true, shell: { appName: "Beta Bot", developerName: "Acme B" } });
    await steps.continueFromApp(flow);
    expect((await reload(flow)).screen).toBe("receipt");
    expect(await grantsOf(p.id)).toEqual(["alpha:gmail:read", "beta:gmail:read"]);
    expectMail(await searchEverywhere(b, p.id));
  });
});

describe("the account page", () => {
  it("lists each agent with its developer and the apps it was given, and takes one app back from one agent", async () => {
    const p = await person();
    await connectGmailThrough(a, p);
    await connectGmailThrough(b, p);
    expect(await grantsOf(p.id)).toEqual(["alpha:gmail:read", "beta:gmail:read"]);
    const listed = await approvedAgents(p.id);
    expect(listed.map((x) => [x.displayName, x.developerName, x.apps])).toEqual([
      ["Alpha Bot", "Acme A", [{ app: "gmail", capabilities: ["gmail:read"] }]],
      ["Beta Bot", "Acme B", [{ app: "gmail", capabilities: ["gmail:read"] }]],
    ]);

    // Bad input, or a grant that is not there: refused, nothing changes.
    for (const input of [
      { agentId: b.agent.id, app: "dropbox" },
      { agentId: "not-a-uuid", app: "gmail" },
      { agentId: b.agent.id, app: "notion" },
      { agentId: b.agent.id, app: "gmail\u0000" },
    ]) {
      await expect(revokeAgentApp({ userId: p.id, ...input })).rejects.toEqual(new AccountError("not_found", NO_SUCH_APP_GRANT));
    }
    // Another person cannot take it back for them.
    const stranger = await person();
    await expect(revokeAgentApp({ userId: stranger.id, agentId: b.agent.id, app: "gmail" })).rejects.toBeInstanceOf(AccountError);
    expect(await grantsOf(p.id)).toEqual(["alpha:gmail:read", "beta:gmail:read"]);

    await (await db()).capabilityGrant.create({ data: { userId: p.id, agentId: b.agent.id, capability: "gmail:send" } });
    await revokeAgentApp({ userId: p.id, agentId: b.agent.id, app: "gmail" });
    expect(await grantsOf(p.id)).toEqual(["alpha:gmail:read"]);
    expectPermissionNeeded(await searchEverywhere(b, p.id));
    expectMail(await searchEverywhere(a, p.id));
    expect((await (await db()).appConnection.findMany({ where: { userId: p.id } })).map((c) => c.app)).toEqual(["gmail"]);

    // Disconnecting the app ends it for every agent: connecting it again on the account page gives it to none.
    const { disconnectApp } = await import("@/lib/connectors/connections");
    expect(await disconnectApp(p.id, "gmail")).toBe(true);
    expect(await grantsOf(p.id)).toEqual([]);
  });
});

describe("linking a developer's id for a person grants no app (X-User-Id sessions reach only the apps given to this agent)", () => {
  let seq = 0;
  const ext = (what: string) => `${what}-${seq++}`;
  let p: { id: string; phone: string };

  async function withGmailThroughAlpha() {
    p = await person();
    await connectGmailThrough(a, p);
    return p;
  }

  it("the /v1/profile/link exchange after an OpenID Connect login (scope openid email profile)", async () => {
    await withGmailThroughAlpha();
    const { client_id } = await registerClient(b);
    const tokens = await exchange(client_id, p.id, { scope: "openid email profile" });
    const id = ext("oidc");
    const linked = await call(linkRoute, {
      headers: { "x-api-key": b.keys.sk, "x-agent": b.agent.handle, "x-user-id": id, authorization: `Bearer ${tokens.access_token}` },
      body: {},
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(await grantsOf(p.id)).toEqual(["alpha:gmail:read"]);
    expectPermissionNeeded(await searchEverywhere(b, p.id, id));
  });

  it("an approval in a connect link's flow that binds the developer's id", async () => {
    await withGmailThroughAlpha();
    const id = ext("link");
    const minted = await call(connectRoute, { headers: { "x-api-key": b.keys.sk, "x-agent": b.agent.handle, "x-user-id": id }, body: {} });
    expect(minted.body.status).toBe("authorization_required");
    const linkId = minted.body.connect_url.split("/").pop()!;
    const res = await openConnectLink(new Request(minted.body.connect_url, { headers: { "x-service-client-ip": "10.8.0.2" } }), { params: Promise.resolve({ linkId }) });
    const flow = (await findFlow(res.headers.get("location")!.split("/").pop()!))!;
    await importSomething(flow);
    await steps.continueFromImport(await reload(flow));
    await phoneAndCode(flow, p.phone);
    expect((await reload(flow)).screen).toBe("receipt");
    expect(await grantsOf(p.id)).toEqual(["alpha:gmail:read"]);
    expectPermissionNeeded(await searchEverywhere(b, p.id, id));
  });

  it("a finished partner flow that binds partner_ref; one that connected Gmail in it gives that agent Gmail", async () => {
    await withGmailThroughAlpha();
    const id = ext("partner");
    const created = await call(partnerCreate, { headers: { "x-api-key": b.keys.sk, "x-agent": b.agent.handle }, body: { flow: "connect", partner_ref: id } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const opened = await openPartnerLink(new Request(created.body.url, { headers: { "x-service-client-ip": "10.8.0.3" } }), {
      params: Promise.resolve({ sessionId: created.body.id }),
    });
    const flow = (await findFlow(opened.headers.get("location")!.split("/").pop()!))!;
    await importSomething(flow);
    await steps.continueFromImport(await reload(flow));
    await phoneAndCode(flow, p.phone);
    expect(await grantsOf(p.id)).toEqual(["alpha:gmail:read"]);
    expectPermissionNeeded(await searchEverywhere(b, p.id, id));

    // Connecting Gmail in the partner's own flow is giving it to that agent.
    const q = await person();
    const id2 = ext("partner");
    const second = await call(partnerCreate, { headers: { "x-api-key": b.keys.sk, "x-agent": b.agent.handle }, body: { flow: "connect", partner_ref: id2 } });
    const opened2 = await openPartnerLink(new Request(second.body.url, { headers: { "x-service-client-ip": "10.8.0.3" } }), {
      params: Promise.resolve({ sessionId: second.body.id }),
    });
    const flow2 = (await findFlow(opened2.headers.get("location")!.split("/").pop()!))!;
    await connectInFlow(flow2, "gmail");
    await steps.continueFromImport(await reload(flow2));
    await phoneAndCode(flow2, q.phone);
    expect(await grantsOf(q.id)).toEqual(["beta:gmail:read"]);
    expectMail(await searchEverywhere(b, q.id, id2));
  });

  it("a bulk import for an id the developer linked to the person", async () => {
    await withGmailThroughAlpha();
    const { client_id } = await registerClient(b);
    const tokens = await exchange(client_id, p.id);
    const id = ext("bulk");
    await call(linkRoute, { headers: { "x-api-key": b.keys.sk, "x-agent": b.agent.handle, "x-user-id": id, authorization: `Bearer ${tokens.access_token}` }, body: {} });
    const job = await call(importSubmit, {
      headers: { "x-api-key": b.keys.sk, "x-agent": b.agent.handle },
      body: {
        mode: "backfill",
        idempotencyKey: `bulk-${id}`,
        users: [
          { externalId: id, profile: { summary: "Works as a carpenter." }, conversations: [] },
          { externalId: `${id}-new`, profile: { summary: "Bakes bread." }, conversations: [] },
        ],
      },
    });
    expect(job.status, JSON.stringify(job.body)).toBe(202);
    await runImportJob(job.body.id);
    expect(await grantsOf(p.id)).toEqual(["alpha:gmail:read"]);
    expectPermissionNeeded(await searchEverywhere(b, p.id, id));
    // The person the import made for a new id holds nothing either.
    expect(await searchThroughSession(b, `${id}-new`)).toMatchObject({ ok: false, body: { code: "permission_needed", capability: "gmail:read" } });
  });
});

describe("the migration of existing connections", () => {
  it("grants each app to the agents it was connected through (flow receipts, approved app links, partner flows), and nothing else", async () => {
    const all = readMigrations(MIGRATIONS_DIR);
    const mine = all.find((m) => m.name.endsWith("_app_read_grants"))!;
    const before = mkdtempSync(path.join(tmpdir(), "migrations-before-grants-"));
    for (const m of all.filter((m) => m.name < mine.name)) cpSync(path.join(MIGRATIONS_DIR, m.name), path.join(before, m.name), { recursive: true });
    const pg = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    try {
      const sql = pgliteSql(pg);
      await applyMigrations(sql, { dir: before });
      const dev = "00000000-0000-4000-8000-00000000d001";
      const id = (s: string) => `00000000-0000-4000-8000-0000000000${s}`;
      const alpha = id("a1");
      const beta = id("b1");
      const gamma = id("c1");
      const delta = id("d1");
      const u1 = id("e1");
      const u2 = id("e2");
      await sql.exec(`INSERT INTO developers (id, name) VALUES ('${dev}', 'Dev')`);
      for (const [agent, handle] of [
        [alpha, "alpha"],
        [beta, "beta"],
        [gamma, "gamma"],
        [delta, "delta"],
      ] as const) {
        await sql.exec(`INSERT INTO agents (id, developer_id, handle, display_name, sign_in_name) VALUES ('${agent}', '${dev}', '${handle}', '${handle}', '${handle}')`);
      }
      for (const u of [u1, u2]) await sql.exec(`INSERT INTO users (id, plane) VALUES ('${u}', 'live')`);
      const connection = (u: string, app: string, at: string) =>
        sql.exec(
          `INSERT INTO app_connections (id, user_id, app, provider, account_id, access_token_sealed, created_at) VALUES (gen_random_uuid(), '${u}', '${app}', 'google', 'acc', 'x', '${at}')`,
        );
      await connection(u1, "gmail", "2026-01-01T00:00:00Z");
      await connection(u1, "drive", "2026-01-01T00:00:00Z");
      // Connected again later, outside any agent: the earlier flow's agent is not granted it.
      await connection(u2, "notion", "2026-03-01T00:00:00Z");
      const flow = (id: string, agent: string, u: string, receipt: string, ended: string) =>
        sql.exec(`INSERT INTO flow_sessions (id, way_in, agent_id, developer_id, plane, browser_hash, status, screen, user_id, receipt, expires_at, ended_at, created_at)
          VALUES ('${id.padEnd(32, "x")}', 'sign_in_link', '${agent}', '${dev}', 'live', 'h', 'completed', 'receipt', '${u}', '${receipt}', '${ended}', '${ended}', '${ended}')`);
      await flow("f1", alpha, u1, JSON.stringify({ saved: [], connected: ["gmail"], approvedAgentId: alpha }), "2026-01-02T00:00:00Z");
      // Approved with nothing connected in its flow: no grant.
      await flow("f2", beta, u1, JSON.stringify({ saved: [], connected: [], approvedAgentId: beta }), "2026-01-03T00:00:00Z");
      await flow("f3", alpha, u2, JSON.stringify({ saved: [], connected: ["notion"], approvedAgentId: alpha }), "2026-02-01T00:00:00Z");
      await flow("f4", beta, u1, JSON.stringify({ saved: [], approvedAgentId: beta }), "2026-01-04T00:00:00Z");
      await sql.exec(`INSERT INTO connect_links (id, developer_id, agent_id, plane, user_id, app, reason, status, created_at, expires_at, approved_at)
        VALUES ('mcc_1', '${dev}', '${gamma}', 'live', '${u1}', 'drive', 'connect_app', 'approved', '2026-01-05T00:00:00Z', '2026-01-05T01:00:00Z', '2026-01-05T00:10:00Z'),
               ('mcc_2', '${dev}', '${beta}', 'live', '${u1}', 'gmail', 'connect_app', 'pending', '2026-01-05T00:00:00Z', '2026-01-05T01:00:00Z', NULL)`);
      await sql.exec(`INSERT INTO partner_sessions (id, developer_id, agent_id, plane, flow, partner_ref, sources, status, user_id, connected, created_at, expires_at, completed_at)
        VALUES ('pfs_1', '${dev}', '${delta}', 'live', 'connect', 'ref', '[]', 'completed', '${u1}', '["gmail"]', '2026-01-06T00:00:00Z', '2026-01-07T00:00:00Z', '2026-01-06T00:10:00Z')`);
      await sql.exec(`INSERT INTO capability_grants (user_id, agent_id, capability) VALUES ('${u1}', '${beta}', 'gmail:send')`);

      await applyMigrations(sql, { dir: MIGRATIONS_DIR });
      const rows = await sql.query<{ user_id: string; agent_id: string; capability: string }>(`SELECT user_id, agent_id, capability FROM capability_grants ORDER BY 1, 2, 3`);
      const names: Record<string, string> = { [alpha]: "alpha", [beta]: "beta", [gamma]: "gamma", [delta]: "delta", [u1]: "u1", [u2]: "u2" };
      const name = (uuid: string) => names[uuid];
      expect(rows.map((r) => `${name(r.user_id)} ${name(r.agent_id)} ${r.capability}`)).toEqual([
        "u1 alpha gmail:read",
        "u1 beta gmail:send",
        "u1 gamma drive:read",
        "u1 delta gmail:read",
      ]);
    } finally {
      await pg.close();
    }
  });
});
