// The screen gallery's fixtures for the person's pages (/account and the pages under it): Ada's
// profile, agents, apps, access log and memories as the pages' loaders return them, written out by
// hand with fixed dates. No database: /dev/screens renders them through components/account/pages.
import type { AccessSurface } from "../access-log/access-log";
import type { AccessLogPage } from "../access-log/pages";
import type { ApprovedAgent } from "./agents";
import type { AccountApp } from "./apps";
import type { AccountMemory, MemoryFilter } from "./memories";
import type { SuppressionView } from "./suppressions";
import type { AccountProfile } from "./profile";

export const GALLERY_PERSON = { phoneLast4: "4567", email: "ada@example.com", emailVerified: true };

export const GALLERY_PROFILE = {
  identity: {
    name: "Ada Lovelace",
    given_name: "Ada",
    family_name: "Lovelace",
    location: "Porto, Portugal",
    email: "ada@example.com",
    email_verified: true,
    facts: ["Is called Ada Lovelace", "Lives in Porto", "Works as a structural engineer", "Has a daughter, Inês, who is seven"],
  },
  preferences: ["Prefers window seats", "Vegetarian; avoids mushrooms", "Likes small, quiet hotels over big chains", "Reads mostly history and science fiction"],
  summary:
    "Ada is a structural engineer in Porto with a seven-year-old daughter. She is learning Japanese for a trip to Kyoto next spring, runs half-marathons, and travels light: window seats, vegetarian meals, quiet hotels.",
} satisfies Pick<AccountProfile, "identity" | "preferences" | "summary">;

export const GALLERY_APPROVED_AGENTS: ApprovedAgent[] = [
  {
    agentId: "5d1c6f0e-8a3b-4f7e-9c21-0b6a3e9d4f10",
    displayName: "Acme Travel",
    developerName: "Acme Travel",
    apps: [
      { app: "gmail", capabilities: ["gmail:read", "gmail:send"] },
      { app: "calendar", capabilities: ["calendar:read"] },
    ],
    logoUrl: null,
    brandColor: "#0f766e",
    approvedAt: new Date("2026-01-12T09:30:00Z"),
  },
  {
    agentId: "a7e2b9c4-1f3d-4e8a-b6c5-2d9f0e1a3b47",
    displayName: "Kyoto Study Buddy",
    developerName: "Hikari Labs",
    apps: [],
    logoUrl: null,
    brandColor: "#b45309",
    approvedAt: new Date("2026-02-20T18:05:00Z"),
  },
];

const fact = (id: string, text: string) => ({ id: `mem_${id}`, text });

export const GALLERY_APPS: AccountApp[] = [
  {
    app: "gmail",
    state: "connected",
    accountEmail: "ada@example.com",
    held: true,
    inDevelopment: false,
    reads: "The name and signature on your last five sent emails",
    facts: [fact("g1", "Is called Ada Lovelace"), fact("g2", "Signs emails as Ada")],
  },
  {
    app: "calendar",
    state: "reconnect",
    accountEmail: "ada@example.com",
    held: true,
    inDevelopment: false,
    reads: "The titles and repeat schedules of your upcoming events",
    facts: [],
  },
  { app: "drive", state: "connect", accountEmail: null, held: false, inDevelopment: false, reads: "The titles of your most recently changed documents", facts: [] },
  { app: "notion", state: "connect", accountEmail: null, held: false, inDevelopment: true, reads: "The titles of the pages you shared, most recently edited first", facts: [] },
  { app: "outlook", state: "unavailable", accountEmail: null, held: false, inDevelopment: false, reads: "The name and signature on your last five sent emails", facts: [] },
];

const entry = (at: string, agent: string, developer: string, action: string, surface: AccessSurface, outcome = "ok") => ({
  at,
  agent,
  developer,
  action,
  surface,
  outcome,
  livemode: true,
});

export const GALLERY_ACCESS_LOG: AccessLogPage = {
  entries: [
    entry("2026-03-04T09:41:12.000Z", "Acme Travel", "Acme Travel", "GET /v1/profile", "rest"),
    entry("2026-03-04T09:40:58.000Z", "Acme Travel", "Acme Travel", "service_gmail_search", "mcp"),
    entry("2026-03-04T08:15:40.000Z", "Acme Travel", "Acme Travel", "restore_memories", "account"),
    entry("2026-03-03T21:17:03.000Z", "Kyoto Study Buddy", "Hikari Labs", "POST /v1/profile/remember", "rest"),
    entry("2026-03-03T21:16:44.000Z", "Kyoto Study Buddy", "Hikari Labs", "service_calendar_create_event", "mcp", "app_needs_reconnect"),
    entry("2026-03-03T18:22:00.000Z", "Acme Travel", "Acme Travel", "hide_memories", "rest"),
    entry("2026-03-02T08:02:30.000Z", "Acme Travel", "Acme Travel", "POST /v1/profile/commit", "rest"),
    entry("2026-03-01T16:55:09.000Z", "Acme Travel", "Acme Travel", "service_email_send", "mcp", "permission_needed"),
  ],
  older: "1772384109000_0c9e1f2a-3b4d-4e5f-8a6b-7c8d9e0f1a2b",
  newer: null,
  newest: true,
};

