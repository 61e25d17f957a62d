// The Outlook and Notion connector tools end to end: service_email_search (Gmail and Outlook together)
// and service_notion_search through their REST routes and the developer MCP server (MCP SDK client),
// against local servers speaking Microsoft Graph v1.0 mail and the Notion API with their own error
// bodies, the local Microsoft and Notion token endpoints, and the local Google provider and Gmail API
// for the Gmail half. Listing (only with Outlook enabled, only for a linked-user token), pagination
// (@odata.nextLink, next_cursor, the combined token), a refused token refreshed once, a missing
// permission as permission_needed with a link, rate limits, one mailbox failing beside another that
// answers, the fail-closed rules, sending through Outlook, development connections, the distiller's
// snapshots and the access log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as emailSearchRoute } from "@/app/v1/tools/service_email_search/route";
import { POST as emailSendRoute } from "@/app/v1/tools/service_email_send/route";
import { POST as notionSearchRoute } from "@/app/v1/tools/service_notion_search/route";
import { flushAccessLog } from "@/lib/access-log/access-log";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { providerFetch } from "@/lib/connectors/apis/http";
import { snapshotNotion } from "@/lib/connectors/apis/notion";
import { graphSearchValue, snapshotOutlook } from "@/lib/connectors/apis/outlook";
import type { UsableConnection } from "@/lib/connectors/tools/definition";
import { openSecret, sealSecret } from "@/lib/platform/crypto";
import { db } from "@/lib/platform/db";
import { resetEnvForTests } from "@/lib/env";
import { MESSAGES } from "@/lib/http/errors";
import { approveAgent } from "@/lib/users/approvals";
import { createUser } from "@/lib/users/users";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { startGoogleApis, type FakeAccount } from "../helpers/google-apis";
import { startGoogleProvider } from "../helpers/google-provider";
import { startGraphMail, type GraphFakeMessage, type GraphMailbox } from "../helpers/graph-mail";
import { mcpCall, mcpClient } from "../helpers/connector-tools";
import { call } from "../helpers/http";
import { startMicrosoftProvider } from "../helpers/microsoft-provider";
import { startNotionServer } from "../helpers/notion-server";

const REDIRECT = "http://localhost:3000/connect/callback";
const GOOGLE_ACCOUNT = "google-account-1";
const MS_ACCOUNT = "ms-account-1";
const HOUR = 3_600_000;
const ROUTES = { service_email_search: emailSearchRoute, service_notion_search: notionSearchRoute, service_email_send: emailSendRoute } as const;
type ToolName = keyof typeof ROUTES;

let microsoft: Awaited<ReturnType<typeof startMicrosoftProvider>>;
let graph: Awaited<ReturnType<typeof startGraphMail>>;
let notion: Awaited<ReturnType<typeof startNotionServer>>;
let google: Awaited<ReturnType<typeof startGoogleProvider>>;
let googleApis: Awaited<ReturnType<typeof startGoogleApis>>;
let conn: typeof import("@/lib/connectors/connections");
let providers: typeof import("@/lib/connectors/providers");
let t: Tenant;
let ada: { id: string; token: string };
let outlookBox: GraphMailbox;
let gmailBox: FakeAccount;
const started = Date.now();

beforeAll(async () => {
  microsoft = await startMicrosoftProvider({ redirectUri: REDIRECT, mail: "ada@contoso.example" });
  graph = await startGraphMail({ authorize: (token) => microsoft.introspect(token) });
  notion = await startNotionServer({ email: "ada@notion.example" });
  google = await startGoogleProvider({ redirectUri: REDIRECT, email: "ada@example.com", accountId: GOOGLE_ACCOUNT });
  googleApis = await startGoogleApis({ authorize: (token) => google.introspect(token) });
  Object.assign(process.env, microsoft.env, graph.env, notion.env, google.env, googleApis.env);
  resetEnvForTests();
  conn = await import("@/lib/connectors/connections");
  providers = await import("@/lib/connectors/providers");
  t = await createTenant();
  ada = { id: t.users.live.id, token: await bearerFor(t.users.live.id) };
  for (const app of ["gmail", "outlook", "notion"]) await connect(ada.id, app);
  outlookBox = graph.mailbox(MS_ACCOUNT);
  Object.assign(outlookBox, { email: "ada@contoso.example", displayName: "Ada Lovelace" });
  gmailBox = googleApis.account(GOOGLE_ACCOUNT);
  gmailBox.email = "ada@example.com";
  seed();
});
afterAll(async () => {
  await Promise.all([graph.close(), notion.close(), googleApis.close()]);
  await Promise.all([microsoft.close(), google.close()]);
});

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

function outlookMessage(i: number, extra: Partial<GraphFakeMessage> = {}): GraphFakeMessage {
  const received = started - (2 * i + 1) * HOUR;
  return {
    id: `AAMkOutlook${String(i).padStart(2, "0")}`,
    conversationId: `AAQkConv${i}`,
    folder: "inbox",
    subject: `Outlook ${i}`,
    body: `Outlook body ${i}, which a search never returns in full.${" More text.".repeat(40)}`,
    from: i % 3 === 0 ? { name: "Ana Costa", address: "ana@example.org" } : { name: `Colleague ${i}`, address: `colleague${i}@contoso.example` },
    toRecipients: [{ name: "Ada Lovelace", address: "ada@contoso.example" }],
    receivedDateTime: iso(received),
    sentDateTime: iso(received - 60_000),
    ...extra,
  };
}

