// The Google connector tools (service_gmail_search, service_email_send, service_calendar_get,
// service_calendar_create_event, service_drive_search) end to end: through their REST routes and the
// developer MCP server (MCP SDK client), against the local Google provider (OAuth: consent, refresh,
// revocation) and a local server speaking the Gmail, Calendar and Drive REST APIs with Google's own
// error answers. Pagination, the refresh on 401 (once, and single-flight), missing scopes as
// permission_needed with a link (and the incremental consent that link leads to), rate limits, the
// fail-closed rules, the idempotent send, the sandbox's development Gmail, and the access log.
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as flowConnect } from "@/app/(hosted)/flow/[flowId]/connect/[app]/route";
import { GET as connectCallback } from "@/app/(hosted)/connect/callback/route";
import { GET as openLink } from "@/app/personal-mcp/connect/[linkId]/route";
import { POST as sandboxReset } from "@/app/v1/sandbox/reset/route";
import { POST as sandboxSimulate } from "@/app/v1/sandbox/simulate/route";
import { POST as calendarCreateRoute } from "@/app/v1/tools/service_calendar_create_event/route";
import { POST as calendarGetRoute } from "@/app/v1/tools/service_calendar_get/route";
import { POST as driveSearchRoute } from "@/app/v1/tools/service_drive_search/route";
import { POST as emailSendRoute } from "@/app/v1/tools/service_email_send/route";
import { POST as gmailSearchRoute } from "@/app/v1/tools/service_gmail_search/route";
import { flushAccessLog } from "@/lib/access-log/access-log";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { snapshotCalendar } from "@/lib/connectors/apis/calendar";
import { driveSearchQuery, snapshotDrive } from "@/lib/connectors/apis/drive";
import { snapshotGmail } from "@/lib/connectors/apis/gmail";
import { providerFetch } from "@/lib/connectors/apis/http";
import { signatureBlock, validateOutgoingMail } from "@/lib/connectors/apis/mail";
import { encodeHeaderText } from "@/lib/connectors/apis/mime";
import type { UsableConnection } from "@/lib/connectors/tools/definition";
import { db } from "@/lib/platform/db";
import { findFlow } from "@/lib/flow/store";
import { allowCapability } from "@/lib/flow/steps";
import { resetEnvForTests } from "@/lib/env";
import { MESSAGES } from "@/lib/http/errors";
import { provisionSandbox } from "@/lib/sandbox/sandbox";
import { approveAgent } from "@/lib/users/approvals";
import { createUser } from "@/lib/users/users";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { startGoogleApis, type FakeAccount } from "../helpers/google-apis";
import { startGoogleProvider } from "../helpers/google-provider";
import { mcpCall, mcpClient } from "../helpers/connector-tools";
import { call } from "../helpers/http";

const GOOGLE_ACCOUNT = "google-account-1";
const SCOPE = "https://www.googleapis.com/auth/";
const ROUTES = {
  service_gmail_search: gmailSearchRoute,
  service_email_send: emailSendRoute,
  service_calendar_get: calendarGetRoute,
  service_calendar_create_event: calendarCreateRoute,
  service_drive_search: driveSearchRoute,
} as const;
type ToolName = keyof typeof ROUTES;

let provider: Awaited<ReturnType<typeof startGoogleProvider>>;
let apis: Awaited<ReturnType<typeof startGoogleApis>>;
let conn: typeof import("@/lib/connectors/connections");
let t: Tenant;
let ada: { id: string; token: string };
let mailbox: FakeAccount;

const DAY = 86_400_000;

beforeAll(async () => {
  provider = await startGoogleProvider({ redirectUri: "http://localhost:3000/connect/callback", email: "ada@example.com", accountId: GOOGLE_ACCOUNT });
  apis = await startGoogleApis({ authorize: (token) => provider.introspect(token) });
  Object.assign(process.env, provider.env, apis.env);
  resetEnvForTests();
  conn = await import("@/lib/connectors/connections");
  t = await createTenant();
  ada = { id: t.users.live.id, token: await bearerFor(t, t.users.live.id) };
  for (const app of ["gmail", "calendar", "drive"]) await connect(ada.id, app);
  mailbox = apis.account(GOOGLE_ACCOUNT);
  mailbox.email = "ada@example.com";
  seedGoogleAccount(mailbox);
});
afterAll(async () => {
  await apis.close();
  await provider.close();
});

function seedGoogleAccount(a: FakeAccount) {
  const now = Date.now();
  for (let i = 0; i < 25; i++) {
    const from = i % 5 === 0 ? "Ana Costa <ana@example.org>" : `Newsletter ${i} <news${i}@example.com>`;
    a.messages.push({
      id: `msg${String(i).padStart(3, "0")}`,
      threadId: `thr${i}`,
      labelIds: ["INBOX"],
      headers: [
        { name: "From", value: from },
        { name: "To", value: '"Lovelace, Ada" <ada@example.com>, bob@example.com' },
        { name: "Subject", value: `Message ${i}` },
        { name: "Date", value: new Date(now - i * 3_600_000).toUTCString() },
        { name: "Message-ID", value: `<m${i}@mail.example.org>` },
        { name: "X-Secret-Header", value: "not for agents" },
      ],
      snippet: i === 0 ? "Flight to Osaka &amp; hotel &#39;Kyo&#39;" : `Snippet ${i}`,
      body: `The whole body of message ${i}, which a search never returns.`,
      internalDate: now - i * 3_600_000,
    });
  }
  a.messages.push({
    id: "sent001",
    threadId: "thr-sent-1",
    labelIds: ["SENT"],
    headers: [
      { name: "From", value: "Ada Lovelace <ada@example.com>" },
      { name: "To", value: "charles@example.org" },
      { name: "Subject", value: "Engine notes" },
    ],
    snippet: "The engine notes are attached.",
    body: "Charles,\n\nThe engine notes are attached. The secret project codename is Ivory.\n\n-- \nAda Lovelace\nAnalyst, Analytical Engine Co.\n+44 20 7946 0000\n\nOn Mon, Charles wrote:\n> earlier text",
    // Ahead of what the send tests add, so it stays among the newest sent messages the snapshot reads.
    internalDate: now + DAY,
  });
  a.events.push(
    {
      id: "ev-soon",
      summary: "Design review",
      start: { dateTime: new Date(now + DAY).toISOString(), timeZone: "Europe/Lisbon" },
      end: { dateTime: new Date(now + DAY + 3_600_000).toISOString() },
      attendees: [{ email: "ada@example.com", responseStatus: "accepted" }],
      recurringEventId: "series-1",
      organizer: { email: "ada@example.com", self: true },
      description: "x".repeat(3000),
    },
    {
      id: "ev-later",
      summary: "Dentist",
      start: { dateTime: new Date(now + 3 * DAY).toISOString() },
      end: { dateTime: new Date(now + 3 * DAY + 1_800_000).toISOString() },
      location: "Clinic",
    },
    { id: "ev-far", summary: "Conference", start: { dateTime: new Date(now + 10 * DAY).toISOString() }, end: { dateTime: new Date(now + 11 * DAY).toISOString() } },
    {
      id: "series-1",
      summary: "Design review",
      start: { dateTime: new Date(now - 7 * DAY).toISOString() },
      end: { dateTime: new Date(now - 7 * DAY + 3_600_000).toISOString() },
      recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO"],
      organizer: { email: "ada@example.com", self: true },
    },
  );
  for (let i = 0; i < 12; i++) {
    a.files.push({
      id: `file${i}`,
      name: `Roadmap part ${i}`,
      mimeType: "application/vnd.google-apps.document",
      modifiedTime: new Date(now - i * DAY).toISOString(),
      text: "roadmap engine",
    });
  }
  a.files.push({ id: "file-quote", name: "Ada's \\ plan", mimeType: "application/vnd.google-apps.document", modifiedTime: new Date(now).toISOString(), text: "plan" });
  a.files.push({
    id: "file-trash",
    name: "Roadmap trashed",
    mimeType: "application/vnd.google-apps.document",
    modifiedTime: new Date(now).toISOString(),
    text: "roadmap",
    trashed: true,
  });
}

