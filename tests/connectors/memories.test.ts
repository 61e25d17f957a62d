// Memories from connected apps (lib/connectors/memories, lib/profile/distill/apps.ts): the built-in
// rules on each app's snapshot, the LLM driver's app facts against a local chat-completions server,
// runs over development connections (the sandbox's Gmail, /dev/connect apps) and over Google's REST
// APIs (a local server speaking them), the jobs on connect, at a flow's end and daily (one at a time
// per connection), dedupe and replacement on re-runs, hiding that survives them, deletion on
// disconnect, and what the receipt and the account page read.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as decide } from "@/app/(hosted)/dev/connect/decide/route";
import { POST as forgetRoute } from "@/app/v1/profile/forget/route";
import type { AppSnapshot } from "@/lib/profile/distill/snapshot";
import { db } from "@/lib/platform/db";
import { resetEnvForTests } from "@/lib/env";
import { builtinDistiller, distillerFromSettings, MAX_APP_FACTS } from "@/lib/profile/distill";
import { createLlmDistiller } from "@/lib/profile/distill/llm";
import { createTenant } from "../helpers/fixtures";
import { atMailboxPage } from "../helpers/flows";
import { startGoogleApis } from "../helpers/google-apis";
import { startGoogleProvider } from "../helpers/google-provider";
import { call } from "../helpers/http";

beforeEach(() => {
  process.env.CONNECT_DRIVER = "development";
  resetEnvForTests();
});
afterEach(() => {
  delete process.env.CONNECT_DRIVER;
  resetEnvForTests();
});

const NOW = new Date("2026-11-24T10:00:00.000Z");
const distil = (snapshot: AppSnapshot, now = NOW) => builtinDistiller.distillApp({ snapshot, now });
const texts = async (snapshot: AppSnapshot) => (await distil(snapshot)).facts.map((f) => f.text);

/** Memories of a source, visible and hidden. */
async function memoriesOf(userId: string, source: string) {
  return (await db()).memory.findMany({ where: { userId, source }, orderBy: { text: "asc" } });
}

/** A connection with no provider behind it (as /dev/connect and the sandbox make them). */
async function devConnection(userId: string, app: string, email = "sam.rivera@example.com") {
  const { sealConnectionToken } = await import("@/lib/connectors/connections");
  return (await db()).appConnection.create({
    data: { userId, app, provider: "development", accountId: `development:${email}`, accountEmail: email, accessTokenSealed: sealConnectionToken("dev_token") },
  });
}