function seed() {
  // Gmail at even hours ago, Outlook at odd ones: merged, they alternate.
  for (let i = 0; i < 7; i++) {
    const at = started - 2 * i * HOUR;
    gmailBox.messages.push({
      id: `gmail${String(i).padStart(2, "0")}`,
      threadId: `gthr${i}`,
      labelIds: ["INBOX"],
      headers: [
        { name: "From", value: i % 3 === 0 ? "Ana Costa <ana@example.org>" : `Friend ${i} <friend${i}@example.com>` },
        { name: "To", value: "ada@example.com" },
        { name: "Subject", value: `Gmail ${i}` },
      ],
      snippet: `Gmail snippet ${i}`,
      body: `Gmail body ${i}`,
      internalDate: at,
    });
  }
  for (let i = 0; i < 8; i++) outlookBox.messages.push(outlookMessage(i));
  outlookBox.messages.push({
    id: "AAMkSent01",
    conversationId: "AAQkSent1",
    folder: "sentitems",
    subject: "Re: Engine notes",
    body: "Marta,\n\nThe engine figures are in the shared folder. Project codename Ivory.\n\nBest,\nAda Lovelace\nAnalyst, Analytical Engine Ltd\n\n________________________________\nFrom: Marta Silva\nSent: Monday\nTo: Ada\nSubject: Engine notes\n\nCan you send the figures?",
    from: { name: "Ada Lovelace", address: "ada@contoso.example" },
    toRecipients: [{ name: "Marta Silva", address: "marta@contoso.example" }],
    receivedDateTime: iso(started - 100 * HOUR),
    sentDateTime: iso(started - 100 * HOUR),
  });
  for (let i = 0; i < 12; i++) {
    notion.items.push({
      id: `1a2b3c4d-0000-4000-8000-${String(i).padStart(12, "0")}`,
      object: "page",
      title: `Project plan ${i}`,
      titleProperty: i % 2 ? "Name" : "title",
      last_edited_time: new Date(started - i * HOUR).toISOString(),
    });
  }
  notion.items.push(
    { id: "1a2b3c4d-0000-4000-8000-db0000000001", object: "database", title: "Reading list", last_edited_time: new Date(started - 30 * HOUR).toISOString() },
    { id: "1a2b3c4d-0000-4000-8000-ar0000000001", object: "page", title: "Project plan archived", last_edited_time: new Date(started).toISOString(), archived: true },
    { id: "1a2b3c4d-0000-4000-8000-un0000000001", object: "page", title: "", last_edited_time: new Date(started - 40 * HOUR).toISOString() },
  );
}

async function bearerFor(userId: string, tenant: Tenant = t): Promise<string> {
  return (await issueAgentToken({ userId, developerId: tenant.developer.id, agentId: tenant.agent.id, agent: tenant.agent.handle, plane: "live" })).token;
}

/** Connects an app for a signed-in person through its local provider's consent, and gives it to the tenant's agent (as connecting it in that agent's flow does). */
async function connect(userId: string, app: string, capability?: string) {
  const { url, cookie } = await conn.startConnection({ app, userId, capability });
  const back = app === "outlook" ? await microsoft.consent(url) : app === "notion" ? await notion.consent(url) : await google.consent(url);
  const done = await conn.finishConnection(back, cookie);
  await grant(userId, `${app}:read`);
  return done;
}

async function connectionRow(userId: string, app: string) {
  return (await db()).appConnection.findUniqueOrThrow({ where: { userId_app: { userId, app } } });
}

const storedToken = async (userId: string, app: string) => openSecret("connection-token", (await connectionRow(userId, app)).accessTokenSealed);

function headersFor(token: string, tenant: Tenant = t) {
  return { "x-api-key": tenant.keys.sk, "x-agent": tenant.agent.handle, authorization: `Bearer ${token}` };
}

function rest(name: ToolName, body: unknown, headers: Record<string, string> = headersFor(ada.token)) {
  return call(ROUTES[name], { headers, body });
}

async function newPerson() {
  const user = await createUser({ plane: "live" });
  await approveAgent({ userId: user.id, agentId: t.agent.id });
  return { id: user.id, token: await bearerFor(user.id) };
}