async function bearerFor(tenant: Tenant, userId: string, plane: "live" | "test" = "live"): Promise<string> {
  return (await issueAgentToken({ userId, developerId: tenant.developer.id, agentId: tenant.agent.id, agent: tenant.agent.handle, plane })).token;
}

/** Connects an app for a signed-in person through the local Google provider's consent, and gives it to the tenant's agent (as connecting it in that agent's flow does). */
async function connect(userId: string, app: string, capability?: string) {
  const { url, cookie } = await conn.startConnection({ app, userId, capability });
  const done = await conn.finishConnection(await provider.consent(url), cookie);
  await grant(userId, `${app}:read`);
  return done;
}

async function connectionRow(userId: string, app: string) {
  return (await db()).appConnection.findUniqueOrThrow({ where: { userId_app: { userId, app } } });
}

function headersFor(token: string, tenant: Tenant = t, key = tenant.keys.sk) {
  return { "x-api-key": key, "x-agent": tenant.agent.handle, authorization: `Bearer ${token}` };
}

/** POST /v1/tools/<name> as the tenant's agent for the person `token` names. */
function rest(name: ToolName, body: unknown, headers: Record<string, string> = headersFor(ada.token)) {
  return call(ROUTES[name], { headers, body });
}

async function grant(userId: string, capability: string, tenant: Tenant = t) {
  await (
    await db()
  ).capabilityGrant.upsert({
    where: { userId_agentId_capability: { userId, agentId: tenant.agent.id, capability } },
    create: { userId, agentId: tenant.agent.id, capability },
    update: {},
  });
}

async function newPerson(tenant: Tenant = t) {
  const user = await createUser({ plane: "live" });
  await approveAgent({ userId: user.id, agentId: tenant.agent.id });
  return { id: user.id, token: await bearerFor(tenant, user.id) };
}

/** A connection as a tool's work receives it, for the snapshot functions. */
async function usable(userId: string, app: string): Promise<UsableConnection> {
  const row = await connectionRow(userId, app);
  return {
    id: row.id,
    app: row.app as UsableConnection["app"],
    provider: row.provider,
    accountEmail: row.accountEmail,
    scopes: row.scopes,
    fetch: async (request) => providerFetch(app, await conn.accessTokenFor(row.id), request),
  };
}

const requestsSince = (mark: number) => apis.requests.slice(mark);

