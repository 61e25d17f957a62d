// The screen gallery's fixtures for the developer dashboard's activity pages: sign-in links, usage,
// the request log and bulk imports of the account "Acme Travel" (./gallery.ts), with fixed dates.
import { IMPORT_TIER_LIMITS } from "../import-jobs/limits";
import type { DayUsage, RequestLogRow } from "../request-log/queries";
import type { DashboardImportJob, ImportsOverview } from "./imports";
import type { RequestLogView, UsageView } from "./requests";
import type { SignInLinksView } from "./sign-in-links";

const at = (iso: string) => new Date(iso);

const ACME_AGENT = "5d2b8f1e-6a4c-4e97-b3d0-8c1f7a2e9b46";
const CONCIERGE_AGENT = "a9e3c7b1-0d5f-4c28-9e64-2b7f1d8a3c50";
const GALLERY_TODAY = Date.UTC(2026, 2, 4);
const DAY_MS = 86_400_000;

/** The sign-in links page: return destinations of both planes, two message lines, phone first off. */
export const GALLERY_SIGN_IN_LINKS = {
  agents: [
    {
      handle: "acme-travel",
      displayName: "Acme Travel",
      destinations: [
        { plane: "live", url: "https://travel.example.com/signed-in" },
        { plane: "live", url: "acmetravel://signed-in" },
        { plane: "test", url: "http://localhost:3000/signed-in" },
      ],
      lines: [
        { id: "3a7c1e9b-5d2f-4b86-a0e4-7c9f2b1d6e38", plane: "live", channel: "sms", last4: "0123", label: "Concierge" },
        { id: "b8d4f2a6-1e9c-4a53-87b0-5f3e9c2a7d14", plane: "live", channel: "imessage", last4: "0187", label: "" },
      ],
    },
    { handle: "trip-concierge", displayName: "Trip Concierge", destinations: [], lines: [] },
  ],
  partnerPhoneFirst: false,
  // The live secret was rotated this morning: the one it replaced signs beside it until tomorrow.
  callbackSecrets: {
    live: { secret: "whsec_Q2v8Lm4Tz9Wk1Rb7Vn5Cy3Hp6Gs0Jk2Xq8Fd4Nt7Yaw", createdAt: at("2026-03-04T08:45:00Z"), previous: { expiresAt: at("2026-03-05T08:45:00Z") } },
    test: { secret: "whsec_Zt3Kp9Wd1Yc5Hn8Gs2Jq4Lm7Vb6Xr0Fa3Nc9Te5Ub1e", createdAt: at("2026-01-08T10:20:00Z"), previous: null },
  },
} satisfies SignInLinksView;

/** A day of the month before March 4: busier on weekdays, with a bad afternoon on February 24. */
function usageDay(i: number): DayUsage {
  const date = new Date(GALLERY_TODAY - (29 - i) * DAY_MS);
  const weekday = date.getUTCDay() % 6 !== 0;
  const requests = (weekday ? 4_200 : 1_700) + ((i * 7_919) % 900);
  const errors = i === 20 ? 412 : Math.round(requests * (0.004 + ((i * 31) % 7) / 1_000));
  return {
    day: date.toISOString().slice(0, 10),
    requests,
    errors,
    serverErrors: i === 20 ? 377 : Math.floor(errors / 9),
    errorRate: errors / requests,
    p50Ms: 18 + (i % 5),
    p95Ms: 61 + ((i * 13) % 40),
  };
}

/** The usage page: the live plane over 30 days. */
export const GALLERY_USAGE = {
  plane: "live",
  days: 30,
  route: null,
  perDay: Array.from({ length: 30 }, (_, i) => usageDay(i)),
  perRoute: [
    { method: "GET", route: "/v1/profile", requests: 61_204, errors: 198, serverErrors: 41, errorRate: 198 / 61_204, p50Ms: 14, p95Ms: 48 },
    { method: "POST", route: "/v1/profile/commit", requests: 28_870, errors: 233, serverErrors: 190, errorRate: 233 / 28_870, p50Ms: 31, p95Ms: 96 },
    { method: "POST", route: "/v1/profile/search", requests: 9_512, errors: 12, serverErrors: 0, errorRate: 12 / 9_512, p50Ms: 22, p95Ms: 70 },
    { method: "POST", route: "/mcp", requests: 3_140, errors: 96, serverErrors: 3, errorRate: 96 / 3_140, p50Ms: 19, p95Ms: 64 },
    { method: "POST", route: "/v1/import/profiles", requests: 6, errors: 1, serverErrors: 0, errorRate: 1 / 6, p50Ms: 240, p95Ms: 412 },
  ],
} satisfies UsageView;

const request = (n: number, minutesAgo: number, r: Partial<RequestLogRow>): RequestLogRow => ({
  requestId: `req_Gx${String(n).padStart(2, "0")}Lm7Qa9Tz4Wk2Rb8Vn5Cy`,
  at: new Date(GALLERY_TODAY + 9 * 3_600_000 + 41 * 60_000 - minutesAgo * 60_000 - n * 1_000).toISOString(),
  plane: "live",
  agentId: ACME_AGENT,
  agent: { handle: "acme-travel", displayName: "Acme Travel" },
  method: "GET",
  route: "/v1/profile",
  status: 200,
  errorCode: null,
  latencyMs: 16,
  ...r,
});

