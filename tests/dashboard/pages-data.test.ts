// What the dashboard's request log, usage and bulk import pages load for an account: the query string
// read defensively (anything not understood is left out, never an error), the plane they open on, and
// never another account's requests or jobs.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { importsOf, importsInProgress } from "@/lib/dashboard/imports";
import { requestLogOf, usageOf } from "@/lib/dashboard/requests";
import { newId, PREFIX } from "@/lib/platform/ids";
import { IMPORT_TIER_LIMITS } from "@/lib/import-jobs/limits";
import { latestPlane } from "@/lib/request-log/queries";
import { flushRequestLog, recordRequest, type RequestLogRecord } from "@/lib/request-log/record";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { requestLogRow } from "../helpers/request-log";

let a: Tenant;
let b: Tenant;
let serial = 0;

/** A row of the last minute, each a millisecond after the one before. */
function row(t: Tenant, overrides: Partial<RequestLogRecord> = {}): RequestLogRecord {
  serial++;
  return requestLogRow(t, { at: new Date(Date.now() - 60_000 + serial), ...overrides });
}

beforeAll(async () => {
  a = await createTenant("pages-a", "pages-a-agent");
  b = await createTenant("pages-b", "pages-b-agent");
});

describe("the request log page's data", () => {
  it("opens on the plane of the newest request, and on live with none", async () => {
    expect(await latestPlane({ developerId: a.developer.id })).toBeNull();
    expect((await requestLogOf(a.developer.id, {})).plane).toBe("live");
    recordRequest(row(a, { plane: "live", at: new Date(Date.now() - 5_000) }));
    recordRequest(row(a, { plane: "test", at: new Date(Date.now() - 1_000) }));
    await flushRequestLog();
    expect(await latestPlane({ developerId: a.developer.id })).toBe("test");
    expect((await requestLogOf(a.developer.id, {})).plane).toBe("test");
    expect((await requestLogOf(a.developer.id, { plane: "live" })).plane).toBe("live");
    expect((await requestLogOf(a.developer.id, { plane: "prod" })).plane).toBe("test");
  });

  it("finds the account's own request by id, and never another account's", async () => {
    const mine = row(a, { status: 404, errorCode: "not_found", route: "/v1/profile/memories/[memoryId]" });
    const theirs = row(b, { agentId: b.agent.id });
    recordRequest(mine);
    recordRequest(theirs);
    await flushRequestLog();
    const found = await requestLogOf(a.developer.id, { id: `  ${mine.id} `, plane: "live" });
    expect(found.search).toEqual({
      id: mine.id,
      found: expect.objectContaining({ requestId: mine.id, status: 404, errorCode: "not_found", agent: { handle: "pages-a-agent", displayName: expect.any(String) } }),
    });
    expect((await requestLogOf(a.developer.id, { id: theirs.id })).search).toEqual({ id: theirs.id, found: null });
    expect((await requestLogOf(b.developer.id, { id: theirs.id })).search?.found?.requestId).toBe(theirs.id);
    expect((await requestLogOf(a.developer.id, { id: "' OR 1=1 --" })).search).toEqual({ id: "' OR 1=1 --", found: null });
    expect((await requestLogOf(a.developer.id, { plane: "live" })).search).toBeUndefined();
    // B's request never shows in A's listing.
    expect((await requestLogOf(a.developer.id, { plane: "live" })).page.requests.map((r) => r.requestId)).not.toContain(theirs.id);
  });

  it("applies the filters it understands and leaves out the rest", async () => {
    const view = await requestLogOf(a.developer.id, { plane: "live", status: "4xx", route: "/v1/profile/memories/[memoryId]", agent: a.agent.id });
    expect(view.filters).toEqual({ status: "4xx", route: "/v1/profile/memories/[memoryId]", agentId: a.agent.id });
    expect(view.page.requests).toHaveLength(1);
    expect(view.page.requests[0]).toMatchObject({ status: 404 });
    const lenient = await requestLogOf(a.developer.id, { plane: "live", status: "oops", agent: "not-a-uuid", route: ["/v1/profile", "/x"], before: "garbage" });
    expect(lenient.filters).toEqual({ route: "/v1/profile" });
    // Text that is no route (a NUL byte the database would refuse), another account's agent, a cursor
    // not made by a page: each left out, so the listing answers rather than failing.
    const odd = await requestLogOf(a.developer.id, { plane: "live", route: "/v1/profile\u0000", agent: b.agent.id, before: "1_req_x y" });
    expect(odd.filters).toEqual({});
    expect((await requestLogOf(a.developer.id, { plane: "live", route: "\u0000" })).filters).toEqual({});
    expect(odd.page.requests.length).toBeGreaterThan(0);
    const older = (await requestLogOf(a.developer.id, { plane: "live", before: `${Date.now() + 60_000}_req_zzzzzzzz` })).filters;
    expect(older).toEqual({ before: expect.stringMatching(/^\d+_req_zzzzzzzz$/) });
    expect(lenient.page.requests.every((r) => r.route === "/v1/profile")).toBe(true);
    expect(view.routes).toEqual(["/v1/profile", "/v1/profile/memories/[memoryId]"]);
    expect(view.agents).toEqual([{ id: a.agent.id, handle: "pages-a-agent", displayName: expect.any(String) }]);
  });
});