describe("listing", () => {
  it("lists the five Google tools on the developer MCP server for a linked-user token only", async () => {
    const client = await mcpClient(headersFor(ada.token));
    const names = (await client.listTools()).tools.map((x) => x.name);
    for (const name of Object.keys(ROUTES)) expect(names).toContain(name);
    const send = (await client.listTools()).tools.find((x) => x.name === "service_email_send")!;
    expect(send.description!.length).toBeGreaterThan(200);
    expect((send.inputSchema.required as string[]).sort()).toEqual(["body", "idempotency_key", "subject", "to"]);
    await client.close();
    const anonymous = await mcpClient({ "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "user-live" });
    expect((await anonymous.listTools()).tools.map((x) => x.name)).not.toContain("service_gmail_search");
    await anonymous.close();
  });
});

describe("service_gmail_search", () => {
  it("lists messages by Gmail's search, reading headers (format=metadata) and snippets only, the same on REST and MCP", async () => {
    const mark = apis.requests.length;
    const res = await rest("service_gmail_search", { query: "from:ana", limit: 3 });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { id: string }) => m.id)).toEqual(["msg000", "msg005", "msg010"]);
    expect(res.body.messages[0]).toEqual({
      id: "msg000",
      thread_id: "thr0",
      mailbox: "gmail",
      from: "Ana Costa <ana@example.org>",
      to: ['"Lovelace, Ada" <ada@example.com>', "bob@example.com"],
      subject: "Message 0",
      snippet: "Flight to Osaka & hotel 'Kyo'",
      date: new Date(mailbox.messages[0]!.internalDate).toISOString(),
    });
    expect(JSON.stringify(res.body)).not.toContain("whole body");
    expect(JSON.stringify(res.body)).not.toContain("not for agents");
    const seen = requestsSince(mark);
    const list = seen.find((r) => r.path === "/gmail/v1/users/me/messages")!;
    expect(list.query.get("q")).toBe("from:ana");
    expect(list.query.get("maxResults")).toBe("3");
    const gets = seen.filter((r) => r.path.startsWith("/gmail/v1/users/me/messages/msg"));
    expect(gets).toHaveLength(3);
    for (const g of gets) {
      expect(g.query.get("format")).toBe("metadata");
      expect(g.query.getAll("metadataHeaders")).toEqual(["From", "To", "Subject", "Date"]);
      // Read in Gmail's batch request: two requests on the wire, the list and the batch.
      expect(g.batch).toBe("/batch/gmail/v1");
    }
    expect(seen.filter((r) => r.batch === undefined).map((r) => `${r.method} ${r.path}`)).toEqual(["GET /gmail/v1/users/me/messages", "POST /batch/gmail/v1"]);

    const client = await mcpClient(headersFor(ada.token));
    const viaMcp = await mcpCall(client, "service_gmail_search", { query: "from:ana", limit: 3 });
    expect(viaMcp).toEqual({ ok: true, body: res.body });
    await client.close();
  });

  it("leaves out a message deleted between the list and its read (a 404 inside the batch)", async () => {
    apis.inject({ path: /^\/gmail\/v1\/users\/me\/messages\/msg005$/, kind: "not_found", times: 1 });
    const res = await rest("service_gmail_search", { query: "from:ana", limit: 3 });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { id: string }) => m.id)).toEqual(["msg000", "msg010"]);
    // One message is read alone, not in a batch, and left out the same way.
    apis.inject({ path: /^\/gmail\/v1\/users\/me\/messages\/msg000$/, kind: "not_found", times: 1 });
    const mark = apis.requests.length;
    const one = await rest("service_gmail_search", { query: "from:ana", limit: 1 });
    expect(one.status).toBe(200);
    expect(one.body.messages).toEqual([]);
    expect(requestsSince(mark).map((r) => `${r.method} ${r.path}`)).toEqual(["GET /gmail/v1/users/me/messages", "GET /gmail/v1/users/me/messages/msg000"]);
  });

  it("a token refused inside the batch is refreshed once and the batch sent again", async () => {
    const dee = await newPerson();
    await connect(dee.id, "gmail");
    apis.inject({ path: /^\/gmail\/v1\/users\/me\/messages\/msg/, kind: "invalid_token", times: 1 });
    const tokenCalls = provider.tokenRequests();
    const mark = apis.requests.length;
    const res = await rest("service_gmail_search", { query: "from:ana", limit: 3 }, headersFor(dee.token));
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { id: string }) => m.id)).toEqual(["msg000", "msg005", "msg010"]);
    expect(provider.tokenRequests() - tokenCalls).toBe(1);
    const batches = requestsSince(mark).filter((r) => r.path === "/batch/gmail/v1");
    expect(batches).toHaveLength(2);
    expect(batches[1]!.token).not.toBe(batches[0]!.token);
  });

  it("a rate limit or a failure inside the batch is the call's: rate_limited with Retry-After, provider_error", async () => {
    apis.inject({ path: /^\/gmail\/v1\/users\/me\/messages\/msg010$/, kind: "rate_limit", retryAfter: 12, times: 1 });
    const limited = await rest("service_gmail_search", { query: "from:ana", limit: 3 });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: "rate_limited", retry_after: 12, app: "gmail" });
    apis.inject({ path: /^\/gmail\/v1\/users\/me\/messages\/msg000$/, kind: "server_error", times: 1 });
    const failed = await rest("service_gmail_search", { query: "from:ana", limit: 3 });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({ code: "provider_error", app: "gmail" });
    apis.inject({ path: /^\/batch\/gmail\/v1$/, kind: "server_error", times: 1 });
    expect((await rest("service_gmail_search", { query: "from:ana", limit: 3 })).body.error).toMatchObject({ code: "provider_error", app: "gmail" });
    expect((await rest("service_gmail_search", { query: "from:ana", limit: 3 })).status).toBe(200);
  });

  it("pages with page_token until next_page_token is null", async () => {
    const ids: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await rest("service_gmail_search", { query: "", limit: 10, ...(token ? { page_token: token } : {}) });
      expect(res.status).toBe(200);
      ids.push(...res.body.messages.map((m: { id: string }) => m.id));
      token = res.body.next_page_token ?? undefined;
      pages++;
    } while (token);
    expect(pages).toBe(Math.ceil(mailbox.messages.length / 10));
    expect(new Set(ids).size).toBe(mailbox.messages.length);
  });

  it("refuses bad arguments with invalid_request", async () => {
    for (const body of [{ limit: 0 }, { limit: 51 }, { query: 5 }, { page_token: "" }]) {
      const res = await rest("service_gmail_search", body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
  });
});

describe("service_calendar_get", () => {
  it("reads the next 7 days by default, occurrences by start time, on REST and MCP", async () => {
    const mark = apis.requests.length;
    const res = await rest("service_calendar_get", {});
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { id: string }) => e.id)).toEqual(["ev-soon", "ev-later"]);
    expect(res.body.events[0]).toMatchObject({
      title: "Design review",
      recurring: true,
      time_zone: "Europe/Lisbon",
      organizer: "ada@example.com",
      all_day: false,
      attendees: [{ email: "ada@example.com", response: "accepted" }],
    });
    expect(res.body.events[0].description).toHaveLength(1000);
    expect(res.body.events[1]).toMatchObject({ title: "Dentist", location: "Clinic", recurring: false });
    const list = requestsSince(mark).find((r) => r.path === "/calendar/v3/calendars/primary/events")!;
    expect(list.query.get("singleEvents")).toBe("true");
    expect(list.query.get("orderBy")).toBe("startTime");
    const min = Date.parse(list.query.get("timeMin")!);
    expect(Math.abs(min - Date.now())).toBeLessThan(60_000);
    expect(Date.parse(list.query.get("timeMax")!) - min).toBe(7 * DAY);

    const client = await mcpClient(headersFor(ada.token));
    expect(await mcpCall(client, "service_calendar_get", {})).toEqual({ ok: true, body: res.body });
    await client.close();
  });

  it("takes a range and pages through it", async () => {
    const from = new Date(Date.now() - 60_000).toISOString();
    const to = new Date(Date.now() + 30 * DAY).toISOString();
    const first = await rest("service_calendar_get", { time_min: from, time_max: to, limit: 2 });
    expect(first.body.events.map((e: { id: string }) => e.id)).toEqual(["ev-soon", "ev-later"]);
    expect(first.body.next_page_token).toEqual(expect.any(String));
    const second = await rest("service_calendar_get", { time_min: from, time_max: to, limit: 2, page_token: first.body.next_page_token });
    expect(second.body).toMatchObject({ events: [{ id: "ev-far" }], next_page_token: null });
    const backwards = await rest("service_calendar_get", { time_min: to, time_max: from });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.fields).toEqual([{ field: "time_max", message: "time_max must be after time_min." }]);
    expect((await rest("service_calendar_get", { time_min: "tomorrow" })).status).toBe(400);
  });
});

