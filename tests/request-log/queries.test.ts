// What the dashboard reads from the request log: a request by id, the recent requests with filters a
// page at a time, usage per day and per route — each for one developer (and plane) only.
import { beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { GET as profile } from "@/app/v1/profile/route";
import { flushRequestLog, recordRequest, type RequestLogRecord } from "@/lib/request-log/record";
import { findRequest, recentRequests, usagePerDay, usagePerRoute } from "@/lib/request-log/queries";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { requestLogRow } from "../helpers/request-log";
import { call } from "../helpers/http";

const DAY_MS = 86_400_000;
/** The day the usage is read on: noon UTC, so the day boundaries are plain. */
const AT = new Date("2026-06-30T12:00:00.000Z");
let a: Tenant;
let b: Tenant;
let serial = 0;

/** A row at AT with an id that sorts in the order rows are made. */
function row(t: Tenant, overrides: Partial<RequestLogRecord> = {}): RequestLogRecord {
  serial++;
  return requestLogRow(t, { id: `req_seed${String(serial).padStart(8, "0")}`, at: AT, ...overrides });
}

function daysBefore(days: number, hour = 9): Date {
  const d = new Date(AT.getTime() - days * DAY_MS);
  d.setUTCHours(hour, 0, 0, 0);
  return d;
}

beforeAll(async () => {
  a = await createTenant("request-log-a", "assistant");
  b = await createTenant("request-log-b", "helper");
  // Developer A, live plane. The day read: GET /v1/profile 20 times, latencies 1..20 ms, one 404 and one 500.
  for (let i = 1; i <= 20; i++) {
    const status = i === 4 ? 404 : i === 5 ? 500 : 200;
    recordRequest(row(a, { latencyMs: i, status, errorCode: status === 404 ? "not_found" : status === 500 ? "internal_error" : null, at: daysBefore(0, i % 24) }));
  }
  // The day before: POST /v1/profile/remember 10 times at 10 ms, two refused (422).
  for (let i = 0; i < 10; i++) {
    recordRequest(
      row(a, { method: "POST", route: "/v1/profile/remember", latencyMs: 10, status: i < 2 ? 422 : 201, errorCode: i < 2 ? "invalid_format" : null, at: daysBefore(1) }),
    );
  }
  // The first day of the 30, and the one before it (outside), and the next day (outside).
  recordRequest(row(a, { latencyMs: 7, at: daysBefore(29, 0) }));
  recordRequest(row(a, { latencyMs: 900, at: new Date(daysBefore(29, 0).getTime() - 1) }));
  recordRequest(row(a, { latencyMs: 900, at: new Date(daysBefore(0, 0).getTime() + DAY_MS) }));
  // A's test plane, and developer B: never in A's live usage.
  for (let i = 0; i < 5; i++) recordRequest(row(a, { plane: "test", latencyMs: 900, status: 500, errorCode: "internal_error" }));
  for (let i = 0; i < 7; i++) recordRequest(row(b, { agentId: b.agent.id, latencyMs: 900, status: 500, errorCode: "internal_error" }));
  await flushRequestLog();
});

describe("usage", () => {
  it("per day: 30 UTC days, oldest first, every day present, with counts, error rates and p50/p95", async () => {
    const days = await usagePerDay({ developerId: a.developer.id, plane: "live", at: AT });
    expect(days).toHaveLength(30);
    expect(days[0]!.day).toBe("2026-06-01");
    expect(days[29]!.day).toBe("2026-06-30");
    expect(days[29]).toEqual({ day: "2026-06-30", requests: 20, errors: 2, serverErrors: 1, errorRate: 0.1, p50Ms: 10, p95Ms: 19 });
    expect(days[28]).toEqual({ day: "2026-06-29", requests: 10, errors: 2, serverErrors: 0, errorRate: 0.2, p50Ms: 10, p95Ms: 10 });
    expect(days[0]).toEqual({ day: "2026-06-01", requests: 1, errors: 0, serverErrors: 0, errorRate: 0, p50Ms: 7, p95Ms: 7 });
    for (const d of days.slice(1, 28)) expect(d).toEqual({ day: d.day, requests: 0, errors: 0, serverErrors: 0, errorRate: 0, p50Ms: null, p95Ms: null });
  });

  it("per day for one route, and over fewer days", async () => {
    const days = await usagePerDay({ developerId: a.developer.id, plane: "live", at: AT, route: "/v1/profile/remember", days: 2 });
    expect(days).toEqual([
      { day: "2026-06-29", requests: 10, errors: 2, serverErrors: 0, errorRate: 0.2, p50Ms: 10, p95Ms: 10 },
      { day: "2026-06-30", requests: 0, errors: 0, serverErrors: 0, errorRate: 0, p50Ms: null, p95Ms: null },
    ]);
  });

  it("per route: the busiest first, with counts, error rates and p50/p95 over the 30 days", async () => {
    expect(await usagePerRoute({ developerId: a.developer.id, plane: "live", at: AT })).toEqual([
      // 1..20 ms and 7 ms: 21 latencies, the 11th is 10 and the 20th 19.
      { method: "GET", route: "/v1/profile", requests: 21, errors: 2, serverErrors: 1, errorRate: 2 / 21, p50Ms: 10, p95Ms: 19 },
      { method: "POST", route: "/v1/profile/remember", requests: 10, errors: 2, serverErrors: 0, errorRate: 0.2, p50Ms: 10, p95Ms: 10 },
    ]);
  });

  it("each plane and developer on its own", async () => {
    const test = await usagePerRoute({ developerId: a.developer.id, plane: "test", at: AT });
    expect(test).toEqual([{ method: "GET", route: "/v1/profile", requests: 5, errors: 5, serverErrors: 5, errorRate: 1, p50Ms: 900, p95Ms: 900 }]);
    const other = await usagePerDay({ developerId: b.developer.id, plane: "live", at: AT });
    expect(other.reduce((n, d) => n + d.requests, 0)).toBe(7);
    expect(await usagePerRoute({ developerId: b.developer.id, plane: "test", at: AT })).toEqual([]);
  });

  it("refuses what is not a scope: a developer id that is not one, a plane, a number of days", async () => {
    await expect(usagePerDay({ developerId: "not-a-uuid", plane: "live" })).rejects.toBeInstanceOf(ZodError);
    await expect(usagePerRoute({ developerId: a.developer.id, plane: "prod" as "live" })).rejects.toBeInstanceOf(ZodError);
    await expect(usagePerDay({ developerId: a.developer.id, plane: "live", days: 0 })).rejects.toBeInstanceOf(ZodError);
  });
});

describe("a request by id", () => {
  it("finds the developer's own request, with its agent, in either plane", async () => {
    const res = await call(profile, { headers: liveHeaders(a) });
    const id = res.headers.get("x-request-id")!;
    expect(await findRequest({ developerId: a.developer.id, requestId: ` ${id} ` })).toEqual({
      requestId: id,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      plane: "live",
      agentId: a.agent.id,
      agent: { handle: "assistant", displayName: "Assistant" },
      method: "GET",
      route: "/v1/profile",
      status: 200,
      errorCode: null,
      latencyMs: expect.any(Number),
    });
    const test = await call(profile, { headers: liveHeaders(a, { "x-api-key": a.keys.skTest, "x-user-id": "user-test" }) });
    expect(await findRequest({ developerId: a.developer.id, requestId: test.headers.get("x-request-id")! })).toMatchObject({ plane: "test" });
  });

  it("answers nothing for another developer's request, an unknown id, or text that is not an id", async () => {
    const res = await call(profile, { headers: liveHeaders(a) });
    const id = res.headers.get("x-request-id")!;
    expect(await findRequest({ developerId: b.developer.id, requestId: id })).toBeNull();
    expect(await findRequest({ developerId: a.developer.id, requestId: "req_unknownunknown00" })).toBeNull();
    expect(await findRequest({ developerId: a.developer.id, requestId: "' OR 1=1 --" })).toBeNull();
    expect(await findRequest({ developerId: "not-a-uuid", requestId: id })).toBeNull();
  });
});

describe("recent requests", () => {
  it("lists one developer's requests in one plane, newest first, with filters", async () => {
    const c = await createTenant("request-log-c", "clerk");
    const base = Date.parse("2026-07-01T10:00:00.000Z");
    const seeded = [
      row(c, { at: new Date(base), status: 200 }),
      row(c, { at: new Date(base + 1000), status: 404, errorCode: "not_found" }),
      row(c, { at: new Date(base + 2000), status: 503, errorCode: "unavailable", route: "/v1/profile/remember", method: "POST" }),
      row(c, { at: new Date(base + 3000), status: 302, agentId: null }),
      row(c, { at: new Date(base + 4000), plane: "test" }),
      row(b, { at: new Date(base + 5000), agentId: b.agent.id }),
    ];
    for (const r of seeded) recordRequest(r);
    const ids = (page: { requests: { requestId: string }[] }) => page.requests.map((r) => r.requestId);
    const scope = { developerId: c.developer.id, plane: "live" as const };

    const all = await recentRequests(scope);
    expect(ids(all)).toEqual([seeded[3]!.id, seeded[2]!.id, seeded[1]!.id, seeded[0]!.id]);
    expect(all.older).toBeNull();
    expect(all.requests[1]).toMatchObject({ method: "POST", route: "/v1/profile/remember", status: 503, errorCode: "unavailable", agent: { handle: "clerk" } });
    expect(all.requests[0]).toMatchObject({ agentId: null, agent: null });

    expect(ids(await recentRequests({ ...scope, status: "error" }))).toEqual([seeded[2]!.id, seeded[1]!.id]);
    expect(ids(await recentRequests({ ...scope, status: "4xx" }))).toEqual([seeded[1]!.id]);
    expect(ids(await recentRequests({ ...scope, status: "5xx" }))).toEqual([seeded[2]!.id]);
    expect(ids(await recentRequests({ ...scope, status: "3xx" }))).toEqual([seeded[3]!.id]);
    expect(ids(await recentRequests({ ...scope, status: "2xx" }))).toEqual([seeded[0]!.id]);
    expect(ids(await recentRequests({ ...scope, route: "/v1/profile/remember" }))).toEqual([seeded[2]!.id]);
    expect(ids(await recentRequests({ ...scope, agentId: c.agent.id }))).toEqual([seeded[2]!.id, seeded[1]!.id, seeded[0]!.id]);
    // Empty form fields are no filter.
    expect(ids(await recentRequests({ ...scope, route: "", status: "", agentId: "", before: "" }))).toHaveLength(4);
    expect(ids(await recentRequests({ ...scope, plane: "test" }))).toEqual([seeded[4]!.id]);
    // Another developer's agent as a filter finds nothing of this developer.
    expect(ids(await recentRequests({ ...scope, agentId: b.agent.id }))).toEqual([]);
  });

  it("pages by time without skipping or repeating requests of the same millisecond", async () => {
    const d = await createTenant("request-log-d", "pager");
    const at = new Date("2026-07-02T08:00:00.000Z");
    const seeded = Array.from({ length: 7 }, (_, i) => row(d, { at: i < 5 ? at : new Date(at.getTime() + i) }));
    for (const r of seeded) recordRequest(r);
    const scope = { developerId: d.developer.id, plane: "live" as const, take: 3 };
    const seen: string[] = [];
    let before: string | undefined;
    for (let pages = 0; pages < 5; pages++) {
      const page = await recentRequests({ ...scope, before });
      seen.push(...page.requests.map((r) => r.requestId));
      if (!page.older) break;
      before = page.older;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect(seen.slice(0, 2)).toEqual([seeded[6]!.id, seeded[5]!.id]);
    // A malformed cursor reads as none: the newest page.
    expect((await recentRequests({ ...scope, before: "garbage" })).requests[0]!.requestId).toBe(seeded[6]!.id);
  });

  it("refuses filters that are not filters", async () => {
    const scope = { developerId: a.developer.id, plane: "live" as const };
    await expect(recentRequests({ ...scope, status: "oops" })).rejects.toBeInstanceOf(ZodError);
    await expect(recentRequests({ ...scope, agentId: "not-a-uuid" })).rejects.toBeInstanceOf(ZodError);
    await expect(recentRequests({ ...scope, take: 5000 })).rejects.toBeInstanceOf(ZodError);
    await expect(recentRequests({ developerId: "x", plane: "live" })).rejects.toBeInstanceOf(ZodError);
  });
});
