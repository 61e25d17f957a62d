// The person's access log: every call an agent makes for them (a profile route, a profile tool on
// MCP, a connector tool on either) with the agent, its developer, the route or tool, the time and
// the outcome; read by the person alone a page at a time; downloaded as CSV or JSON with their
// session only; swept past its retention.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { encode } from "next-auth/jwt";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as csvRoute } from "@/app/(hosted)/account/access-log.csv/route";
import { GET as jsonRoute } from "@/app/(hosted)/account/access-log.json/route";
import { DELETE as mcpDelete, GET as mcpGet, POST as mcpPost } from "@/app/mcp/route";
import { GET as profileRoute } from "@/app/v1/profile/route";
import { POST as rememberRoute } from "@/app/v1/profile/remember/route";
import { POST as gmailSearchRoute } from "@/app/v1/tools/service_gmail_search/route";
import { GET as agentsRoute } from "@/app/v1/agents/route";
import { AccessLogSection } from "@/components/account/access-log";
import { ACCESS_LOG_RETENTION_DAYS, accessLogOf, flushAccessLog, recordAccess, type AccessLogRow } from "@/lib/access-log/access-log";
import { ACCESS_LOG_COLUMNS, csvField } from "@/lib/access-log/export";
import { ACCESS_LOG_PAGE_SIZE, accessLogPage, type AccessLogPage } from "@/lib/access-log/pages";
import { createAgent } from "@/lib/agents/agents";
import { issueApiKey } from "@/lib/api-keys/api-keys";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { advanceClockForTests, now, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { createDeveloper } from "@/lib/developers/developers";
import { env } from "@/lib/env";
import { sweepExpired } from "@/lib/maintenance/sweep";
import { approveAgent } from "@/lib/users/approvals";
import { createUser } from "@/lib/users/users";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant(undefined, "other-agent");
});
afterEach(() => resetClockForTests());

async function sessionCookie(userId: string): Promise<string> {
  return `authjs.session-token=${await encode({ token: { sub: userId }, secret: env().AUTH_SECRET, salt: "authjs.session-token" })}`;
}

async function mcpClient(headers: Record<string, string>) {
  const client = new Client({ name: "access-log-test", version: "1.0.0" });
  const fetch = async (url: string | URL, init?: RequestInit) => {
    const req = new Request(url, init);
    return req.method === "POST" ? mcpPost(req) : req.method === "DELETE" ? mcpDelete() : mcpGet();
  };
  await client.connect(new StreamableHTTPClientTransport(new URL("http://localhost:3000/mcp"), { requestInit: { headers }, fetch }));
  return client;
}

function toolError(result: Awaited<ReturnType<Client["callTool"]>>): { code: string } {
  const r = result as CallToolResult;
  expect(r.isError).toBe(true);
  return (JSON.parse((r.content[0] as { text: string }).text) as { error: { code: string } }).error;
}

/** A person with a developer and agent of their own, and the agent approved: a log nobody else writes to. */
async function person(agentName = "Helper") {
  const developer = await createDeveloper({ name: `Dev ${Math.random().toString(36).slice(2, 8)}` });
  const agent = await createAgent({ developerId: developer.id, handle: `h${Math.random().toString(36).slice(2, 10)}`, displayName: agentName });
  const user = await createUser({ plane: "live", phone: `+1415${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}` });
  await approveAgent({ userId: user.id, agentId: agent.id });
  return { developer, agent, user };
}

/**
 * Entries written straight to the table, `count` of them, all at `at` unless `spacingMs` spaces them
 * (each older than the last); `numbered` tells them apart by their outcome, e0, e1, ….
 */
async function seed(input: { userId: string; agentId: string; count: number; at: Date; spacingMs?: number; action?: string; outcome?: string; numbered?: boolean }) {
  await (
    await db()
  ).accessLogEntry.createMany({
    data: Array.from({ length: input.count }, (_, i) => ({
      userId: input.userId,
      agentId: input.agentId,
      agentName: "Seeded agent",
      plane: "live" as const,
      surface: "rest",
      action: input.action ?? `GET /v1/profile`,
      outcome: input.numbered ? `e${i}` : (input.outcome ?? "ok"),
      at: new Date(input.at.getTime() - i * (input.spacingMs ?? 0)),
    })),
  });
}