describe("service_drive_search", () => {
  it("searches full text (escaped in Drive's query language), asks for the fields it returns, and pages", async () => {
    const mark = apis.requests.length;
    const quoted = await rest("service_drive_search", { query: "Ada's \\ plan" });
    expect(quoted.status).toBe(200);
    expect(quoted.body.files).toEqual([
      {
        id: "file-quote",
        name: "Ada's \\ plan",
        mime_type: "application/vnd.google-apps.document",
        modified: expect.any(String),
        url: "https://docs.google.com/document/d/file-quote/edit",
        owners: [{ name: "Ada Lovelace", email: "ada@example.com" }],
      },
    ]);
    const list = requestsSince(mark).find((r) => r.path === "/drive/v3/files")!;
    expect(list.query.get("q")).toBe("fullText contains 'Ada\\'s \\\\ plan' and trashed = false");
    expect(list.query.get("fields")).toBe("nextPageToken,files(id,name,mimeType,modifiedTime,webViewLink,owners(displayName,emailAddress))");
    expect(list.query.has("orderBy")).toBe(false);

    const first = await rest("service_drive_search", { query: "roadmap", limit: 10 });
    expect(first.body.files).toHaveLength(10);
    const second = await rest("service_drive_search", { query: "roadmap", limit: 10, page_token: first.body.next_page_token });
    expect(second.body.files.map((f: { id: string }) => f.id)).toEqual(["file10", "file11"]);
    expect(second.body.next_page_token).toBeNull();

    const client = await mcpClient(headersFor(ada.token));
    expect(await mcpCall(client, "service_drive_search", { query: "roadmap", limit: 10 })).toEqual({ ok: true, body: first.body });
    expect((await mcpCall(client, "service_drive_search", { query: "" })).body.code).toBe("invalid_request");
    await client.close();
  });

  it("writes Drive string literals with quotes and backslashes escaped", () => {
    expect(driveSearchQuery("it's")).toBe("fullText contains 'it\\'s' and trashed = false");
    expect(driveSearchQuery("a\\' or trashed = true or '")).toBe("fullText contains 'a\\\\\\' or trashed = true or \\'' and trashed = false");
  });
});

describe("the provider's token", () => {
  it("refreshes once on a 401 and tries again; a refused refresh means app_needs_reconnect", async () => {
    const bea = await newPerson();
    await connect(bea.id, "drive");
    const before = await connectionRow(bea.id, "drive");
    const { openSecret } = await import("@/lib/platform/crypto");
    await provider.expireAccessToken(openSecret("connection-token", before.accessTokenSealed));
    const tokenCalls = provider.tokenRequests();
    const res = await rest("service_drive_search", { query: "roadmap" }, headersFor(bea.token));
    expect(res.status).toBe(200);
    expect(provider.tokenRequests() - tokenCalls).toBe(1);
    expect((await connectionRow(bea.id, "drive")).accessTokenSealed).not.toBe(before.accessTokenSealed);

    // The grant revoked at Google (its tokens with it): the refresh is refused, the connection needs reconnecting.
    await provider.revokeAtProvider(openSecret("connection-token", (await connectionRow(bea.id, "drive")).refreshTokenSealed!));
    const refused = await rest("service_drive_search", { query: "roadmap" }, headersFor(bea.token));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "app_needs_reconnect", app: "drive" });
    expect(refused.body.error.connect_url).toBeUndefined();
    expect((await connectionRow(bea.id, "drive")).status).toBe("needs_reconnect");
    expect((await rest("service_drive_search", { query: "roadmap" }, headersFor(bea.token))).body.error.code).toBe("app_needs_reconnect");
  });

  it("50 concurrent calls with an expired token cause one refresh", async () => {
    const cy = await newPerson();
    await connect(cy.id, "calendar");
    advanceClockForTests(3600 * 1000);
    try {
      const tokenCalls = provider.tokenRequests();
      const answers = await Promise.all(Array.from({ length: 50 }, () => rest("service_calendar_get", {}, headersFor(cy.token))));
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
      expect(provider.tokenRequests() - tokenCalls).toBe(1);
    } finally {
      resetClockForTests();
    }
  });

  it("50 concurrent calls whose token is refused cause one refresh", async () => {
    const di = await newPerson();
    await connect(di.id, "gmail");
    const { openSecret } = await import("@/lib/platform/crypto");
    await provider.expireAccessToken(openSecret("connection-token", (await connectionRow(di.id, "gmail")).accessTokenSealed));
    const tokenCalls = provider.tokenRequests();
    const answers = await Promise.all(Array.from({ length: 50 }, () => rest("service_gmail_search", { limit: 1 }, headersFor(di.token))));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(provider.tokenRequests() - tokenCalls).toBe(1);
  });
});

