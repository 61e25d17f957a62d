// The request log and usage on the dashboard: what the pages read from their query string (the plane,
// a request id searched for, the listing's filters, the days of usage), checked here, and the
// request-log queries (lib/request-log/queries.ts) they run, always for the page's own account.
import { z } from "zod";
import { listAgents } from "../agents/agents";
import type { Plane } from "../platform/db/generated/enums";
import { requestLogRetentionDays } from "../request-log/record";
import {
  findRequest,
  isRequestLogCursor,
  latestPlane,
  recentRequests,
  routePatternSchema,
  STATUS_CLASSES,
  usagePerDay,
  usagePerRoute,
  type DayUsage,
  type RequestLogPage,
  type RequestLogRow,
  type RouteUsage,
  type StatusClass,
} from "../request-log/queries";

export { requestLogRetentionDays, STATUS_CLASSES };

/** The spans the usage page offers, in days; the first is the default. */
export const USAGE_SPANS = [30, 7, 90] as const;

type Query = Record<string, string | string[] | undefined>;

/** One value of the query string (the first of repeated ones), or undefined. */
function one(query: Query, name: string): string | undefined {
  const v = query[name];
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

/** The plane a page shows: the one asked for, else the plane of the newest request, else live. */
async function planeOf(developerId: string, query: Query): Promise<Plane> {
  const asked = z.enum(["live", "test"]).safeParse(one(query, "plane"));
  return asked.success ? asked.data : ((await latestPlane({ developerId })) ?? "live");
}

export interface RequestLogFilters {
  route?: string;
  status?: StatusClass;
  agentId?: string;
  before?: string;
}

export interface RequestLogView {
  plane: Plane;
  /** The request id searched for and what was found (null: none in this account); undefined without a search. */
  search?: { id: string; found: RequestLogRow | null };
  filters: RequestLogFilters;
  page: RequestLogPage;
  /** The routes called in the last 30 days in this plane, for the route filter. */
  routes: string[];
  agents: Array<{ id: string; handle: string; displayName: string }>;
}

/** The request log page of one account: a search by request id, and the listing in one plane. */
export async function requestLogOf(developerId: string, query: Query): Promise<RequestLogView> {
  const plane = await planeOf(developerId, query);
  const searched = one(query, "id")?.trim().slice(0, 100);
  const status = z.enum(STATUS_CLASSES).safeParse(one(query, "status"));
  const route = routePatternSchema.safeParse(one(query, "route"));
  const before = one(query, "before");
  // An agent filter only for one of the account's agents, as the form offers them.
  const agents = await listAgents(developerId);
  const agentId = agents.find((a) => a.id === one(query, "agent"))?.id;
  const filters: RequestLogFilters = {
    ...(route.success ? { route: route.data } : {}),
    ...(status.success ? { status: status.data } : {}),
    ...(agentId ? { agentId } : {}),
    ...(before && isRequestLogCursor(before) ? { before } : {}),
  };
  const [found, page, routes] = await Promise.all([
    searched ? findRequest({ developerId, requestId: searched }) : Promise.resolve(undefined),
    recentRequests({ developerId, plane, ...filters }),
    usagePerRoute({ developerId, plane }),
  ]);
  return {
    plane,
    ...(searched ? { search: { id: searched, found: found ?? null } } : {}),
    filters,
    page,
    routes: [...new Set(routes.map((r) => r.route))].sort(),
    agents: agents.map((a) => ({ id: a.id, handle: a.handle, displayName: a.displayName })),
  };
}

export interface UsageView {
  plane: Plane;
  days: number;
  /** The route the per-day figures are for (one of `perRoute`), or null for every route. */
  route: { method: string; route: string } | null;
  perDay: DayUsage[];
  perRoute: RouteUsage[];
}

/**
 * The usage page of one account: per day and per route over the chosen span, in one plane; per day
 * for one route when `?route=` names one of the routes called in the span (with `?method=`).
 */
export async function usageOf(developerId: string, query: Query): Promise<UsageView> {
  const plane = await planeOf(developerId, query);
  const asked = Number(one(query, "days"));
  const days = (USAGE_SPANS as readonly number[]).includes(asked) ? asked : USAGE_SPANS[0];
  const perRoute = await usagePerRoute({ developerId, plane, days });
  const route = perRoute.find((r) => r.route === one(query, "route") && r.method === one(query, "method")) ?? null;
  const perDay = await usagePerDay({ developerId, plane, days, ...(route ? { route: route.route, method: route.method } : {}) });
  return { plane, days, route: route && { method: route.method, route: route.route }, perDay, perRoute };
}