async function grant(userId: string, capability: string) {
  await (
    await db()
  ).capabilityGrant.upsert({
    where: { userId_agentId_capability: { userId, agentId: t.agent.id, capability } },
    create: { userId, agentId: t.agent.id, capability },
    update: {},
  });
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

/** Runs `fn` with the Outlook connector disabled (no Microsoft credentials, no development provider). */
async function withoutOutlook(fn: () => Promise<void>) {
  const saved = { MICROSOFT_CLIENT_ID: process.env.MICROSOFT_CLIENT_ID, CONNECT_DRIVER: process.env.CONNECT_DRIVER };
  delete process.env.MICROSOFT_CLIENT_ID;
  process.env.CONNECT_DRIVER = "providers";
  resetEnvForTests();
  try {
    await fn();
  } finally {
    process.env.MICROSOFT_CLIENT_ID = saved.MICROSOFT_CLIENT_ID;
    if (saved.CONNECT_DRIVER === undefined) delete process.env.CONNECT_DRIVER;
    else process.env.CONNECT_DRIVER = saved.CONNECT_DRIVER;
    resetEnvForTests();
  }
}

/** Every page of a search, following next_page_token. */
async function allPages(name: ToolName, args: Record<string, unknown>, headers = headersFor(ada.token)) {
  const pages: any[] = [];
  let token: string | undefined;
  do {
    const res = await rest(name, { ...args, ...(token ? { page_token: token } : {}) }, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body);
    token = res.body.next_page_token ?? undefined;
  } while (token && pages.length < 50);
  return pages;
}

describe("listing", () => {
  it("lists service_email_search and service_notion_search for a linked-user token only", async () => {
    const client = await mcpClient(headersFor(ada.token));
    const tools = (await client.listTools()).tools;
    const names = tools.map((x) => x.name);
    expect(names).toContain("service_email_search");
    expect(names).toContain("service_notion_search");
    const search = tools.find((x) => x.name === "service_email_search")!;
    expect(search.description!.length).toBeGreaterThan(200);
    expect(search.inputSchema.required ?? []).toEqual([]);
    await client.close();
    const anonymous = await mcpClient({ "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "user-live" });
    const anonymousNames = (await anonymous.listTools()).tools.map((x) => x.name);
    expect(anonymousNames).not.toContain("service_email_search");
    expect(anonymousNames).not.toContain("service_notion_search");
    await anonymous.close();
  });

  it("serves service_email_search only where Outlook is enabled; Notion's tool stays", async () => {
    await withoutOutlook(async () => {
      expect(providers.canConnectApp("outlook")).toBe(false);
      const client = await mcpClient(headersFor(ada.token));
      const names = (await client.listTools()).tools.map((x) => x.name);
      expect(names).not.toContain("service_email_search");
      expect(names).toContain("service_notion_search");
      await expect(client.callTool({ name: "service_email_search", arguments: {} })).rejects.toThrow(/not found/);
      await client.close();
      const res = await rest("service_email_search", {});
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
      expect((await rest("service_notion_search", {})).status).toBe(200);
    });
    // With the development provider standing in for Microsoft, Outlook is enabled too.
    const saved = process.env.MICROSOFT_CLIENT_ID;
    delete process.env.MICROSOFT_CLIENT_ID;
    process.env.CONNECT_DRIVER = "development";
    resetEnvForTests();
    try {
      expect(providers.canConnectApp("outlook")).toBe(true);
      const client = await mcpClient(headersFor(ada.token));
      expect((await client.listTools()).tools.map((x) => x.name)).toContain("service_email_search");
      await client.close();
    } finally {
      process.env.MICROSOFT_CLIENT_ID = saved;
      delete process.env.CONNECT_DRIVER;
      resetEnvForTests();
    }
  });
});

describe("service_notion_search", () => {
  it("searches titles through POST /v1/search with Notion-Version, the same on REST and MCP", async () => {
    const mark = notion.requests.length;
    const res = await rest("service_notion_search", { query: "project plan", limit: 3 });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(3);
    expect(res.body.results[0]).toEqual({
      id: "1a2b3c4d-0000-4000-8000-000000000000",
      object: "page",
      title: "Project plan 0",
      url: "https://www.notion.so/Project-plan-0-1a2b3c4d000040008000000000000000",
      last_edited_time: new Date(started).toISOString(),
    });
    // A page in a database has its title under another property name.
    expect(res.body.results[1]).toMatchObject({ title: "Project plan 1", object: "page" });
    expect(res.body.next_page_token).toBe("1a2b3c4d-0000-4000-8000-000000000003");
    const seen = notion.requests.slice(mark);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: "POST", path: "/v1/search", version: "2022-06-28", body: { query: "project plan", page_size: 3 } });

    const client = await mcpClient(headersFor(ada.token));
    expect(await mcpCall(client, "service_notion_search", { query: "project plan", limit: 3 })).toEqual({ ok: true, body: res.body });
    await client.close();
  });

  it("pages with next_cursor until it is null, leaving out archived pages", async () => {
    const pages = await allPages("service_notion_search", { query: "project", limit: 5 });
    expect(pages.map((p) => p.results.length)).toEqual([5, 5, 2]);
    const titles = pages.flatMap((p) => p.results.map((r: { title: string }) => r.title));
    expect(new Set(titles).size).toBe(12);
    expect(titles).not.toContain("Project plan archived");
  });

  it("with no query, lists the most recently edited first; filters by type; names untitled pages", async () => {
    const mark = notion.requests.length;
    const recent = await rest("service_notion_search", { limit: 50 });
    expect(notion.requests[mark]!.body).toEqual({ sort: { direction: "descending", timestamp: "last_edited_time" }, page_size: 50 });
    const times = recent.body.results.map((r: { last_edited_time: string }) => Date.parse(r.last_edited_time));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(recent.body.results.map((r: { title: string }) => r.title)).toContain("Untitled");
    const databases = await rest("service_notion_search", { type: "database" });
    expect(notion.requests.at(-1)!.body).toMatchObject({ filter: { property: "object", value: "database" } });
    expect(databases.body.results).toEqual([
      {
        id: "1a2b3c4d-0000-4000-8000-db0000000001",
        object: "database",
        title: "Reading list",
        url: expect.stringContaining("notion.so/Reading-list-"),
        last_edited_time: expect.any(String),
      },
    ]);
  });

  it("refuses bad arguments and a cursor Notion did not give with invalid_request", async () => {
    for (const body of [{ limit: 0 }, { limit: 51 }, { type: "block" }, { query: 7 }, { page_token: "" }]) {
      const res = await rest("service_notion_search", body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    const forged = await rest("service_notion_search", { query: "project", page_token: "not-a-cursor" });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toMatchObject({ code: "invalid_request", fields: [{ field: "page_token", message: expect.any(String) }] });
  });
});

describe("service_email_search", () => {
  it("searches Gmail and Outlook together, newest first, each message naming its mailbox", async () => {
    const gmailMark = googleApis.requests.length;
    const graphMark = graph.requests.length;
    const res = await rest("service_email_search", { query: "from:ana", limit: 10 });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { id: string }) => m.id)).toEqual(["gmail00", "AAMkOutlook00", "gmail03", "AAMkOutlook03", "gmail06", "AAMkOutlook06"]);
    expect(res.body.messages[1]).toEqual({
      id: "AAMkOutlook00",
      thread_id: "AAQkConv0",
      mailbox: "outlook",
      from: "Ana Costa <ana@example.org>",
      to: ["Ada Lovelace <ada@contoso.example>"],
      subject: "Outlook 0",
      snippet: expect.stringMatching(/^Outlook body 0, which a search never returns in full\./),
      date: new Date(started - HOUR).toISOString().replace(/\.\d{3}Z$/, ".000Z"),
    });
    expect(res.body.messages[1].snippet.length).toBeLessThanOrEqual(255);
    expect(res.body.messages[0]).toMatchObject({ mailbox: "gmail", from: "Ana Costa <ana@example.org>" });
    expect(res.body).toMatchObject({ next_page_token: null, mailboxes: ["gmail", "outlook"], warnings: [] });
    const list = graph.requests.slice(graphMark).find((r) => r.path === "/v1.0/me/messages")!;
    expect(list.query.get("$search")).toBe('"from:ana"');
    expect(list.query.get("$top")).toBe("10");
    expect(list.query.get("$select")).toBe("id,conversationId,subject,bodyPreview,from,toRecipients,receivedDateTime");
    expect(list.query.has("$orderby")).toBe(false);
    expect(
      googleApis.requests
        .slice(gmailMark)
        .find((r) => r.path === "/gmail/v1/users/me/messages")!
        .query.get("q"),
    ).toBe("from:ana");

    const client = await mcpClient(headersFor(ada.token));
    expect(await mcpCall(client, "service_email_search", { query: "from:ana", limit: 10 })).toEqual({ ok: true, body: res.body });
    await client.close();
  });

  it("pages across both mailboxes with one token until it is null, every message once, in order", async () => {
    const graphMark = graph.requests.length;
    const pages = await allPages("service_email_search", { limit: 4 });
    const ids = pages.flatMap((p) => p.messages.map((m: { id: string }) => m.id));
    const inbox = outlookBox.messages.filter((m) => m.folder === "inbox").length;
    expect(ids).toHaveLength(gmailBox.messages.length + outlookBox.messages.length);
    expect(new Set(ids).size).toBe(ids.length);
    const dates = pages.flatMap((p) => p.messages.map((m: { date: string }) => Date.parse(m.date)));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(ids.slice(0, 4)).toEqual(["gmail00", "AAMkOutlook00", "gmail01", "AAMkOutlook01"]);
    expect(inbox).toBe(8);
    // Graph was paged by its own @odata.nextLink ($skip, for a listing), never by an address from the token.
    const graphCalls = graph.requests.slice(graphMark).filter((r) => r.path === "/v1.0/me/messages");
    expect(graphCalls[0]!.query.get("$orderby")).toBe("receivedDateTime desc");
    expect(graphCalls.some((r) => r.query.get("$skip") === "4")).toBe(true);
    // The token is opaque base64url JSON, one place per mailbox.
    const token = JSON.parse(Buffer.from(pages[0].next_page_token, "base64url").toString());
    expect(Object.keys(token.m).sort()).toEqual(["gmail", "outlook"]);
  });

  it("pages a search through Graph's $skiptoken", async () => {
    const graphMark = graph.requests.length;
    const pages = await allPages("service_email_search", { query: "outlook", limit: 3 });
    expect(pages.flatMap((p) => p.messages.map((m: { mailbox: string }) => m.mailbox))).toEqual(Array(8).fill("outlook"));
    const calls = graph.requests.slice(graphMark).filter((r) => r.path === "/v1.0/me/messages");
    expect(calls.filter((r) => r.query.has("$skiptoken")).length).toBeGreaterThanOrEqual(2);
    expect(calls.every((r) => r.query.get("$search") === '"outlook"')).toBe(true);
  });

  it("refuses a page token it did not give, or one for another query", async () => {
    const first = await rest("service_email_search", { query: "", limit: 2 });
    const other = await rest("service_email_search", { query: "gmail", page_token: first.body.next_page_token });
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ code: "invalid_request", fields: [{ field: "page_token", message: expect.stringContaining("another query") }] });
    const q = JSON.parse(Buffer.from(first.body.next_page_token, "base64url").toString()).q;
    const outlookPlace = (inner: string) => Buffer.from(JSON.stringify({ v: 1, q, m: { outlook: { t: inner, k: 0 } } })).toString("base64url");
    for (const token of [
      "%%%",
      Buffer.from("{}").toString("base64url"),
      Buffer.from(JSON.stringify({ v: 2, q: "", m: {} })).toString("base64url"),
      outlookPlace(Buffer.from("$top=5&$expand=attachments").toString("base64url")),
      outlookPlace("https://evil.example/"),
    ]) {
      const graphMark = graph.requests.length;
      const res = await rest("service_email_search", { query: "", page_token: token });
      expect(res.status, token).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_request", fields: [{ field: "page_token", message: expect.any(String) }] });
      expect(graph.requests.length).toBe(graphMark);
    }
  });

  it("escapes the query as a $search string", () => {
    expect(graphSearchValue('subject:"lunch" a\\b')).toBe('"subject:\\"lunch\\" a\\\\b"');
  });
});