describe("the provider's refusals", () => {
  it("a missing scope is permission_needed with a freshly minted link", async () => {
    apis.inject({ path: /^\/drive\//, kind: "insufficient_scope", times: 2 });
    const res = await rest("service_drive_search", { query: "roadmap" });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: "permission_needed",
      capability: "drive:read",
      connect_url: expect.stringMatching(/\/connect\/mcc_/),
      expires_at: expect.any(String),
    });
    const client = await mcpClient(headersFor(ada.token));
    const viaMcp = await mcpCall(client, "service_drive_search", { query: "roadmap" });
    expect(viaMcp.body).toMatchObject({ code: "permission_needed", connect_url: res.body.error.connect_url });
    await client.close();
  });

  it("a 429 is rate_limited with Google's Retry-After, and so is a 403 rate-limit reason", async () => {
    apis.inject({ path: /^\/gmail\//, kind: "rate_limit", retryAfter: 30, times: 2 });
    const res = await rest("service_gmail_search", {});
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ code: "rate_limited", retry_after: 30, app: "gmail" });
    expect(res.headers.get("retry-after")).toBe("30");
    const client = await mcpClient(headersFor(ada.token));
    expect((await mcpCall(client, "service_gmail_search", {})).body).toMatchObject({ code: "rate_limited", retry_after: 30 });
    apis.inject({ path: /^\/calendar\//, kind: "rate_limit_403", retryAfter: 5, times: 1 });
    expect((await mcpCall(client, "service_calendar_get", {})).body).toMatchObject({ code: "rate_limited", retry_after: 5 });
    await client.close();
  });

  it("a provider failure is provider_error", async () => {
    apis.inject({ path: /^\/drive\//, kind: "server_error", times: 1 });
    const res = await rest("service_drive_search", { query: "roadmap" });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: "provider_error", app: "drive" });
  });
});

describe("fail-closed rules", () => {
  it("an app given to the agent but not connected is app_not_connected, with no link", async () => {
    const eve = await newPerson();
    for (const app of ["gmail", "calendar", "drive"]) await grant(eve.id, `${app}:read`);
    const client = await mcpClient(headersFor(eve.token));
    const calls: Array<[ToolName, Record<string, unknown>, string]> = [
      ["service_gmail_search", {}, "gmail"],
      ["service_calendar_get", {}, "calendar"],
      ["service_drive_search", { query: "x" }, "drive"],
      ["service_email_send", { to: ["a@example.com"], subject: "s", body: "b", idempotency_key: "key-not-connected-1" }, "gmail"],
      ["service_calendar_create_event", { title: "t", start: "2030-01-01T10:00:00Z", end: "2030-01-01T11:00:00Z", idempotency_key: "key-not-connected-2" }, "calendar"],
    ];
    for (const [name, args, app] of calls) {
      const res = await rest(name, args, headersFor(eve.token));
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: "app_not_connected", app });
      expect(res.body.error.message).toContain("service_connect");
      expect(res.body.error.connect_url).toBeUndefined();
      const viaMcp = await mcpCall(client, name, args);
      expect(viaMcp.body).toMatchObject({ code: "app_not_connected", app });
      expect(viaMcp.body.connect_url).toBeUndefined();
    }
    await client.close();
  });

  it("refuses X-User-Id and user_id: the Bearer token names the person", async () => {
    const named = await rest("service_gmail_search", {}, { ...headersFor(ada.token), "x-user-id": "user-live" });
    expect(named.status).toBe(400);
    expect(named.body.error).toMatchObject({ code: "user_token_required", message: MESSAGES.userTokenRequired });
    const inBody = await rest("service_gmail_search", { user_id: "user-live" });
    expect(inBody.body.error.code).toBe("user_token_required");
    const noBearer = await rest("service_gmail_search", {}, { "x-api-key": t.keys.sk, "x-agent": t.agent.handle });
    expect(noBearer.body.error.code).toBe("user_token_required");
    const client = await mcpClient(headersFor(ada.token));
    expect(
      (await mcpCall(client, "service_email_send", { user_id: "user-live", to: ["a@example.com"], subject: "s", body: "b", idempotency_key: "key-user-id-1" })).body.code,
    ).toBe("user_token_required");
    await client.close();
  });

  it("refuses a person who has not approved the agent", async () => {
    const other = await createTenant(undefined, "other-agent");
    const res = await rest("service_gmail_search", {}, headersFor(await bearerFor(other, ada.id), other));
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("agent_not_approved");
  });
});