/** RFC 4180, enough to read back what the export wrote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field || row.length) throw new Error(`CSV does not end with CRLF: ${JSON.stringify(text.slice(-40))}`);
  return rows;
}

describe("recording", () => {
  it("records a REST profile route call and an MCP profile tool call, with agent, developer, route or tool, surface and outcome", async () => {
    const userId = t.users.live.id;
    expect((await call(profileRoute, { headers: liveHeaders(t) })).status).toBe(200);
    expect((await call(rememberRoute, { headers: liveHeaders(t), body: {} })).body.error.code).toBe("invalid_request");

    const client = await mcpClient({ "x-api-key": t.keys.sk, "x-agent": t.agent.handle, "x-user-id": "user-live" });
    expect((await client.callTool({ name: "service_profile_read", arguments: {} })).isError ?? false).toBe(false);
    const missing = toolError(await client.callTool({ name: "service_profile_forget", arguments: { id: "mem_000000000000000000000000", confirm: true } }));
    await client.close();

    const { entries } = await accessLogPage(userId);
    // Calls that named no conversation (no MCP session, no X-Service-Conversation-Id) record none.
    const base = { agent: "Assistant", developer: t.developer.name, livemode: true, conversation: null, turn: null };
    expect(entries.slice(0, 4)).toEqual([
      { ...base, at: expect.any(String), action: "service_profile_forget", surface: "mcp", outcome: missing.code },
      { ...base, at: expect.any(String), action: "service_profile_read", surface: "mcp", outcome: "ok" },
      { ...base, at: expect.any(String), action: "POST /v1/profile/remember", surface: "rest", outcome: "invalid_request" },
      { ...base, at: expect.any(String), action: "GET /v1/profile", surface: "rest", outcome: "ok" },
    ]);
    expect(entries).toHaveLength(4);
    // Newest first, at the service's clock.
    const times = entries.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(Math.abs(times[0]! - now().getTime())).toBeLessThan(60_000);
  });

  it("records connector tool calls on REST and MCP with their error code, and nothing for calls that named nobody", async () => {
    const p = await person("Mail Helper");
    const sk = (await issueApiKey({ developerId: p.developer.id, kind: "secret", plane: "live" })).key;
    const { token } = await issueAgentToken({ userId: p.user.id, developerId: p.developer.id, agentId: p.agent.id, agent: p.agent.handle, plane: "live" });
    const headers = { "x-api-key": sk, "x-agent": p.agent.handle, authorization: `Bearer ${token}` };

    // Gmail not given to this agent: permission_needed. Given but not connected: app_not_connected.
    const refused = await call(gmailSearchRoute, { headers, body: { query: "invoice" } });
    expect(refused.body.error.code).toBe("permission_needed");
    await (await db()).capabilityGrant.create({ data: { userId: p.user.id, agentId: p.agent.id, capability: "gmail:read" } });
    const rest = await call(gmailSearchRoute, { headers, body: { query: "invoice" } });
    expect(rest.body.error.code).toBe("app_not_connected");
    const client = await mcpClient(headers);
    expect(toolError(await client.callTool({ name: "service_gmail_search", arguments: { query: "invoice" } })).code).toBe("app_not_connected");
    await client.close();

    // Refused before anyone was named, or a route that acts for nobody: not the person's business.
    expect((await call(profileRoute, { headers: { ...headers, "x-api-key": "sk_live_wrong" } })).status).toBe(401);
    expect((await call(agentsRoute, { headers: { "x-api-key": sk } })).status).toBe(200);

    const { entries } = await accessLogPage(p.user.id);
    expect(entries.map((e) => [e.action, e.surface, e.outcome, e.agent, e.developer])).toEqual([
      ["service_gmail_search", "mcp", "app_not_connected", "Mail Helper", p.developer.name],
      ["service_gmail_search", "rest", "app_not_connected", "Mail Helper", p.developer.name],
      ["service_gmail_search", "rest", "permission_needed", "Mail Helper", p.developer.name],
    ]);
  });

  it("keeps entries without any of the call's content", async () => {
    const p = await person();
    const sk = (await issueApiKey({ developerId: p.developer.id, kind: "secret", plane: "live" })).key;
    const { token } = await issueAgentToken({ userId: p.user.id, developerId: p.developer.id, agentId: p.agent.id, agent: p.agent.handle, plane: "live" });
    const secret = "my-bank-password-hunter2";
    expect(
      (await call(rememberRoute, { headers: { "x-api-key": sk, "x-agent": p.agent.handle, authorization: `Bearer ${token}` }, body: { text: `Remember ${secret}` } })).status,
    ).toBe(201);
    await flushAccessLog();
    const rows = await (await db()).accessLogEntry.findMany({ where: { userId: p.user.id } });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(Object.keys(rows[0]!).sort()).toEqual(["action", "agentId", "agentName", "at", "conversation", "id", "outcome", "plane", "surface", "turn", "userId"]);
  });
});

describe("a batch written after its people or agents changed", () => {
  it("writes the batch, leaving out a person deleted meanwhile and keeping an agent deleted meanwhile by its name", async () => {
    const stays = await person("Stays");
    const leaves = await person("Leaves");
    const gone = await person("Gone agent");
    recordAccess({ userId: stays.user.id, agentId: stays.agent.id, agentName: "Stays", plane: "live", surface: "rest", action: "GET /v1/profile", outcome: "ok" });
    recordAccess({ userId: leaves.user.id, agentId: leaves.agent.id, agentName: "Leaves", plane: "live", surface: "mcp", action: "service_profile_read", outcome: "ok" });
    recordAccess({
      userId: gone.user.id,
      agentId: gone.agent.id,
      agentName: "Gone agent",
      plane: "live",
      surface: "rest",
      action: "POST /v1/profile/remember",
      outcome: "invalid_format",
    });
    // Before the batch is written: one person deletes their account, another's agent is deleted.
    await (await db()).user.delete({ where: { id: leaves.user.id } });
    await (await db()).agent.delete({ where: { id: gone.agent.id } });
    await flushAccessLog();
    expect(await accessLogOf(stays.user.id)).toEqual([expect.objectContaining({ agent: "Stays", action: "GET /v1/profile", surface: "rest", outcome: "ok", livemode: true })]);
    expect(await (await db()).accessLogEntry.count({ where: { userId: leaves.user.id } })).toBe(0);
    const [kept] = await (await db()).accessLogEntry.findMany({ where: { userId: gone.user.id } });
    expect(kept).toMatchObject({ agentId: null, agentName: "Gone agent", action: "POST /v1/profile/remember", outcome: "invalid_format", surface: "rest", plane: "live" });
  });
});

describe("an agent deleted later", () => {
  it("leaves the person's entries, under the name the agent had when it called", async () => {
    const p = await person("Departed helper");
    await seed({ userId: p.user.id, agentId: p.agent.id, count: 1, at: new Date() });
    await (await db()).accessLogEntry.updateMany({ where: { userId: p.user.id }, data: { agentName: "Departed helper" } });
    await (await db()).agent.delete({ where: { id: p.agent.id } });
    const [row] = await accessLogOf(p.user.id);
    expect(row).toMatchObject({ agent: "Departed helper", developer: "(removed)", action: "GET /v1/profile" });
  });
});

describe("reading, a page at a time", () => {
  it("shows the person only their own entries", async () => {
    // The other tenant's live person, and this developer's test-plane person, each with calls of their own.
    expect((await call(profileRoute, { headers: { "x-api-key": other.keys.sk, "x-agent": other.agent.handle, "x-user-id": "user-live" } })).status).toBe(200);
    expect((await call(profileRoute, { headers: { "x-api-key": t.keys.skTest, "x-agent": t.agent.handle, "x-user-id": "user-test" } })).status).toBe(200);
    const mine = await accessLogOf(t.users.live.id, { take: 1000 });
    const theirs = await accessLogOf(other.users.live.id, { take: 1000 });
    const test = await accessLogOf(t.users.test.id, { take: 1000 });
    expect(theirs).toEqual([expect.objectContaining({ agent: "Assistant", developer: other.developer.name, action: "GET /v1/profile" })]);
    expect(test).toEqual([expect.objectContaining({ livemode: false, developer: t.developer.name })]);
    expect(mine.some((e) => e.developer === other.developer.name || !e.livemode)).toBe(false);

    // The download with one person's session holds that person's entries only.
    const file = await call(jsonRoute, { path: "/account/access-log.json", headers: { cookie: await sessionCookie(other.users.live.id) } });
    expect(file.body.entries).toEqual(theirs);
  });

  it("pages by cursor, newest first, without skipping or repeating entries made in the same millisecond", async () => {
    const p = await person();
    const at = new Date(now().getTime() - 60_000);
    // 30 entries in one millisecond, then 32 a second apart before them: 62, two and a half pages.
    await seed({ userId: p.user.id, agentId: p.agent.id, count: 30, at, numbered: true });
    await seed({ userId: p.user.id, agentId: p.agent.id, count: 32, at: new Date(at.getTime() - 1000), spacingMs: 1000, action: "GET /v1/profile/search", numbered: true });
    const all = await (await db()).accessLogEntry.findMany({ where: { userId: p.user.id }, orderBy: [{ at: "desc" }, { id: "desc" }] });

    const pages: AccessLogPage[] = [await accessLogPage(p.user.id)];
    expect(pages[0]).toMatchObject({ newest: true, newer: null, older: expect.any(String) });
    while (pages.at(-1)!.older) pages.push(await accessLogPage(p.user.id, { before: pages.at(-1)!.older }));
    expect(pages.map((pg) => pg.entries.length)).toEqual([ACCESS_LOG_PAGE_SIZE, ACCESS_LOG_PAGE_SIZE, 62 - 2 * ACCESS_LOG_PAGE_SIZE]);
    const walked = pages.flatMap((pg) => pg.entries);
    expect(walked.map((e) => [e.at, e.action, e.outcome])).toEqual(all.map((e) => [e.at.toISOString(), e.action, e.outcome]));
    expect(new Set(walked.map((e) => `${e.action} ${e.outcome}`)).size).toBe(62);
    // Cursors name entries, not times: the page boundary falls inside the shared millisecond.
    expect(pages[1]!.entries[0]!.at).toBe(at.toISOString());
    expect(pages[0]!.older!.split("_")[1]).toBe(all[ACCESS_LOG_PAGE_SIZE - 1]!.id);
    expect(pages[1]).toMatchObject({ newest: false, newer: expect.any(String) });
    expect(pages[2]).toMatchObject({ older: null });

    // Back again: newer from the last page is the middle page, and newer from there the newest, whole.
    const middle = await accessLogPage(p.user.id, { after: pages[2]!.newer });
    expect(middle.entries).toEqual(pages[1]!.entries);
    expect(middle).toMatchObject({ older: pages[1]!.older, newer: pages[1]!.newer, newest: false });
    const top = await accessLogPage(p.user.id, { after: middle.newer });
    expect(top).toEqual(pages[0]);
  });

  it("reads a malformed or hostile cursor as none, and a cursor past the end as an empty page", async () => {
    const p = await person();
    await seed({ userId: p.user.id, agentId: p.agent.id, count: 3, at: now(), spacingMs: 10 });
    const newest = await accessLogPage(p.user.id);
    for (const cursor of [
      "",
      "x",
      "__proto__",
      "1_2",
      `${"9".repeat(40)}_00000000-0000-0000-0000-000000000000`,
      "12_not-a-uuid",
      "\u0000",
      "1732467123456_3F2C0000-0000-4000-8000-000000000000",
    ]) {
      expect(await accessLogPage(p.user.id, { before: cursor })).toEqual(newest);
      expect(await accessLogPage(p.user.id, { after: cursor })).toEqual(newest);
    }
    const ancient = await accessLogPage(p.user.id, { before: "1000_00000000-0000-4000-8000-000000000000" });
    expect(ancient).toEqual({ entries: [], older: null, newer: null, newest: false });
  });

  it("never reads another person's entries through a cursor", async () => {
    const a = await person();
    const b = await person();
    await seed({ userId: a.user.id, agentId: a.agent.id, count: 5, at: now(), spacingMs: 10 });
    await seed({ userId: b.user.id, agentId: b.agent.id, count: 5, at: now(), spacingMs: 10, action: "GET /v1/profile/search" });
    const [bFirst] = await (await db()).accessLogEntry.findMany({ where: { userId: b.user.id }, orderBy: { at: "desc" }, take: 1 });
    const cursor = `${bFirst!.at.getTime() + 1}_${bFirst!.id}`;
    const page = await accessLogPage(a.user.id, { before: cursor });
    expect(page.entries.every((e) => e.action === "GET /v1/profile")).toBe(true);
  });
});

describe("the download", () => {
  it("answers the signed-in person's log as CSV: an attachment, never cached, formulas defused", async () => {
    const developer = await createDeveloper({ name: '+Acme, "the" Company\nLtd' });
    const agent = await createAgent({ developerId: developer.id, handle: "formula-agent", displayName: '=HYPERLINK("https://evil.example","Click")' });
    const user = await createUser({ plane: "live", phone: `+1415${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}` });
    await seed({ userId: user.id, agentId: agent.id, count: 1, at: new Date(now().getTime() - 5000), action: "@SUM(A1)", outcome: "-1+1" });
    await seed({ userId: user.id, agentId: agent.id, count: 1, at: new Date(now().getTime() - 1000), action: "service_gmail_search", outcome: "ok" });

    const res = await csvRoute(new Request("http://localhost:3000/account/access-log.csv", { headers: { cookie: await sessionCookie(user.id) } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="access-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await res.text();
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([...ACCESS_LOG_COLUMNS]);
    expect(rows.slice(1)).toEqual([
      [expect.any(String), `'=HYPERLINK("https://evil.example","Click")`, `'+Acme, "the" Company\nLtd`, "service_gmail_search", "rest", "ok", "true", "", ""],
      [expect.any(String), `'=HYPERLINK("https://evil.example","Click")`, `'+Acme, "the" Company\nLtd`, "'@SUM(A1)", "rest", "'-1+1", "true", "", ""],
    ]);
    // No line starts a cell with a formula character outside quotes.
    expect(text).toContain(`"'=HYPERLINK(""https://evil.example"",""Click"")"`);
  });

  it("answers JSON with the same entries, and streams a log longer than one batch", async () => {
    const p = await person();
    await seed({ userId: p.user.id, agentId: p.agent.id, count: 1203, at: now(), spacingMs: 1 });
    const cookie = await sessionCookie(p.user.id);
    const res = await jsonRoute(new Request("http://localhost:3000/account/access-log.json", { headers: { cookie } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="access-log-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { exported_at: string; retention_days: number; entries: AccessLogRow[] };
    expect(body.retention_days).toBe(ACCESS_LOG_RETENTION_DAYS);
    expect(body.entries).toHaveLength(1203);
    expect(body.entries).toEqual(await accessLogOf(p.user.id, { take: 2000 }));
    expect(Object.keys(body.entries[0]!)).toEqual([...ACCESS_LOG_COLUMNS]);

    const csv = parseCsv(await (await csvRoute(new Request("http://localhost:3000/account/access-log.csv", { headers: { cookie } }))).text());
    expect(csv).toHaveLength(1204);
    expect(csv.slice(1).map((r) => r[0])).toEqual(body.entries.map((e) => e.at));
  });

  it("answers an empty log as a header row, or an empty list", async () => {
    const p = await person();
    const cookie = await sessionCookie(p.user.id);
    expect(await (await csvRoute(new Request("http://localhost:3000/account/access-log.csv", { headers: { cookie } }))).text()).toBe(`${ACCESS_LOG_COLUMNS.join(",")}\r\n`);
    expect(await (await jsonRoute(new Request("http://localhost:3000/account/access-log.json", { headers: { cookie } }))).json()).toMatchObject({ entries: [] });
  });

  it("is never reached without the person's session: API keys and Bearer tokens go to the account page", async () => {
    const { token } = await issueAgentToken({ userId: t.users.live.id, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" });
    const credentials: Record<string, string>[] = [
      {},
      liveHeaders(t),
      { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, authorization: `Bearer ${token}` },
      { authorization: `Bearer ${token}` },
      { cookie: "authjs.session-token=forged" },
      { cookie: `authjs.session-token=${await encode({ token: { sub: t.users.live.id }, secret: "another-secret-entirely-32-bytes-long", salt: "authjs.session-token" })}` },
    ];
    for (const route of [csvRoute, jsonRoute]) {
      for (const headers of credentials) {
        const res = await route(new Request("http://localhost:3000/account/access-log.csv", { headers }));
        expect(res.status).toBe(303);
        expect(res.headers.get("location")).toBe("http://localhost:3000/account");
        expect(res.headers.get("cache-control")).toBe("no-store");
        expect(await res.text()).toBe("");
      }
    }
  });
});

describe("CSV fields", () => {
  it("quotes and defuses each field", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField(true)).toBe("true");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
    for (const lead of ["=", "+", "-", "@"]) expect(csvField(`${lead}1+1`)).toBe(`'${lead}1+1`);
    expect(csvField("\t=1")).toBe("'\t=1");
    expect(csvField("\r=1")).toBe('"\'\r=1"');
    expect(csvField("=A1,B1")).toBe(`"'=A1,B1"`);
    expect(csvField("a=b")).toBe("a=b");
    expect(csvField("")).toBe("");
  });
});

describe("the account page's section", () => {
  const row = (over: Partial<AccessLogRow> = {}): AccessLogRow => ({
    at: "2026-11-24T16:32:05.123Z",
    agent: "Assistant",
    developer: "Acme",
    action: "service_gmail_search",
    surface: "mcp",
    outcome: "ok",
    livemode: true,
    ...over,
  });
  const render = (page: AccessLogPage) => renderToStaticMarkup(createElement(AccessLogSection, { page, retentionDays: ACCESS_LOG_RETENTION_DAYS }));

  it("is a table with a caption, column and row headers and time elements, and the download links", () => {
    const html = render({
      entries: [row(), row({ action: "POST /v1/profile/remember", surface: "rest", outcome: "permission_needed", agent: "<script>x</script>" })],
      older: "1_a",
      newer: null,
      newest: true,
    });
    expect(html).toContain('<section id="access-log" aria-labelledby="access-log-title"');
    expect(html).toMatch(/<table[^>]*>\s*<caption class="sr-only">Calls agents made for you, newest first<\/caption>/);
    expect([...html.matchAll(/<th scope="col"[^>]*>([^<]*)<\/th>/g)].map((m) => m[1])).toEqual(["Time", "Agent", "Tool or route", "Outcome"]);
    expect(html.match(/<th scope="row"/g)).toHaveLength(2);
    expect(html).toContain('<time dateTime="2026-11-24T16:32:05.123Z">24 Nov 2026, 16:32:05 UTC</time>');
    expect(html).toContain("Searched your Gmail");
    expect(html).toContain("Added a memory");
    expect(html).toContain("Needed your permission");
    expect(html).toContain("&lt;script&gt;x&lt;/script&gt;");
    expect(html).not.toContain("<script>x");
    // The list phones see, with the same labels.
    expect(html).toContain('<ul aria-label="Calls agents made for you, newest first"');
    expect(html).toContain('<nav aria-label="Access log pages"');
    expect(html).toContain('href="/account?before=1_a#access-log" rel="next"');
    expect(html).not.toContain("Newest entries");
    expect(html).not.toContain("Newer entries");
    expect(html).toContain('href="/account/access-log.csv" download=""');
    expect(html).toContain('href="/account/access-log.json" download=""');
  });

  it("offers the way back on older pages, and says so when a person has no entries", () => {
    const older = render({ entries: [row()], older: null, newer: "2_b", newest: false });
    expect(older).toContain('href="/account#access-log"');
    expect(older).toContain('href="/account?after=2_b#access-log" rel="prev"');
    expect(older).not.toContain("Older entries");

    const empty = render({ entries: [], older: null, newer: null, newest: true });
    expect(empty).toContain("No agent has acted for you yet.");
    expect(empty).not.toContain("<table");
    expect(empty).not.toContain("access-log.csv");
    expect(empty).not.toContain("<nav");

    const past = render({ entries: [], older: null, newer: null, newest: false });
    expect(past).toContain("No entries here");
    expect(past).toContain('href="/account#access-log"');
  });
});

describe("retention", () => {
  it("the sweep deletes entries past their retention and keeps the rest", async () => {
    const p = await person();
    const day = 24 * 3600 * 1000;
    await seed({ userId: p.user.id, agentId: p.agent.id, count: 1, at: new Date(now().getTime() - (ACCESS_LOG_RETENTION_DAYS - 1) * day) });
    await seed({ userId: p.user.id, agentId: p.agent.id, count: 1, at: now() });
    expect((await sweepExpired()).access_log).toBe(0);
    advanceClockForTests(2 * day);
    const swept = await sweepExpired();
    expect(swept.access_log).toBe(1);
    const left = await accessLogOf(p.user.id);
    expect(left).toHaveLength(1);
    expect(Date.parse(left[0]!.at)).toBeGreaterThan(now().getTime() - 3 * day);
  });
});