const memory = (id: string, text: string, box: string, kind: string, source: string, learnedAt: string, extra: Partial<AccountMemory> = {}): AccountMemory => ({
  id: `mem_${id}`,
  text,
  box,
  kind,
  source,
  written_by: source.startsWith("agents/") ? "agent" : "import",
  learned_at: learnedAt,
  said_at: null,
  yours: false,
  ...extra,
});

export const GALLERY_MEMORIES: AccountMemory[] = [
  memory("m01", "Wants a ryokan with an onsen for two nights in Kyoto", "projects/kyoto-trip", "plan", "agents/acme-travel", "2026-03-04T09:41:00Z"),
  memory("m02", "Flying Porto to Osaka via Frankfurt on April 9", "plans", "plan", "agents/acme-travel", "2026-03-03T12:10:00Z"),
  memory("m03", "Is called Ada Lovelace", "identity", "name", "apps/gmail", "2026-03-02T08:00:00Z"),
  memory("m04", "Practises Japanese for 20 minutes every morning", "projects/kyoto-trip", "project", "agents/kyoto-study-buddy", "2026-02-27T07:30:00Z"),
  memory("m05", "Vegetarian; avoids mushrooms", "preferences", "preference", "imports/chatgpt", "2026-02-14T10:00:00Z", { said_at: "2025-11-02T19:20:00Z" }),
  memory("m06", "Works as a structural engineer in Porto", "work", "work", "imports/chatgpt", "2026-02-14T10:00:00Z", {
    said_at: "2025-09-18T08:45:00Z",
    written_by: "user",
    yours: true,
  }),
  memory("m07", "Has a daughter, Inês, who is seven", "relationships", "relationship", "imports/claude", "2026-02-14T09:58:00Z", { said_at: "2025-12-24T21:03:00Z" }),
  memory("m08", "Runs half-marathons; training for Porto in November", "other", "like", "imports/claude", "2026-02-14T09:58:00Z", { said_at: "2025-06-30T06:15:00Z" }),
];

/** What was hidden at Ada's request: one agent's forget across two sources, and one of her own. */
export const GALLERY_HIDDEN: SuppressionView[] = [
  {
    id: "sup_Gal1ery0Hidden0Acme00001",
    requestedBy: "agent",
    agent: { name: "Acme Travel", developer: "Acme Travel" },
    createdAt: "2026-03-03T18:22:00.000Z",
    count: 2,
    memories: [
      { id: "mem_h01", text: "Is planning a surprise trip to Lisbon for her sister's birthday", source: "agents/kyoto-study-buddy" },
      { id: "mem_h02", text: "Planning a surprise Lisbon trip for her sister", source: "imports/chatgpt" },
    ],
  },
  {
    id: "sup_Gal1ery0Hidden0Ada000002",
    requestedBy: "person",
    agent: null,
    createdAt: "2026-02-20T08:10:00.000Z",
    count: 1,
    memories: [{ id: "mem_h03", text: "Used to live in Coimbra", source: "imports/claude" }],
  },
];

/** Page one of the list, unfiltered; the filters count every memory (the list goes on to page two). */
export const GALLERY_MEMORY_LIST = {
  filter: { page: 1 } as MemoryFilter,
  memories: GALLERY_MEMORIES,
  hasMore: true,
  boxes: [
    { box: "identity", count: 3 },
    { box: "other", count: 4 },
    { box: "plans", count: 6 },
    { box: "preferences", count: 12 },
    { box: "projects/kyoto-trip", count: 9 },
    { box: "relationships", count: 2 },
    { box: "work", count: 5 },
  ],
  sources: [
    { source: "agents/acme-travel", count: 14 },
    { source: "agents/kyoto-study-buddy", count: 9 },
    { source: "apps/gmail", count: 2 },
    { source: "imports/chatgpt", count: 12 },
    { source: "imports/claude", count: 4 },
  ],
  hidden: GALLERY_HIDDEN,
};