describe("service_email_send", () => {
  const sendArgs = (key: string, extra: Record<string, unknown> = {}) => ({ to: ["bob@example.com"], subject: "Lunch?", body: "Friday 12:30?", idempotency_key: key, ...extra });

  it("without gmail:send allowed: permission_needed with a link, and nothing sent", async () => {
    const sent = mailbox.sent.length;
    const res = await rest("service_email_send", sendArgs("key-no-grant-0001"));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "permission_needed", capability: "gmail:send", connect_url: expect.stringMatching(/\/connect\/mcc_/) });
    expect(mailbox.sent.length).toBe(sent);
  });

  it("allowed, but Google has not granted gmail.send: permission_needed; the link's consent asks Google for it, then the send goes", async () => {
    await grant(ada.id, "gmail:send");
    const sent = mailbox.sent.length;
    const refused = await rest("service_email_send", sendArgs("key-scope-0001"));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "permission_needed", capability: "gmail:send" });
    expect(mailbox.sent.length).toBe(sent);
    expect(
      requestsSince(0)
        .filter((r) => r.path.endsWith("/messages/send"))
        .at(-1)?.status,
    ).toBe(403);

    // The person opens the link, signed in, and allows: Google's consent for gmail.send comes first.
    const session = `authjs.session-token=${await encode({ token: { sub: ada.id }, secret: (await import("@/lib/env")).env().AUTH_SECRET, salt: "authjs.session-token" })}`;
    const url = refused.body.error.connect_url as string;
    const opened = await openLink(new Request(url, { headers: { cookie: session } }), { params: Promise.resolve({ linkId: url.split("/").pop()! }) });
    const flowId = opened.headers.get("location")!.split("/").pop()!;
    const flowCookie = opened.headers.get("set-cookie")!.split(";")[0]!;
    const flow = (await findFlow(flowId))!;
    expect(flow.screen).toBe("capability");
    expect(await allowCapability(flow)).toEqual({ consent: "gmail" });
    expect((await findFlow(flowId))!.screen).toBe("capability");

    const start = await flowConnect(new Request(`http://localhost:3000/flow/${flowId}/connect/gmail`, { headers: { cookie: flowCookie } }), {
      params: Promise.resolve({ flowId, app: "gmail" }),
    });
    const toGoogle = new URL(start.headers.get("location")!);
    expect(toGoogle.searchParams.get("scope")!.split(" ")).toEqual(["openid", "email", `${SCOPE}gmail.readonly`, `${SCOPE}gmail.send`]);
    expect(toGoogle.searchParams.get("include_granted_scopes")).toBe("true");
    const back = await provider.consent(toGoogle);
    const done = await connectCallback(new Request(back, { headers: { cookie: start.headers.get("set-cookie")!.split(";")[0]! } }));
    expect(done.headers.get("location")).toBe(`http://localhost:3000/flow/${flowId}`);
    expect((await findFlow(flowId))!.screen).toBe("receipt");
    expect((await connectionRow(ada.id, "gmail")).scopes).toContain(`${SCOPE}gmail.send`);

    // The consent answered without the scope (the person unticked it at Google): the page says so, nothing is granted.
    const gil = await newPerson();
    await connect(gil.id, "gmail");
    const gilLink = (
      await (
        await import("@/lib/connect-links/links")
      ).mintConnectLink({ developerId: t.developer.id, plane: "live", agent: t.agent, userId: gil.id, externalId: null, capability: "gmail:send" })
    ).connect_url;
    const gilSession = `authjs.session-token=${await encode({ token: { sub: gil.id }, secret: (await import("@/lib/env")).env().AUTH_SECRET, salt: "authjs.session-token" })}`;
    const gilOpened = await openLink(new Request(gilLink, { headers: { cookie: gilSession } }), { params: Promise.resolve({ linkId: gilLink.split("/").pop()! }) });
    const gilFlowId = gilOpened.headers.get("location")!.split("/").pop()!;
    expect(await allowCapability((await findFlow(gilFlowId))!)).toEqual({ consent: "gmail" });
    const withoutScope = await conn.startConnection({ app: "gmail", flowId: gilFlowId, userId: gil.id });
    const gilBack = await connectCallback(new Request(await provider.consent(withoutScope.url), { headers: { cookie: withoutScope.cookie } }));
    expect(gilBack.headers.get("location")).toBe(`http://localhost:3000/flow/${gilFlowId}?connect_error=scope_not_granted`);
    expect((await findFlow(gilFlowId))!.screen).toBe("capability");
    expect(await (await db()).capabilityGrant.findFirst({ where: { userId: gil.id, capability: "gmail:send" } })).toBeNull();

    // The agent retries with a new key: it goes.
    const ok = await rest("service_email_send", sendArgs("key-scope-0002"));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ sent: true, mailbox: "gmail", message_id: expect.any(String), thread_id: expect.any(String) });
    expect(mailbox.sent.length).toBe(sent + 1);
  });

  it("sends an RFC 5322 message whose headers nothing written can add to", async () => {
    await grant(ada.id, "gmail:send");
    const res = await rest("service_email_send", {
      to: ["bob@example.com", "carol@example.org"],
      cc: ["dan@example.net"],
      subject: "Café à 12h30 — ça marche ? ".repeat(6).trim(),
      body: "Salut,\r\n\r\nÀ vendredi.\nBcc: eve@evil.example\n",
      idempotency_key: "key-rfc5322-0001",
    });
    expect(res.status).toBe(200);
    const message = mailbox.sent.find((m) => m.id === res.body.message_id)!;
    expect(message.headers.map((h) => h.name)).toEqual(["To", "Cc", "Subject", "MIME-Version", "Content-Type", "Content-Transfer-Encoding"]);
    expect(message.headers[0]!.value).toBe("bob@example.com, carol@example.org");
    expect(message.subject).toBe("Café à 12h30 — ça marche ? ".repeat(6).trim());
    expect(message.body).toBe("Salut,\r\n\r\nÀ vendredi.\r\nBcc: eve@evil.example\r\n");
    for (const line of message.raw.split("\r\n")) expect(line.length).toBeLessThanOrEqual(998);

    // A reply joins the thread, with In-Reply-To and References.
    const reply = await rest("service_email_send", { to: ["ana@example.org"], subject: "Re: Message 5", body: "Yes.", reply_to: "msg005", idempotency_key: "key-reply-00001" });
    expect(reply.body.thread_id).toBe("thr5");
    const sentReply = mailbox.sent.find((m) => m.id === reply.body.message_id)!;
    expect(sentReply.headers.find((h) => h.name === "In-Reply-To")?.value).toBe("<m5@mail.example.org>");
    expect(sentReply.headers.find((h) => h.name === "References")?.value).toBe("<m5@mail.example.org>");
  });

  it("is idempotent by key: the same key again sends nothing more and answers the same; with other arguments it is refused", async () => {
    await grant(ada.id, "gmail:send");
    const sent = mailbox.sent.length;
    const first = await rest("service_email_send", sendArgs("key-idem-000001"));
    const again = await rest("service_email_send", sendArgs("key-idem-000001"));
    expect(first.status).toBe(200);
    expect(again).toMatchObject({ status: 200, body: first.body });
    const client = await mcpClient(headersFor(ada.token));
    expect(await mcpCall(client, "service_email_send", sendArgs("key-idem-000001"))).toEqual({ ok: true, body: first.body });
    expect(mailbox.sent.length).toBe(sent + 1);
    const reused = await rest("service_email_send", sendArgs("key-idem-000001", { body: "Another body" }));
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe("idempotency_key_reused");
    expect((await mcpCall(client, "service_email_send", sendArgs("key-idem-000001", { body: "Another body" }))).body.code).toBe("idempotency_key_reused");
    // Concurrent calls with one key: one sends, the others wait for its answer or are told it is running.
    const racing = await Promise.all(Array.from({ length: 5 }, () => rest("service_email_send", sendArgs("key-idem-race-01"))));
    expect(racing.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    for (const r of racing.filter((x) => x.status !== 200)) expect(r.body.error.code).toBe("action_in_progress");
    expect(mailbox.sent.length).toBe(sent + 2);
    await client.close();
  });

  it("refuses bad recipients and sizes with invalid_request, sending nothing", async () => {
    await grant(ada.id, "gmail:send");
    const sent = mailbox.sent.length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ to: ["not an address"] }, "to.0"],
      [{ to: ["bob@example.com\r\nBcc: eve@evil.example"] }, "to.0"],
      [{ to: ["Bob <bob@example.com>"] }, "to.0"],
      [{ to: [] }, "to"],
      [{ cc: ["ok@example.com", "bad@@example.com"] }, "cc.1"],
      [{ to: Array.from({ length: 30 }, (_, i) => `to${i}@example.com`), cc: Array.from({ length: 21 }, (_, i) => `cc${i}@example.com`) }, "to"],
      [{ subject: "Hi\r\nBcc: eve@evil.example" }, "subject"],
      [{ subject: "x".repeat(999) }, "subject"],
      [{ body: "é".repeat(60 * 1024) }, "body"],
    ];
    const client = await mcpClient(headersFor(ada.token));
    for (const [i, [extra, field]] of cases.entries()) {
      const res = await rest("service_email_send", sendArgs(`key-invalid-${String(i).padStart(4, "0")}`, extra));
      expect(res.status, JSON.stringify(extra).slice(0, 80)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect((await mcpCall(client, "service_email_send", sendArgs(`key-invalid-${String(i).padStart(4, "0")}`, extra))).body.code).toBe("invalid_request");
    }
    expect(mailbox.sent.length).toBe(sent);
    expect((await rest("service_email_send", { to: ["bob@example.com"], subject: "s", body: "b" })).body.error.fields).toEqual([
      { field: "idempotency_key", message: expect.any(String) },
    ]);
    await client.close();
  });

  it("sends through Outlook when the person asks for it or has only Outlook, with outlook:send", async () => {
    // Outlook is enabled here through the development provider (no Microsoft credentials in the tests).
    // Outlook was never given to this agent: the person is asked for sending through it, whether or not it is connected.
    expect((await rest("service_email_send", sendArgs("key-outlook-0001", { mailbox: "outlook" }))).body.error).toMatchObject({
      code: "permission_needed",
      capability: "outlook:send",
    });
    const ivy = await newPerson();
    const { sealConnectionToken } = await import("@/lib/connectors/connections");
    await (
      await db()
    ).appConnection.create({
      data: {
        userId: ivy.id,
        app: "outlook",
        provider: "development",
        accountId: "development:ivy@example.com",
        accountEmail: "ivy@example.com",
        scopes: [],
        accessTokenSealed: sealConnectionToken("dev_token"),
      },
    });
    await grant(ivy.id, "outlook:read");
    const refused = await rest("service_email_send", sendArgs("key-outlook-0002", { subject: "Via Outlook" }), headersFor(ivy.token));
    expect(refused.body.error).toMatchObject({ code: "permission_needed", capability: "outlook:send" });
    expect((await rest("service_email_send", sendArgs("key-outlook-0002", { subject: "Via Outlook", mailbox: "gmail" }), headersFor(ivy.token))).body.error).toMatchObject({
      code: "permission_needed",
      capability: "gmail:send",
    });
    await grant(ivy.id, "outlook:send");
    const mark = apis.requests.length;
    const sent = await rest("service_email_send", sendArgs("key-outlook-0003", { subject: "Via Outlook" }), headersFor(ivy.token));
    expect(sent.body).toEqual({ sent: true, mailbox: "outlook", message_id: null, thread_id: null });
    expect((await (await db()).emailOutbox.findFirstOrThrow({ where: { subject: "Via Outlook" } })).body).toContain("From: ivy@example.com");
    expect(requestsSince(mark)).toEqual([]);
  });
});