describe("the usage page's data", () => {
  it("covers the span asked for among 7, 30 and 90 days, else 30", async () => {
    const week = await usageOf(a.developer.id, { plane: "live", days: "7" });
    expect(week.days).toBe(7);
    expect(week.perDay).toHaveLength(7);
    // A's two live requests of the last minute (summed: the minute may straddle midnight UTC).
    expect(week.perDay.reduce((n, d) => n + d.requests, 0)).toBe(2);
    expect(week.perDay.reduce((n, d) => n + d.errors, 0)).toBe(1);
    expect(week.perRoute.map((r) => r.route).sort()).toEqual(["/v1/profile", "/v1/profile/memories/[memoryId]"]);
    expect((await usageOf(a.developer.id, { plane: "live", days: "5" })).days).toBe(30);
    expect((await usageOf(a.developer.id, { plane: "live", days: "90" })).perDay).toHaveLength(90);
    expect((await usageOf(b.developer.id, { plane: "test" })).perRoute).toEqual([]);
  });

  it("charts one route alone when asked for one called in the span, and every route otherwise", async () => {
    recordRequest(row(a, { method: "POST", route: "/v1/profile/memories/[memoryId]", status: 201 }));
    await flushRequestLog();
    const total = (v: { perDay: Array<{ requests: number }> }) => v.perDay.reduce((n, d) => n + d.requests, 0);
    const one = await usageOf(a.developer.id, { plane: "live", route: "/v1/profile/memories/[memoryId]", method: "DELETE" });
    expect(one.route).toBeNull();
    expect(total(one)).toBe(3);
    const get = await usageOf(a.developer.id, { plane: "live", route: "/v1/profile/memories/[memoryId]", method: "GET" });
    expect(get.route).toEqual({ method: "GET", route: "/v1/profile/memories/[memoryId]" });
    expect(total(get)).toBe(1);
    expect(get.perDay.reduce((n, d) => n + d.errors, 0)).toBe(1);
    const post = await usageOf(a.developer.id, { plane: "live", route: "/v1/profile/memories/[memoryId]", method: "POST" });
    expect(total(post)).toBe(1);
    expect(post.perDay.reduce((n, d) => n + d.errors, 0)).toBe(0);
    // The table stays every route's.
    expect(post.perRoute).toHaveLength(3);
  });
});

describe("the bulk import page's data", () => {
  it("shows the tier, the quota in use, the jobs of one plane with their errors, and opens on the newest job's plane", async () => {
    const prisma = await db();
    const empty = await importsOf(a.developer.id);
    expect(empty).toMatchObject({ plane: "live", tier: "free", limits: IMPORT_TIER_LIMITS.free, profilesUsed: 0, activeJobs: 0, jobs: [] });
    const job = (status: "queued" | "running" | "completed", plane: "live" | "test", t: Tenant = a) =>
      prisma.importJob.create({
        data: {
          id: newId(PREFIX.importJob),
          developerId: t.developer.id,
          agentId: t.agent.id,
          plane,
          mode: "backfill",
          idempotencyKey: newId(PREFIX.importJob),
          bodyHash: "h",
          status,
          acceptedProfiles: 3,
          estimatedMessageCount: 9,
          estimatedInputChars: 90,
        },
      });
    const done = await job("completed", "live");
    await prisma.importJob.update({ where: { id: done.id }, data: { profilesImported: 2, profilesFailed: 1 } });
    await prisma.importJobProfile.createMany({
      data: [
        { jobId: done.id, position: 0, externalId: "u-1", payload: "", messageCount: 3, inputChars: 30, status: "imported" },
        {
          jobId: done.id,
          position: 1,
          externalId: "u-2",
          payload: "",
          messageCount: 3,
          inputChars: 30,
          status: "failed",
          errorCode: "agent_not_approved",
          errorMessage: "The person has not approved this agent.",
        },
        { jobId: done.id, position: 2, externalId: "u-3", payload: "", messageCount: 3, inputChars: 30, status: "imported" },
      ],
    });
    await prisma.importedProfile.create({ data: { developerId: a.developer.id, plane: "live", externalId: "u-1", jobId: done.id } });
    const running = await job("running", "test");
    await job("queued", "live", b);

    const test = await importsOf(a.developer.id);
    expect(test.plane).toBe("test");
    expect(test.jobs.map((j) => j.id)).toEqual([running.id]);
    expect(importsInProgress(test)).toBe(true);
    expect(test.activeJobs).toBe(1);

    const live = await importsOf(a.developer.id, "live");
    expect(live.jobs).toHaveLength(1);
    expect(live.jobs[0]).toMatchObject({
      id: done.id,
      status: "completed",
      agent: { handle: "pages-a-agent" },
      progress: { profiles_imported: 2, profiles_failed: 1, profiles_pending: 0 },
    });
    expect(live.jobs[0]!.errors).toEqual([{ external_id: "u-2", code: "agent_not_approved", message: "The person has not approved this agent." }]);
    expect(live.profilesUsed).toBe(1);
    expect(live.activeJobs).toBe(0);
    expect(importsInProgress(live)).toBe(false);
  });
});