async function until<T>(probe: () => Promise<T | null | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function consent(url: URL, email: string): Promise<URL> {
  const form = new FormData();
  for (const k of ["app", "state", "code_challenge", "redirect_uri"]) form.set(k, url.searchParams.get(k)!);
  form.set("decision", "allow");
  form.set("email", email);
  const answer = await decide(new Request("http://localhost:3000/dev/connect/decide", { method: "POST", body: form }));
  return new URL(answer.headers.get("location")!);
}

describe("the built-in rules, per app", () => {
  const mail = (app: "gmail" | "outlook"): AppSnapshot => ({
    app,
    account_email: "sam.rivera@example.com",
    items: [
      {
        kind: "sent_mail",
        from_name: "Sam Rivera",
        from_address: "sam.rivera@example.com",
        signature: "Best,\nSam Rivera | Senior Product Designer, Travel Co\n+1 (415) 555-0100 · sam.rivera@example.com\nshe/her\nhttps://sam.design",
        date: "2026-11-20T09:00:00.000Z",
      },
      { kind: "sent_mail", from_name: "Sam Rivera", from_address: "sam.rivera@example.com", signature: null, date: "2026-11-21T09:00:00.000Z" },
      { kind: "sent_mail", from_name: "Travel Co Support", from_address: "support@travel.example", signature: null, date: "2026-11-19T09:00:00.000Z" },
    ],
  });

  it("Gmail and Outlook: the name on sent mail, how it is signed, the job title and pronouns; never a contact detail", async () => {
    for (const app of ["gmail", "outlook"] as const) {
      const { facts } = await distil(mail(app));
      expect(facts).toEqual([
        { text: "Is called Sam Rivera", kind: "name", box: "identity", key: "name:rivera sam", at: new Date("2026-11-21T09:00:00.000Z"), items: [0, 1] },
        { text: "Signs emails as Sam Rivera", kind: "preference", box: "preferences", key: "preference:sign:rivera sam", at: new Date("2026-11-20T09:00:00.000Z"), items: [0] },
        {
          text: "Works as a senior product designer at Travel Co",
          kind: "work",
          box: "work",
          key: "work:co designer product senior travel",
          at: new Date("2026-11-20T09:00:00.000Z"),
          items: [0],
        },
        { text: "Uses she/her pronouns", kind: "preference", box: "preferences", key: "preference:pronouns:her she", at: new Date("2026-11-20T09:00:00.000Z"), items: [0] },
      ]);
      expect(JSON.stringify(facts)).not.toMatch(/555|@|sam\.design/);
    }
  });

  it("reads a title with its field and employer, and a plain sign-off without a name", async () => {
    const one = (signature: string): AppSnapshot => ({
      app: "gmail",
      account_email: null,
      items: [{ kind: "sent_mail", from_name: null, from_address: "a@b.example", signature, date: "2026-11-20T09:00:00Z" }],
    });
    expect(await texts(one("Director of Engineering at Acme Labs"))).toEqual(["Works as a director of engineering at Acme Labs"]);
    expect(await texts(one("Cheers,\nJo\nPhD student, University of Porto"))).toEqual(["Signs emails as Jo", "Is a PhD student at University of Porto"]);
    expect(await texts(one("Product Designer\nAcme"))).toEqual(["Works as a product designer"]);
    const baker: AppSnapshot = {
      app: "gmail",
      account_email: null,
      items: [{ kind: "sent_mail", from_name: "Sam Baker", from_address: "a@b.example", signature: "Sam Baker\nHead Chef, Casa Lisboa", date: "2026-11-20T09:00:00Z" }],
    };
    expect(await texts(baker)).toEqual(["Is called Sam Baker", "Signs emails as Sam Baker", "Works as a head chef at Casa Lisboa"]);
    expect(await texts(one("Sent from my iPhone"))).toEqual([]);
    expect(await texts(one("Thanks!"))).toEqual([]);
  });

  it("Calendar: each recurring series in words; one-off events and placeholders are left out", async () => {
    const event = (title: string, recurrence: string | null, start = "2026-11-26T10:00:00+01:00") => ({ kind: "event" as const, title, recurrence, organizer_self: true, start });
    const snapshot: AppSnapshot = {
      app: "calendar",
      account_email: null,
      items: [
        event("Team sync", "RRULE:FREQ=WEEKLY;BYDAY=MO"),
        event("Stand-up", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        event("1:1 with Ana", "RRULE:FREQ=WEEKLY;INTERVAL=2"),
        event("Book club", "RRULE:FREQ=MONTHLY;BYDAY=-1FR"),
        event("Rent", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1"),
        event("Yoga", "RRULE:FREQ=WEEKLY;BYDAY=SA,SU"),
        event("Planning", "RRULE:FREQ=WEEKLY;INTERVAL=3;BYDAY=WE"),
        event("Journal", "RRULE:FREQ=DAILY"),
        event("Dentist", null),
        event("Focus time", "RRULE:FREQ=DAILY"),
        event("Call https://zoom.example/j/123", "RRULE:FREQ=WEEKLY"),
      ],
    };
    expect(await texts(snapshot)).toEqual([
      "Has a weekly 'Team sync' on Mondays",
      "Has a weekly 'Stand-up' on weekdays",
      "Has a fortnightly '1:1 with Ana' on Thursdays",
      "Has a monthly 'Book club' on the last Friday",
      "Has a monthly 'Rent' on the 1st",
      "Has a weekly 'Yoga' at weekends",
      "Has 'Planning' every 3 weeks on Wednesdays",
      "Has a daily 'Journal'",
    ]);
  });

  it("Drive and Notion: topics several titles share, then recent single titles; stale, untitled and copies left out", async () => {
    const doc = (title: string, daysAgo: number) => ({ kind: "document" as const, title, modified: new Date(NOW.getTime() - daysAgo * 86_400_000).toISOString() });
    const items = [
      doc("Booking flow redesign", 1),
      doc("Kyoto trip budget.xlsx", 2),
      doc("Booking flow research notes (2)", 3),
      doc("Untitled document", 4),
      doc("Copy of Trail running plan v2", 5),
      doc("Booking flow: usability tests 2026-10", 6),
      doc("Tax return 2019", 400),
    ];
    expect(await texts({ app: "drive", account_email: null, items })).toEqual([
      "Works on documents about Booking flow",
      "Works on a document titled 'Kyoto trip budget'",
      "Works on a document titled 'Trail running plan'",
    ]);
    const { facts } = await distil({ app: "notion", account_email: null, items });
    expect(facts.map((f) => f.text)).toEqual(["Works on pages about Booking flow", "Works on a page titled 'Kyoto trip budget'", "Works on a page titled 'Trail running plan'"]);
    expect(facts[0]).toMatchObject({ kind: "project", box: "projects/booking-flow", key: "project:book flow", items: [0, 2, 5] });
  });

  it("keeps at most ten facts, one per key, none already known", async () => {
    const many: AppSnapshot = {
      app: "calendar",
      account_email: null,
      items: Array.from({ length: 14 }, (_, i) => ({
        kind: "event" as const,
        title: `Class ${String.fromCharCode(65 + i)}`,
        recurrence: "RRULE:FREQ=WEEKLY;BYDAY=TU",
        organizer_self: false,
        start: "2026-11-24T18:00:00Z",
      })),
    };
    const { facts } = await distil(many);
    expect(facts).toHaveLength(MAX_APP_FACTS);
    const known = await builtinDistiller.distillApp({ snapshot: many, now: NOW, known: [{ key: facts[0]!.key }] });
    expect(known.facts[0]!.text).toBe("Has a weekly 'Class B' on Tuesdays");
  });
});

describe("the LLM driver on an app", () => {
  let server: Server;
  let baseUrl = "";
  let reply: { status: number; body: string } = { status: 200, body: "{}" };
  const bodies: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = "";
      req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
      req.on("end", () => {
        bodies.push(JSON.parse(raw) as Record<string, unknown>);
        res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const modelSays = (output: unknown) => {
    const message = { role: "assistant", content: JSON.stringify(output) };
    reply = {
      status: 200,
      body: JSON.stringify({ id: "c1", object: "chat.completion", created: 1, model: "test-model", choices: [{ index: 0, message, finish_reason: "stop" }] }),
    };
  };
  const snapshot: AppSnapshot = {
    app: "calendar",
    account_email: null,
    items: [
      { kind: "event", title: "Team sync", recurrence: "RRULE:FREQ=WEEKLY;BYDAY=MO", organizer_self: true, start: "2026-11-30T09:00:00Z" },
      { kind: "event", title: "Pottery class", recurrence: "RRULE:FREQ=WEEKLY;BYDAY=WE", organizer_self: false, start: "2026-11-25T18:00:00Z" },
    ],
  };

  it("asks the model with the items as data and checks its facts locally", async () => {
    modelSays({
      facts: [
        { item: 0, kind: "other", text: "Has a weekly 'Team sync' on Mondays." },
        { item: 1, kind: "like", text: "Likes pottery" },
        { item: 7, kind: "other", text: "Has a standing meeting that is not there" },
        { item: 1, kind: "other", text: "Can be reached on +1 415 555 0100" },
      ],
    });
    const llm = createLlmDistiller({ baseUrl, model: "test-model", fallback: builtinDistiller });
    const { facts } = await llm.distillApp({ snapshot, now: NOW });
    expect(facts).toEqual([
      { text: "Has a weekly 'Team sync' on Mondays", kind: "other", box: "other", key: "other:has monday sync team weekly", at: null, items: [0] },
      { text: "Likes pottery", kind: "like", box: "preferences", key: "like:pottery", at: null, items: [1] },
    ]);
    const sent = JSON.stringify(bodies.at(-1));
    expect(sent).toContain("Pottery class");
    expect(sent).toContain("app_facts");
  });

  it("falls back to the built-in rules when the model fails, and the configured driver passes apps through", async () => {
    reply = { status: 500, body: JSON.stringify({ error: { message: "down" } }) };
    const configured = distillerFromSettings({ DISTILLER: "llm", LLM_BASE_URL: baseUrl, LLM_MODEL: "test-model" });
    expect((await configured.distillApp({ snapshot, now: NOW })).facts.map((f) => f.text)).toEqual([
      "Has a weekly 'Team sync' on Mondays",
      "Has a weekly 'Pottery class' on Wednesdays",
    ]);
  });
});

describe("a run over development connections", () => {
  it("the sandbox's Gmail: facts from the development mailbox, never a message's content", async () => {
    const { provisionSandbox } = await import("@/lib/sandbox/sandbox");
    const { runAppMemories } = await import("@/lib/connectors/memories/run");
    const sandbox = await provisionSandbox();
    const gmail = await (await db()).appConnection.findUniqueOrThrow({ where: { userId_app: { userId: sandbox.user.id, app: "gmail" } } });
    const run = await runAppMemories(gmail.id);
    expect(run).toMatchObject({ app: "gmail", facts: ["Is called Sam Sandbox", "Signs emails as Sam", "Works as a product designer"], written: 3, removed: 0 });
    const stored = await memoriesOf(sandbox.user.id, "apps/gmail");
    expect(stored.map((m) => [m.text, m.kind, m.box, m.writtenBy, m.agentId, m.provenance])).toEqual([
      ["Is called Sam Sandbox", "name", "identity", "apps/gmail", null, { via: "app", app: "gmail" }],
      ["Signs emails as Sam", "preference", "preferences", "apps/gmail", null, { via: "app", app: "gmail" }],
      ["Works as a product designer", "work", "work", "apps/gmail", null, { via: "app", app: "gmail" }],
    ]);
    // Subjects and snippets of the development mailbox are never kept.
    expect(JSON.stringify(stored)).not.toMatch(/Lunch|Friday|booking|Design review|Osaka/i);
    const profile = await (await db()).userProfile.findUniqueOrThrow({ where: { userId: sandbox.user.id } });
    expect(profile.sourceCounts).toMatchObject({ "apps/gmail": 3 });

    // The sandbox's simulated revoked grant: nothing is read.
    await (await db()).appConnection.update({ where: { id: gmail.id }, data: { status: "needs_reconnect" } });
    expect(await runAppMemories(gmail.id)).toBeNull();
  });

  it("each app from its development data; Sheets is not read", async () => {
    const { runAppMemories } = await import("@/lib/connectors/memories/run");
    const t = await createTenant();
    const userId = t.users.live.id;
    const learned: Record<string, string[]> = {};
    for (const app of ["outlook", "calendar", "drive", "notion"]) {
      const c = await devConnection(userId, app);
      learned[app] = (await runAppMemories(c.id))!.facts;
      expect((await memoriesOf(userId, `apps/${app}`)).length).toBeGreaterThan(0);
    }
    expect(learned.calendar).toEqual(
      expect.arrayContaining(["Has a weekly 'Team stand-up' on weekdays", "Has a weekly 'Design review' on Mondays", "Has a weekly 'Japanese lesson' on Thursdays"]),
    );
    expect(learned.calendar!.join(" ")).not.toMatch(/Dentist|Lunch with Ana/);
    expect(learned.drive).toEqual(expect.arrayContaining(["Works on a document titled 'Kyoto trip budget'"]));
    expect(learned.outlook!.some((f) => f.startsWith("Is called"))).toBe(true);
    expect(learned.notion!.length).toBeGreaterThan(0);
    const sheets = await devConnection(userId, "sheets");
    expect(await runAppMemories(sheets.id)).toBeNull();
  });
});

describe("re-runs", () => {
  it("do not pile up, replace what the app no longer shows, and do not repeat another source", async () => {
    const { runAppMemories } = await import("@/lib/connectors/memories/run");
    const { writeMemories, inTransaction } = await import("@/lib/profile/memories");
    const t = await createTenant();
    const userId = t.users.live.id;
    const calendar = await devConnection(userId, "calendar");
    const first = (await runAppMemories(calendar.id))!;
    const before = await memoriesOf(userId, "apps/calendar");
    expect(before).toHaveLength(first.facts.length);

    const again = (await runAppMemories(calendar.id))!;
    expect(again).toMatchObject({ written: 0, removed: 0, facts: first.facts });
    const after = await memoriesOf(userId, "apps/calendar");
    expect(after.map((m) => [m.id, m.learnedAt.getTime()])).toEqual(before.map((m) => [m.id, m.learnedAt.getTime()]));

    // A series the calendar no longer shows goes at the next run.
    await inTransaction((tx) =>
      writeMemories(tx, { userId, source: "apps/calendar", writtenBy: "apps/calendar", agentId: null }, [
        { text: "Has a weekly 'Old team sync' on Fridays", kind: "other", box: "other", key: "other:routine:friday old sync team weekly" },
      ]),
    );
    expect((await runAppMemories(calendar.id))!.removed).toBe(1);
    expect((await memoriesOf(userId, "apps/calendar")).map((m) => m.text)).not.toContain("Has a weekly 'Old team sync' on Fridays");

    // What another source already holds is not written again under the app.
    const drive = await devConnection(userId, "drive");
    const agentSource = `agents/${t.agent.handle}`;
    await inTransaction((tx) =>
      writeMemories(tx, { userId, source: agentSource, writtenBy: agentSource, agentId: t.agent.id }, [
        { text: "Works on a document titled 'Kyoto trip budget'", kind: "project", box: "projects/kyoto-trip-budget", key: "project:budget kyoto trip" },
      ]),
    );
    await runAppMemories(drive.id);
    expect((await memoriesOf(userId, "apps/drive")).map((m) => m.key)).not.toContain("project:budget kyoto trip");
  });

  it("leave a fact hidden by forget with reason user_request, and one the person removed, hidden", async () => {
    const { provisionSandbox } = await import("@/lib/sandbox/sandbox");
    const { runAppMemories } = await import("@/lib/connectors/memories/run");
    const { appFactsOf, removeAppFact } = await import("@/lib/connectors/memories/facts");
    const sandbox = await provisionSandbox();
    const userId = sandbox.user.id;
    const calendar = await devConnection(userId, "calendar", "sam.sandbox@example.com");
    await runAppMemories(calendar.id);
    const headers = { "x-api-key": sandbox.secret_key, "x-agent": sandbox.agent.handle, "x-user-id": sandbox.user.external_id };
    const forgot = await call(forgetRoute, { headers, body: { match: "Design review", reason: "user_request", confirm: true } });
    expect(forgot.status).toBe(200);
    expect(forgot.body).toMatchObject({ deleted_count: 0, suppressed_count: 1 });
    const hidden = (await memoriesOf(userId, "apps/calendar")).find((m) => m.text.includes("Design review"))!;
    expect(hidden.suppressedAt).not.toBeNull();

    const [learned] = await appFactsOf(userId, ["calendar"]);
    const lesson = learned!.facts.find((f) => f.text.includes("Japanese lesson"))!;
    expect(await removeAppFact({ userId, memoryId: lesson.id })).toBe(true);
    expect(await removeAppFact({ userId, memoryId: lesson.id })).toBe(false);

    const rerun = (await runAppMemories(calendar.id))!;
    expect(rerun).toMatchObject({ written: 0, removed: 0 });
    const stored = await memoriesOf(userId, "apps/calendar");
    for (const text of ["Design review", "Japanese lesson"]) {
      const rows = stored.filter((m) => m.text.includes(text));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.suppressedAt).not.toBeNull();
    }
    expect((await appFactsOf(userId, ["calendar"]))[0]!.facts.map((f) => f.text)).toEqual(["Has a weekly 'Team stand-up' on weekdays"]);
    const profile = await (await db()).userProfile.findUniqueOrThrow({ where: { userId } });
    expect(JSON.stringify(profile.highlights)).not.toMatch(/Design review|Japanese lesson/);
  });
});

describe("disconnecting", () => {
  it("deletes every memory the app taught, hidden ones too, and nothing else", async () => {
    const { runAppMemories } = await import("@/lib/connectors/memories/run");
    const { disconnectApp } = await import("@/lib/connectors/connections");
    const { removeAppFact } = await import("@/lib/connectors/memories/facts");
    const t = await createTenant();
    const userId = t.users.live.id;
    const calendar = await devConnection(userId, "calendar");
    const gmail = await devConnection(userId, "gmail");
    await runAppMemories(calendar.id);
    await runAppMemories(gmail.id);
    const [one] = await memoriesOf(userId, "apps/calendar");
    await removeAppFact({ userId, memoryId: one!.id });
    let profile = await (await db()).userProfile.findUniqueOrThrow({ where: { userId } });
    expect(JSON.stringify(profile.highlights)).toContain("Team stand-up");

    expect(await disconnectApp(userId, "calendar")).toBe(true);
    expect(await memoriesOf(userId, "apps/calendar")).toEqual([]);
    expect((await memoriesOf(userId, "apps/gmail")).length).toBeGreaterThan(0);
    expect(await (await db()).appConnection.count({ where: { id: calendar.id } })).toBe(0);
    profile = await (await db()).userProfile.findUniqueOrThrow({ where: { userId } });
    expect(JSON.stringify(profile.highlights)).not.toContain("Team stand-up");
    expect(profile.sourceCounts).not.toHaveProperty("apps/calendar");
    // A run queued before the disconnect finds the connection gone and writes nothing.
    expect(await runAppMemories(calendar.id)).toBeNull();
  });
});

describe("the jobs", () => {
  it("one waiting run per connection: a second send for the same connection is not queued", async () => {
    const { enqueueSingleton, QUEUES, stopJobs } = await import("@/lib/platform/jobs");
    await stopJobs();
    const t = await createTenant();
    const c = await devConnection(t.users.live.id, "calendar");
    expect(await enqueueSingleton(QUEUES.appMemories, c.id, { connectionId: c.id })).toBe(true);
    expect(await enqueueSingleton(QUEUES.appMemories, c.id, { connectionId: c.id })).toBe(false);
    const other = await devConnection(t.users.live.id, "drive");
    expect(await enqueueSingleton(QUEUES.appMemories, other.id, { connectionId: other.id })).toBe(true);
    // The worker then runs both.
    const { startAppMemoriesWorker } = await import("@/lib/connectors/memories/run");
    await startAppMemoriesWorker();
    await until(async () => (await memoriesOf(t.users.live.id, "apps/calendar")).length && (await memoriesOf(t.users.live.id, "apps/drive")).length, "both runs");
  });

  it("run when a signed-in person connects an app", async () => {
    const { startAppMemoriesWorker } = await import("@/lib/connectors/memories/run");
    const { startConnection, finishConnection } = await import("@/lib/connectors/connections");
    await startAppMemoriesWorker();
    const t = await createTenant();
    const userId = t.users.live.id;
    const { url, cookie } = await startConnection({ app: "calendar", userId });
    const done = await finishConnection(await consent(url, "grace@example.com"), cookie);
    expect(done.userId).toBe(userId);
    const facts = await until(async () => {
      const rows = await memoriesOf(userId, "apps/calendar");
      return rows.length ? rows : null;
    }, "the calendar's memories");
    expect(facts.map((m) => m.text)).toContain("Has a weekly 'Design review' on Mondays");
  });

  it("run for a flow's connections once it finishes, and the receipt shows what is read, then what was learned", async () => {
    const { startAppMemoriesWorker } = await import("@/lib/connectors/memories/run");
    const { startConnection, finishConnection } = await import("@/lib/connectors/connections");
    const { flowScreenView } = await import("@/lib/flow/views");
    const { flowId, userId, reload, steps } = await atMailboxPage("+14155550177");
    const { url, cookie } = await startConnection({ app: "drive", flowId });
    const done = await finishConnection(await consent(url, "ada@example.com"), cookie);
    expect(done.userId).toBeNull();
    // Not the person's yet: nothing is read before the flow finishes.
    await new Promise((r) => setTimeout(r, 300));
    expect(await memoriesOf(userId, "apps/drive")).toEqual([]);

    await startAppMemoriesWorker();
    await steps.continueFromMailbox(await reload());
    const flow = await reload();
    expect(flow.receipt?.connected).toEqual(["drive"]);
    await until(async () => (await memoriesOf(userId, "apps/drive")).length, "the drive's memories");
    const view = await flowScreenView({ state: "open", flow });
    expect(view).toMatchObject({
      screen: "receipt",
      connected: ["Google Drive"],
      fromApps: [{ name: "Google Drive", reads: "The titles of your most recently changed documents" }],
    });
    expect(view.screen === "receipt" && view.fromApps[0]!.facts).toContain("Works on a document titled 'Kyoto trip budget'");
  });

  it("run daily for every active connection of a person, on a schedule", async () => {
    const { APP_MEMORIES_CRON, queueDailyAppMemories, startAppMemoriesWorker } = await import("@/lib/connectors/memories/run");
    const { jobs, QUEUES } = await import("@/lib/platform/jobs");
    await startAppMemoriesWorker();
    const schedules = await (await jobs()).getSchedules();
    expect(schedules.map((s) => [s.name, s.cron])).toContainEqual([QUEUES.appMemoriesDaily, APP_MEMORIES_CRON]);

    // Only this test's connections: the run reads every active one.
    await (await db()).appConnection.deleteMany({});
    const t = await createTenant();
    const active = await devConnection(t.users.live.id, "notion");
    const broken = await devConnection(t.users.test.id, "calendar");
    await (await db()).appConnection.update({ where: { id: broken.id }, data: { status: "needs_reconnect" } });
    expect(await queueDailyAppMemories()).toBe(1);
    await until(async () => (await memoriesOf(t.users.live.id, "apps/notion")).length, "the daily run");
    expect(await memoriesOf(t.users.test.id, "apps/calendar")).toEqual([]);
    expect(await (await db()).memory.count({ where: { source: "apps/notion", provenance: { equals: { via: "app", app: "notion" } } } })).toBeGreaterThan(0);
    expect(active.app).toBe("notion");
  });
});

describe("a run against Google's REST APIs", () => {
  let provider: Awaited<ReturnType<typeof startGoogleProvider>>;
  let apis: Awaited<ReturnType<typeof startGoogleApis>>;
  const saved = { ...process.env };
  beforeAll(async () => {
    provider = await startGoogleProvider({ redirectUri: "http://localhost:3000/connect/callback", email: "ada@example.com", accountId: "google-ada" });
    apis = await startGoogleApis({ authorize: (token) => provider.introspect(token) });
    Object.assign(process.env, provider.env, apis.env);
    resetEnvForTests();
  });
  afterAll(async () => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
    resetEnvForTests();
    await apis.close();
    await provider.close();
  });

  it("reads sent mail, the calendar and Drive through the person's tokens; a refused token is refreshed once; a rate limit is left to the queue", async () => {
    const { startConnection, finishConnection } = await import("@/lib/connectors/connections");
    const { runAppMemories } = await import("@/lib/connectors/memories/run");
    const { stopJobs } = await import("@/lib/platform/jobs");
    await stopJobs(); // the runs here are called directly
    const t = await createTenant();
    const userId = t.users.live.id;
    const ids: Record<string, string> = {};
    for (const app of ["gmail", "calendar", "drive"]) {
      const { url, cookie } = await startConnection({ app, userId });
      ids[app] = (await finishConnection(await provider.consent(url), cookie)).id;
    }
    const account = apis.account("google-ada");
    account.email = "ada@example.com";
    const now = Date.now();
    account.messages.push(
      {
        id: "sent-1",
        threadId: "t1",
        labelIds: ["SENT"],
        headers: [
          { name: "From", value: "Ada Lovelace <ada@example.com>" },
          { name: "To", value: "Charles <charles@example.org>" },
          { name: "Subject", value: "The engine" },
          { name: "Date", value: new Date(now - 86_400_000).toUTCString() },
        ],
        snippet: "The secret plan for the analytical engine",
        body: "The secret plan for the analytical engine is attached.\n\n-- \nAda\nLead Mathematician, Analytical Engines Ltd\n+44 20 7946 0958",
        internalDate: now - 86_400_000,
      },
      { id: "in-1", threadId: "t2", labelIds: ["INBOX"], headers: [{ name: "From", value: "Charles <charles@example.org>" }], snippet: "Reply", body: "Reply", internalDate: now },
    );
    account.events.push(
      {
        id: "e1",
        summary: "Engine review",
        start: { dateTime: "2026-11-30T10:00:00Z" },
        end: { dateTime: "2026-11-30T11:00:00Z" },
        recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO"],
        organizer: { email: "ada@example.com", self: true },
        description: "Private notes",
        attendees: [{ email: "charles@example.org" }],
      },
      { id: "e2", summary: "Dentist", start: { dateTime: new Date(now + 86_400_000).toISOString() }, end: { dateTime: new Date(now + 90_000_000).toISOString() } },
    );
    account.files.push(
      { id: "f1", name: "Difference engine notes", mimeType: "application/vnd.google-apps.document", modifiedTime: new Date(now - 2 * 86_400_000).toISOString(), text: "secret" },
      {
        id: "f2",
        name: "Difference engine budget",
        mimeType: "application/vnd.google-apps.spreadsheet",
        modifiedTime: new Date(now - 3 * 86_400_000).toISOString(),
        text: "secret",
      },
    );

    apis.inject({ path: /\/gmail\/v1\//, kind: "invalid_token", times: 1 });
    expect((await runAppMemories(ids.gmail!))!.facts).toEqual(["Is called Ada Lovelace", "Signs emails as Ada", "Works as a lead mathematician at Analytical Engines Ltd"]);
    expect((await runAppMemories(ids.calendar!))!.facts).toEqual(["Has a weekly 'Engine review' on Mondays"]);
    expect((await runAppMemories(ids.drive!))!.facts).toEqual(["Works on documents about Difference engine"]);
    const stored = JSON.stringify(await (await db()).memory.findMany({ where: { userId } }));
    expect(stored).not.toMatch(/secret|7946|Private notes|charles/i);
    expect(await (await db()).appConnection.count({ where: { userId, status: "active" } })).toBe(3);

    apis.inject({ path: /\/drive\/v3\//, kind: "rate_limit", retryAfter: 30, times: 1 });
    await expect(runAppMemories(ids.drive!)).rejects.toMatchObject({ name: "ProviderRateLimited", retryAfter: 30 });
    apis.inject({ path: /\/calendar\/v3\//, kind: "insufficient_scope", times: 1 });
    await expect(runAppMemories(ids.calendar!)).rejects.toMatchObject({ name: "ProviderScopeError" });
    // Nothing was lost to the failed runs.
    expect((await memoriesOf(userId, "apps/drive")).map((m) => m.text)).toEqual(["Works on documents about Difference engine"]);
  });
});