describe("service_calendar_create_event", () => {
  const event = (key: string, extra: Record<string, unknown> = {}) => ({
    title: "Lunch with Ana",
    start: "2030-04-14T12:30:00+01:00",
    end: "2030-04-14T13:30:00+01:00",
    time_zone: "Europe/Lisbon",
    attendees: ["ana@example.org"],
    description: "At the vegetarian place.",
    idempotency_key: key,
    ...extra,
  });

  it("needs calendar:create_event, then Google's calendar.events scope, then creates once per key", async () => {
    const fay = await newPerson();
    await connect(fay.id, "calendar");
    const client = await mcpClient(headersFor(fay.token));
    const noGrant = await mcpCall(client, "service_calendar_create_event", event("key-event-0001"));
    expect(noGrant.body).toMatchObject({ code: "permission_needed", capability: "calendar:create_event", connect_url: expect.any(String) });
    await grant(fay.id, "calendar:create_event");
    const noScope = await rest("service_calendar_create_event", event("key-event-0001"), headersFor(fay.token));
    expect(noScope.body.error).toMatchObject({ code: "permission_needed", capability: "calendar:create_event" });

    // Consent with the capability's scope (as the link's flow asks for it).
    expect(await conn.capabilityConsentNeeded({ userId: fay.id, capability: "calendar:create_event" })).toBe("calendar");
    await connect(fay.id, "calendar", "calendar:create_event");
    expect(await conn.capabilityConsentNeeded({ userId: fay.id, capability: "calendar:create_event" })).toBeNull();

    const created = await rest("service_calendar_create_event", event("key-event-0001"), headersFor(fay.token));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      title: "Lunch with Ana",
      start: "2030-04-14T12:30:00+01:00",
      time_zone: "Europe/Lisbon",
      attendees: [{ email: "ana@example.org", response: "needsAction" }],
      description: "At the vegetarian place.",
      url: expect.stringContaining("calendar"),
    });
    const stored = mailbox.events.find((e) => e.id === created.body.id)!;
    expect(stored).toMatchObject({ sendUpdates: "all", start: { dateTime: "2030-04-14T12:30:00+01:00", timeZone: "Europe/Lisbon" } });
    expect(await mcpCall(client, "service_calendar_create_event", event("key-event-0001"))).toEqual({ ok: true, body: created.body });
    expect(mailbox.events.filter((e) => e.summary === "Lunch with Ana")).toHaveLength(1);
    await client.close();
  });

  it("refuses an empty range, a bad time zone or attendee", async () => {
    for (const [extra, field] of [
      [{ end: "2030-04-14T12:00:00+01:00" }, "end"],
      [{ time_zone: "Mars/Olympus" }, "time_zone"],
      [{ attendees: ["ana"] }, "attendees.0"],
      [{ start: "2030-04-14 12:30" }, "start"],
    ] as const) {
      const res = await rest("service_calendar_create_event", event("key-event-bad-01", extra));
      expect(res.status).toBe(400);
      expect(res.body.error.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
  });
});

describe("the sandbox's development Gmail", () => {
  it("answers from synthetic data, sends to the development outbox, and fails as app_needs_reconnect under gmail_token_expired until reset", async () => {
    const sandbox = await provisionSandbox();
    const headers = { "x-api-key": sandbox.secret_key, "x-agent": sandbox.agent.handle, authorization: `Bearer ${sandbox.user.agent_token}` };
    const mark = apis.requests.length;
    const found = await rest("service_gmail_search", { query: "lunch" }, headers);
    expect(found.status).toBe(200);
    expect(found.body.messages.map((m: { subject: string }) => m.subject)).toEqual(["Re: Lunch on Friday?", "Lunch on Friday?"]);
    expect(found.body.messages[0].from).toContain("sam.sandbox@example.com");
    const sent = await rest("service_gmail_search", { query: "in:sent", limit: 1 }, headers);
    expect(sent.body.messages).toHaveLength(1);
    expect(sent.body.next_page_token).toEqual(expect.any(String));

    const { agentId } = await (await db()).agentApproval.findFirstOrThrow({ where: { userId: sandbox.user.id } });
    await (await db()).capabilityGrant.create({ data: { userId: sandbox.user.id, agentId, capability: "gmail:send" } });
    const send = await rest(
      "service_email_send",
      { to: ["friend@example.org"], subject: "From the sandbox", body: "Hello from the development mailbox.", idempotency_key: "key-sandbox-0001" },
      headers,
    );
    expect(send.status).toBe(200);
    expect(send.body).toMatchObject({ sent: true, mailbox: "gmail", message_id: expect.stringMatching(/^dev-sent-/) });
    const outbox = await (await db()).emailOutbox.findFirstOrThrow({ where: { subject: "From the sandbox" } });
    expect(outbox.to).toBe("friend@example.org");
    expect(outbox.body).toContain("Hello from the development mailbox.");
    expect(outbox.body).toContain("From: sam.sandbox@example.com");
    expect(requestsSince(mark)).toEqual([]);

    const keyHeaders = { "x-api-key": sandbox.secret_key };
    expect((await call(sandboxSimulate, { headers: keyHeaders, body: { scenario: "gmail_token_expired" } })).status).toBe(200);
    const client = await mcpClient(headers);
    for (let i = 0; i < 2; i++) {
      const res = await rest("service_gmail_search", {}, headers);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: "app_needs_reconnect", app: "gmail" });
      expect((await mcpCall(client, "service_gmail_search", {})).body.code).toBe("app_needs_reconnect");
    }
    expect((await rest("service_email_send", { to: ["friend@example.org"], subject: "s", body: "b", idempotency_key: "key-sandbox-0002" }, headers)).body.error.code).toBe(
      "app_needs_reconnect",
    );
    expect((await call(sandboxReset, { headers: { ...keyHeaders, "x-agent": sandbox.agent.handle } })).status).toBe(200);
    expect((await rest("service_gmail_search", {}, headers)).status).toBe(200);
    await client.close();
  });
});