describe("one mailbox failing beside another", () => {
  it("a rate-limited Outlook: Gmail's messages, a warning naming Outlook, and the next page tries it again", async () => {
    graph.inject({ path: /^\/v1\.0\/me\/messages$/, kind: "throttled", retryAfter: 12, times: 1 });
    const res = await rest("service_email_search", { query: "", limit: 3 });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { mailbox: string }) => m.mailbox)).toEqual(["gmail", "gmail", "gmail"]);
    expect(res.body.mailboxes).toEqual(["gmail"]);
    expect(res.body.warnings).toEqual([{ mailbox: "outlook", code: "rate_limited", message: expect.stringContaining("Outlook"), retry_after: 12 }]);
    const place = JSON.parse(Buffer.from(res.body.next_page_token, "base64url").toString()).m;
    expect(place.outlook).toEqual({ k: 0 });
    const next = await rest("service_email_search", { query: "", limit: 3, page_token: res.body.next_page_token });
    expect(next.body.warnings).toEqual([]);
    expect(next.body.messages[0]).toMatchObject({ id: "AAMkOutlook00" });
  });

  it("a failing Outlook is provider_error in the warnings; both failing is the call's error", async () => {
    graph.inject({ path: /^\/v1\.0\/me\/messages$/, kind: "service_unavailable", times: 1 });
    const client = await mcpClient(headersFor(ada.token));
    const partial = await mcpCall(client, "service_email_search", { query: "from:ana" });
    expect(partial.body.warnings).toEqual([{ mailbox: "outlook", code: "provider_error", message: expect.stringContaining("HTTP 503") }]);
    expect(partial.body.messages.length).toBe(3);
    expect(partial.body.next_page_token).toBeNull();

    graph.inject({ path: /^\/v1\.0\/me\/messages$/, kind: "throttled", retryAfter: 9, times: 1 });
    googleApis.inject({ path: /^\/gmail\//, kind: "rate_limit", retryAfter: 9, times: 1 });
    const both = await rest("service_email_search", {});
    expect(both.status).toBe(429);
    expect(both.body.error).toMatchObject({ code: "rate_limited", retry_after: 9 });
    await client.close();
  });

  it("an Outlook needing reconnection is a warning while Gmail answers; alone it is app_needs_reconnect", async () => {
    const bo = await newPerson();
    await connect(bo.id, "gmail");
    await connect(bo.id, "outlook");
    await (await db()).appConnection.update({ where: { userId_app: { userId: bo.id, app: "outlook" } }, data: { status: "needs_reconnect" } });
    const res = await rest("service_email_search", { limit: 2 }, headersFor(bo.token));
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual([{ mailbox: "outlook", code: "app_needs_reconnect", message: expect.stringContaining("service_connect") }]);
    expect(res.body.mailboxes).toEqual(["gmail"]);
    await conn.disconnectApp(bo.id, "gmail");
    const alone = await rest("service_email_search", {}, headersFor(bo.token));
    expect(alone.status).toBe(409);
    expect(alone.body.error).toMatchObject({ code: "app_needs_reconnect", app: "outlook" });
  });
});