const GALLERY_REQUEST_ROWS = [
  request(1, 0, {}),
  request(2, 0, { method: "POST", route: "/v1/profile/commit", status: 202, latencyMs: 38 }),
  request(3, 1, { status: 403, errorCode: "agent_not_approved", latencyMs: 6 }),
  request(4, 2, { method: "POST", route: "/mcp", agentId: CONCIERGE_AGENT, agent: { handle: "trip-concierge", displayName: "Trip Concierge" }, latencyMs: 22 }),
  request(5, 4, { method: "POST", route: "/v1/profile/search", status: 422, errorCode: "invalid_format", latencyMs: 4 }),
  request(6, 7, { method: "DELETE", route: "/v1/profile/memories/[memoryId]", status: 204, latencyMs: 12 }),
  request(7, 9, { status: 503, errorCode: "unavailable", latencyMs: 1_204 }),
];

const GALLERY_REQUEST_AGENTS = [
  { id: ACME_AGENT, handle: "acme-travel", displayName: "Acme Travel" },
  { id: CONCIERGE_AGENT, handle: "trip-concierge", displayName: "Trip Concierge" },
];
const GALLERY_ROUTES = ["/mcp", "/v1/profile", "/v1/profile/commit", "/v1/profile/memories/[memoryId]", "/v1/profile/search"];

/** The request log: recent live requests, more on older pages. */
export const GALLERY_REQUESTS = {
  plane: "live",
  filters: {},
  page: { requests: GALLERY_REQUEST_ROWS, older: `${Date.parse(GALLERY_REQUEST_ROWS.at(-1)!.at)}_${GALLERY_REQUEST_ROWS.at(-1)!.requestId}` },
  routes: GALLERY_ROUTES,
  agents: GALLERY_REQUEST_AGENTS,
} satisfies RequestLogView;

/** The request log with a request found by its id, and the listing filtered to errors. */
export const GALLERY_REQUESTS_FOUND = {
  plane: "live",
  search: { id: GALLERY_REQUEST_ROWS[2]!.requestId, found: GALLERY_REQUEST_ROWS[2]! },
  filters: { status: "error" },
  page: { requests: GALLERY_REQUEST_ROWS.filter((r) => r.status >= 400), older: null },
  routes: GALLERY_ROUTES,
  agents: GALLERY_REQUEST_AGENTS,
} satisfies RequestLogView;

/** A new account's empty test-plane log. */
export const GALLERY_REQUESTS_EMPTY = { plane: "test", filters: {}, page: { requests: [], older: null }, routes: [], agents: [] } satisfies RequestLogView;

const job = (j: Partial<DashboardImportJob> & Pick<DashboardImportJob, "id" | "status" | "accepted_profiles" | "progress">): DashboardImportJob => ({
  mode: "backfill",
  estimated_message_count: j.accepted_profiles * 84,
  estimated_input_chars: j.accepted_profiles * 9_100,
  errors: [],
  cancel_requested: false,
  error: null,
  created_at: "2026-03-04T09:12:00.000Z",
  started_at: "2026-03-04T09:12:01.000Z",
  finished_at: null,
  agent: { handle: "acme-travel", displayName: "Acme Travel" },
  ...j,
});

/** The import page: the Pro tier, a job running, one completed with errors, one cancelled. */
export const GALLERY_IMPORTS = {
  plane: "live",
  tier: "pro",
  limits: IMPORT_TIER_LIMITS.pro,
  profilesUsed: 612,
  activeJobs: 1,
  jobs: [
    job({
      id: "imp_R4t8Yk2Wq9Lm3Hn7Bx5Cv1Zd",
      status: "running",
      accepted_profiles: 250,
      progress: { profiles_imported: 148, profiles_failed: 2, profiles_cancelled: 0, profiles_pending: 100, messages_processed: 12_480, memories_written: 3_904 },
      errors: [
        { external_id: "user-8412", code: "agent_not_approved", message: "This user's profile belongs to a person who has not approved the agent." },
        { external_id: "user-9027", code: "agent_not_approved", message: "This user's profile belongs to a person who has not approved the agent." },
      ],
    }),
    job({
      id: "imp_M2c6Vb9Xn4Qs8Tf1Lp7Hj3Kw",
      status: "completed",
      accepted_profiles: 250,
      created_at: "2026-03-03T16:40:00.000Z",
      started_at: "2026-03-03T16:40:01.000Z",
      finished_at: "2026-03-03T16:52:37.000Z",
      progress: { profiles_imported: 250, profiles_failed: 0, profiles_cancelled: 0, profiles_pending: 0, messages_processed: 21_118, memories_written: 6_650 },
    }),
    job({
      id: "imp_P9d3Gh7Ja1Ks5Nf2Ur8Ye4Bt",
      status: "cancelled",
      accepted_profiles: 200,
      cancel_requested: true,
      created_at: "2026-03-02T11:05:00.000Z",
      started_at: "2026-03-02T11:05:02.000Z",
      finished_at: "2026-03-02T11:07:45.000Z",
      agent: { handle: "trip-concierge", displayName: "Trip Concierge" },
      progress: { profiles_imported: 75, profiles_failed: 0, profiles_cancelled: 125, profiles_pending: 0, messages_processed: 6_300, memories_written: 1_980 },
    }),
  ],
} satisfies ImportsOverview;