describe("development connections", () => {
  it("answer Calendar and Drive from synthetic data, never over the network", async () => {
    const gus = await newPerson();
    const { sealConnectionToken } = await import("@/lib/connectors/connections");
    for (const app of ["calendar", "drive"]) {
      await (
        await db()
      ).appConnection.create({
        data: {
          userId: gus.id,
          app,
          provider: "development",
          accountId: `development:gus@example.com`,
          accountEmail: "gus@example.com",
          scopes: [],
          accessTokenSealed: sealConnectionToken("dev_token"),
        },
      });
      await grant(gus.id, `${app}:read`);
    }
    const mark = apis.requests.length;
    const week = await rest("service_calendar_get", { limit: 50 }, headersFor(gus.token));
    expect(week.status).toBe(200);
    const titles = week.body.events.map((e: { title: string }) => e.title);
    expect(titles).toContain("Dentist");
    expect(titles).toContain("Design review");
    const starts = week.body.events.map((e: { start: string }) => Date.parse(e.start));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    const files = await rest("service_drive_search", { query: "kyoto" }, headersFor(gus.token));
    expect(files.body.files.map((f: { name: string }) => f.name)).toEqual(["Kyoto trip budget"]);
    await grant(gus.id, "calendar:create_event");
    const created = await rest(
      "service_calendar_create_event",
      { title: "Run", start: "2030-01-01T07:00:00Z", end: "2030-01-01T08:00:00Z", idempotency_key: "key-dev-event-01" },
      headersFor(gus.token),
    );
    expect(created.body).toMatchObject({ title: "Run", id: expect.stringMatching(/^dev-evt-/) });
    expect(requestsSince(mark)).toEqual([]);
  });
});

describe("snapshots for the memories distiller", () => {
  it("keep a sent message's From name and signature block, and nothing else of its body", async () => {
    const snap = await snapshotGmail(await usable(ada.id, "gmail"));
    expect(snap.app).toBe("gmail");
    const engine = snap.items.find((i) => i.kind === "sent_mail" && i.signature?.startsWith("Ada"))!;
    expect(engine).toMatchObject({
      kind: "sent_mail",
      from_name: "Ada Lovelace",
      from_address: "ada@example.com",
      signature: "Ada Lovelace\nAnalyst, Analytical Engine Co.\n+44 20 7946 0000",
    });
    expect(JSON.stringify(snap)).not.toContain("Ivory");
    expect(JSON.stringify(snap)).not.toContain("earlier text");
  });

  it("read recurring and upcoming events, and owned files' titles", async () => {
    const calendar = await snapshotCalendar(await usable(ada.id, "calendar"));
    expect(calendar.items).toContainEqual({ kind: "event", title: "Design review", recurrence: "RRULE:FREQ=WEEKLY;BYDAY=MO", organizer_self: true, start: expect.any(String) });
    expect(JSON.stringify(calendar)).not.toContain("xxxx");
    const drive = await snapshotDrive(await usable(ada.id, "drive"));
    expect(drive.items[0]).toMatchObject({ kind: "document" });
    expect(drive.items.map((i) => (i.kind === "document" ? i.title : ""))).not.toContain("Roadmap trashed");
  });

  it("find signature blocks by the delimiter or the last short block, never a sentence", () => {
    expect(signatureBlock("Hi,\n\nSee you.\n\n--\nSam\nDesigner")).toBe("Sam\nDesigner");
    expect(signatureBlock("Hi,\n\nSee you Friday.\n\nThanks,\nSam Sandbox\nProduct designer")).toBe("Thanks,\nSam Sandbox\nProduct designer");
    expect(signatureBlock("Hi,\n\nSee you Friday.")).toBeNull();
    expect(signatureBlock("Just one line")).toBeNull();
    expect(signatureBlock("Hi\n\n-- \n1\n2\n3\n4\n5\n6\n7")).toBe("1\n2\n3\n4\n5");
  });
});

describe("the shared mail checks", () => {
  it("accept plain addresses and one-line subjects, and encode any text as a header", () => {
    expect(validateOutgoingMail({ to: [" ada@example.com "], cc: [], subject: "Hi", body: "" }).to).toEqual(["ada@example.com"]);
    expect(() => validateOutgoingMail({ to: ["ada@example.com"], cc: [], subject: "a\nb", body: "" })).toThrow(/cannot be sent/);
    const encoded = encodeHeaderText("日本語のメール".repeat(10));
    for (const word of encoded.split("\r\n ")) {
      expect(word).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
      expect(word.length).toBeLessThanOrEqual(75);
    }
    expect(encodeHeaderText("plain")).toBe("plain");
  });
});

describe("the access log", () => {
  it("has each call with its tool, surface and outcome", async () => {
    const hal = await newPerson();
    await connect(hal.id, "drive");
    const client = await mcpClient(headersFor(hal.token));
    await rest("service_drive_search", { query: "roadmap" }, headersFor(hal.token));
    await mcpCall(client, "service_drive_search", { query: "roadmap" });
    await rest("service_gmail_search", {}, headersFor(hal.token));
    await mcpCall(client, "service_email_send", { to: ["a@example.com"], subject: "s", body: "b", idempotency_key: "key-log-000001" });
    apis.inject({ path: /^\/drive\//, kind: "rate_limit", retryAfter: 7, times: 1 });
    await rest("service_drive_search", { query: "roadmap" }, headersFor(hal.token));
    await client.close();
    await flushAccessLog();
    const rows = await (await db()).accessLogEntry.findMany({ where: { userId: hal.id }, orderBy: { at: "asc" } });
    const mine = rows.filter((r) => r.action.startsWith("service_")).map((r) => [r.action, r.surface, r.outcome]);
    expect(mine).toEqual([
      ["service_drive_search", "rest", "ok"],
      ["service_drive_search", "mcp", "ok"],
      ["service_gmail_search", "rest", "permission_needed"],
      ["service_email_send", "mcp", "permission_needed"],
      ["service_drive_search", "rest", "rate_limited"],
    ]);
    expect(rows.every((r) => r.agentId === t.agent.id && r.plane === "live")).toBe(true);
  });
});