describe("the provider's token", () => {
  it("Graph refusing the token: one refresh at Microsoft's token endpoint and the call again", async () => {
    const cy = await newPerson();
    await connect(cy.id, "outlook");
    const before = await storedToken(cy.id, "outlook");
    await microsoft.expireAccessToken(before);
    const tokenCalls = microsoft.tokenRequests();
    const graphMark = graph.requests.length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => rest("service_email_search", { limit: 1 }, headersFor(cy.token))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers[0]!.body.messages[0]).toMatchObject({ mailbox: "outlook" });
    expect(microsoft.tokenRequests() - tokenCalls).toBe(1);
    expect(graph.requests.slice(graphMark).some((r) => r.status === 401)).toBe(true);
    expect(await storedToken(cy.id, "outlook")).not.toBe(before);

    // A refresh Microsoft refuses: the connection needs reconnecting.
    await (
      await db()
    ).appConnection.update({ where: { userId_app: { userId: cy.id, app: "outlook" } }, data: { refreshTokenSealed: sealSecret("connection-token", "not-a-refresh-token") } });
    await microsoft.expireAccessToken(await storedToken(cy.id, "outlook"));
    const refused = await rest("service_email_search", {}, headersFor(cy.token));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "app_needs_reconnect", app: "outlook" });
    expect((await connectionRow(cy.id, "outlook")).status).toBe("needs_reconnect");
  });

  it("Notion refusing the token: one refresh and the call again; a refused refresh is app_needs_reconnect", async () => {
    const di = await newPerson();
    await connect(di.id, "notion");
    const before = await storedToken(di.id, "notion");
    notion.expireAccessToken(before);
    const tokenCalls = notion.tokenRequests();
    const res = await rest("service_notion_search", { query: "project" }, headersFor(di.token));
    expect(res.status).toBe(200);
    expect(notion.tokenRequests() - tokenCalls).toBe(1);
    expect(await storedToken(di.id, "notion")).not.toBe(before);

    const row = await connectionRow(di.id, "notion");
    await fetch(notion.env.NOTION_REVOCATION_URL, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Basic ${Buffer.from("notion-test-client:notion-test-secret").toString("base64")}` },
      body: JSON.stringify({ token: openSecret("connection-token", row.refreshTokenSealed!) }),
    });
    const client = await mcpClient(headersFor(di.token));
    expect((await mcpCall(client, "service_notion_search", {})).body).toMatchObject({ code: "app_needs_reconnect", app: "notion" });
    await client.close();
  });
});

describe("the provider's refusals", () => {
  it("Notion's 403 restricted_resource is permission_needed with a freshly minted link", async () => {
    notion.inject({ path: /^\/v1\/search$/, kind: "restricted_resource", times: 2 });
    const res = await rest("service_notion_search", { query: "project" });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: "permission_needed",
      capability: "notion:read",
      connect_url: expect.stringMatching(/\/connect\/mcc_/),
      expires_at: expect.any(String),
    });
    const client = await mcpClient(headersFor(ada.token));
    expect((await mcpCall(client, "service_notion_search", { query: "project" })).body).toMatchObject({ code: "permission_needed", connect_url: res.body.error.connect_url });
    await client.close();
  });

  it("Graph's 403 ErrorAccessDenied is permission_needed for outlook:read", async () => {
    graph.inject({ path: /^\/v1\.0\/me\/messages$/, kind: "access_denied", times: 1 });
    const res = await rest("service_email_search", {});
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "permission_needed", capability: "outlook:read", connect_url: expect.stringMatching(/\/connect\/mcc_/) });
  });

  it("a 429 is rate_limited with the provider's Retry-After", async () => {
    notion.inject({ path: /^\/v1\/search$/, kind: "rate_limited", retryAfter: 20, times: 2 });
    const res = await rest("service_notion_search", {});
    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ code: "rate_limited", retry_after: 20, app: "notion" });
    expect(res.headers.get("retry-after")).toBe("20");
    const client = await mcpClient(headersFor(ada.token));
    expect((await mcpCall(client, "service_notion_search", {})).body).toMatchObject({ code: "rate_limited", retry_after: 20 });

    const ed = await newPerson();
    await connect(ed.id, "outlook");
    graph.inject({ path: /^\/v1\.0\/me\/messages$/, kind: "throttled", retryAfter: 15, times: 1 });
    const outlookOnly = await rest("service_email_search", {}, headersFor(ed.token));
    expect(outlookOnly.status).toBe(429);
    expect(outlookOnly.body.error).toMatchObject({ code: "rate_limited", retry_after: 15, app: "outlook" });
    await client.close();
  });

  it("a Notion outage is provider_error", async () => {
    notion.inject({ path: /^\/v1\/search$/, kind: "service_unavailable", times: 1 });
    const res = await rest("service_notion_search", {});
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: "provider_error", app: "notion" });
  });
});

describe("fail-closed rules", () => {
  it("an app given to the agent but not connected is app_not_connected, with no link", async () => {
    const fay = await newPerson();
    for (const app of ["notion", "gmail", "outlook"]) await grant(fay.id, `${app}:read`);
    const client = await mcpClient(headersFor(fay.token));
    for (const [name, app] of [
      ["service_notion_search", "notion"],
      ["service_email_search", "gmail"],
    ] as const) {
      const res = await rest(name, {}, headersFor(fay.token));
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: "app_not_connected", app });
      expect(res.body.error.message).toContain("service_connect");
      expect(res.body.error.connect_url).toBeUndefined();
      const viaMcp = await mcpCall(client, name, {});
      expect(viaMcp.body).toMatchObject({ code: "app_not_connected", app });
    }
    expect((await rest("service_email_search", {}, headersFor(fay.token))).body.error.message).toContain('"outlook"');
    await client.close();
  });

  it("refuses X-User-Id and user_id: the Bearer token names the person", async () => {
    const client = await mcpClient(headersFor(ada.token));
    for (const name of ["service_notion_search", "service_email_search"] as const) {
      const named = await rest(name, {}, { ...headersFor(ada.token), "x-user-id": "user-live" });
      expect(named.status).toBe(400);
      expect(named.body.error).toMatchObject({ code: "user_token_required", message: MESSAGES.userTokenRequired });
      expect((await rest(name, { user_id: "user-live" })).body.error.code).toBe("user_token_required");
      expect((await rest(name, {}, { "x-api-key": t.keys.sk, "x-agent": t.agent.handle })).body.error.code).toBe("user_token_required");
      expect((await mcpCall(client, name, { user_id: "user-live" })).body.code).toBe("user_token_required");
    }
    await client.close();
  });
});

describe("sending through Outlook (service_email_send)", () => {
  const sendArgs = (key: string, extra: Record<string, unknown> = {}) => ({
    to: ["bob@example.com"],
    cc: ["carol@example.com"],
    subject: "Lunch?",
    body: "Friday 12:30?\n\nAda",
    mailbox: "outlook",
    idempotency_key: key,
    ...extra,
  });

  it("needs outlook:send, then Microsoft's Mail.Send, then posts /me/sendMail once per key", async () => {
    const gus = await newPerson();
    await connect(gus.id, "outlook");
    const noGrant = await rest("service_email_send", sendArgs("key-outlook-send-01"), headersFor(gus.token));
    expect(noGrant.body.error).toMatchObject({ code: "permission_needed", capability: "outlook:send" });
    await grant(gus.id, "outlook:send");
    const sent = outlookBox.sent.length;
    const noScope = await rest("service_email_send", sendArgs("key-outlook-send-01"), headersFor(gus.token));
    expect(noScope.status).toBe(403);
    expect(noScope.body.error).toMatchObject({ code: "permission_needed", capability: "outlook:send", connect_url: expect.any(String) });
    expect(outlookBox.sent.length).toBe(sent);

    // The link's consent asks Microsoft for Mail.Send beside the reading scopes.
    expect(await conn.capabilityConsentNeeded({ userId: gus.id, capability: "outlook:send" })).toBe("outlook");
    const { url } = await conn.startConnection({ app: "outlook", userId: gus.id, capability: "outlook:send" });
    expect(url.searchParams.get("scope")).toBe("offline_access User.Read Mail.Read Mail.Send");
    await connect(gus.id, "outlook", "outlook:send");
    expect(await conn.capabilityConsentNeeded({ userId: gus.id, capability: "outlook:send" })).toBeNull();

    const client = await mcpClient(headersFor(gus.token));
    const done = await mcpCall(client, "service_email_send", sendArgs("key-outlook-send-01"));
    expect(done).toEqual({ ok: true, body: { sent: true, mailbox: "outlook", message_id: null, thread_id: null } });
    expect(await rest("service_email_send", sendArgs("key-outlook-send-01"), headersFor(gus.token))).toMatchObject({ status: 200, body: done.body });
    expect(outlookBox.sent.length).toBe(sent + 1);
    expect(outlookBox.sent.at(-1)).toEqual({
      kind: "sendMail",
      saveToSentItems: true,
      message: {
        subject: "Lunch?",
        body: { contentType: "Text", content: "Friday 12:30?\n\nAda" },
        toRecipients: [{ emailAddress: { address: "bob@example.com" } }],
        ccRecipients: [{ emailAddress: { address: "carol@example.com" } }],
      },
    });

    // A reply answers the message in its conversation.
    const reply = await rest("service_email_send", sendArgs("key-outlook-reply-1", { reply_to: "AAMkOutlook03", cc: [] }), headersFor(gus.token));
    expect(reply.status).toBe(200);
    expect(outlookBox.sent.at(-1)).toMatchObject({ kind: "reply", replyTo: "AAMkOutlook03", message: { body: { contentType: "Text", content: "Friday 12:30?\n\nAda" } } });
    const unknown = await rest("service_email_send", sendArgs("key-outlook-reply-2", { reply_to: "AAMkNoSuchMessage" }), headersFor(gus.token));
    expect(unknown.status).toBe(502);
    expect(unknown.body.error).toMatchObject({ code: "provider_error", app: "outlook" });
    await client.close();
  });
});

describe("development connections", () => {
  it("answer Outlook and Notion from synthetic data, never over the network", async () => {
    const hal = await newPerson();
    for (const app of ["outlook", "notion"]) {
      await (
        await db()
      ).appConnection.create({
        data: {
          userId: hal.id,
          app,
          provider: "development",
          accountId: "development:hal.jordan@example.com",
          accountEmail: "hal.jordan@example.com",
          scopes: [],
          accessTokenSealed: sealSecret("connection-token", "dev_token"),
        },
      });
      await grant(hal.id, `${app}:read`);
    }
    const marks = [graph.requests.length, notion.requests.length, googleApis.requests.length];
    const mail = await rest("service_email_search", { limit: 2 }, headersFor(hal.token));
    expect(mail.status).toBe(200);
    expect(mail.body.messages.map((m: { mailbox: string }) => m.mailbox)).toEqual(["outlook", "outlook"]);
    const rest2 = await rest("service_email_search", { limit: 2, page_token: mail.body.next_page_token }, headersFor(hal.token));
    expect(rest2.body.messages).toHaveLength(2);
    expect(rest2.body.next_page_token).toBeNull();
    expect((await rest("service_email_search", { query: "laptop" }, headersFor(hal.token))).body.messages.map((m: { subject: string }) => m.subject)).toEqual([
      "Your laptop replacement",
    ]);
    const pages = await rest("service_notion_search", { query: "kyoto" }, headersFor(hal.token));
    expect(pages.body.results).toEqual([{ id: "dev-page-0002-kyoto", object: "page", title: "Kyoto trip itinerary", url: null, last_edited_time: expect.any(String) }]);
    expect((await rest("service_notion_search", { type: "database" }, headersFor(hal.token))).body.results.map((r: { title: string }) => r.title)).toEqual(["Reading list"]);
    const outlookSnap = await snapshotOutlook(await usable(hal.id, "outlook"));
    expect(outlookSnap.items[0]).toMatchObject({
      kind: "sent_mail",
      from_name: "Hal Jordan",
      from_address: "hal.jordan@example.com",
      signature: "Hal Jordan\nProduct designer, Startup Ltd",
    });
    expect((await snapshotNotion(await usable(hal.id, "notion"))).items.map((i) => (i.kind === "document" ? i.title : ""))).toContain("Kyoto trip itinerary");
    expect([graph.requests.length, notion.requests.length, googleApis.requests.length]).toEqual(marks);
  });
});

describe("snapshots for the memories distiller", () => {
  it("Outlook: the sender's name and the signature block of sent messages, read as text, nothing else of the body", async () => {
    const graphMark = graph.requests.length;
    const snap = await snapshotOutlook(await usable(ada.id, "outlook"));
    const read = graph.requests.slice(graphMark)[0]!;
    expect(read.path).toBe("/v1.0/me/mailFolders/sentitems/messages");
    expect(read.headers.prefer).toBe('outlook.body-content-type="text"');
    expect(read.query.get("$orderby")).toBe("sentDateTime desc");
    const mine = snap.items.find((i) => i.kind === "sent_mail" && i.date === new Date(started - 100 * HOUR).toISOString().replace(/\.\d{3}Z$/, ".000Z"))!;
    expect(mine).toEqual({
      kind: "sent_mail",
      from_name: "Ada Lovelace",
      from_address: "ada@contoso.example",
      signature: "Best,\nAda Lovelace\nAnalyst, Analytical Engine Ltd",
      date: expect.any(String),
    });
    expect(JSON.stringify(snap)).not.toContain("Ivory");
    expect(JSON.stringify(snap)).not.toContain("Marta");
  });

  it("Notion: the titles of recently edited pages, untitled ones left out", async () => {
    const mark = notion.requests.length;
    const snap = await snapshotNotion(await usable(ada.id, "notion"));
    expect(notion.requests[mark]!.body).toEqual({ sort: { direction: "descending", timestamp: "last_edited_time" }, filter: { property: "object", value: "page" }, page_size: 10 });
    expect(snap.items[0]).toEqual({ kind: "document", title: "Project plan 0", modified: new Date(started).toISOString() });
    expect(snap.items.every((i) => i.kind === "document" && i.title !== "Untitled")).toBe(true);
  });
});

describe("the access log", () => {
  it("has each call with its tool, surface and outcome", async () => {
    const ivy = await newPerson();
    await connect(ivy.id, "notion");
    const client = await mcpClient(headersFor(ivy.token));
    await rest("service_notion_search", { query: "project" }, headersFor(ivy.token));
    await mcpCall(client, "service_notion_search", { query: "project" });
    await rest("service_email_search", {}, headersFor(ivy.token));
    await mcpCall(client, "service_email_search", {});
    notion.inject({ path: /^\/v1\/search$/, kind: "rate_limited", retryAfter: 3, times: 1 });
    await rest("service_notion_search", {}, headersFor(ivy.token));
    await client.close();
    await flushAccessLog();
    const rows = await (await db()).accessLogEntry.findMany({ where: { userId: ivy.id }, orderBy: { at: "asc" } });
    expect(rows.filter((r) => r.action.startsWith("service_")).map((r) => [r.action, r.surface, r.outcome])).toEqual([
      ["service_notion_search", "rest", "ok"],
      ["service_notion_search", "mcp", "ok"],
      ["service_email_search", "rest", "permission_needed"],
      ["service_email_search", "mcp", "permission_needed"],
      ["service_notion_search", "rest", "rate_limited"],
    ]);
    expect(rows.every((r) => r.agentId === t.agent.id && r.plane === "live")).toBe(true);
  });
});
