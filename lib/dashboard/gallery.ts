// The screen gallery's fixtures for the developer dashboard: the account "Acme Travel", owned by
// ada@example.com, with its keys, agents, origins, SSO clients and members as the pages' loaders
// return them, written out by hand with fixed dates. No database: /dev/screens renders them through
// components/dashboard/pages (components/dashboard/gallery.tsx names the states). The activity pages'
// fixtures (sign-in links, usage, requests, imports) are in ./gallery-activity.ts.
import type { agentsOf } from "./agents";
import type { DashboardContext } from "./context";
import type { keysOf } from "./keys";
import type { originsOf } from "./origins";
import type { accountOverview } from "./overview";
import type { ssoClientsOf } from "./sso-clients";
import type { listMembers } from "../developer-auth/accounts";
import type { inviteByToken, pendingInvites } from "../developer-auth/invites";

const ACME = "3f6c2a9e-7b14-4d2e-9a85-1c0e6b7d4f21";
const ADA = "8e1b4c7a-2d5f-4a93-b0c6-9f3e7a1d5b28";
const GRACE = "c2a7e9d4-6f1b-4e38-8d05-7b9c3e2f1a64";
const LINUS = "f4d9b2e6-3a7c-4f15-9e28-6c1a0b8d7e39";
/** A former member: removed on March 3, his staging key still works. */
const ALAN = "9a3d6f1c-8e2b-4c57-b1e4-5f7a0c2d8e16";
const at = (iso: string) => new Date(iso);

export const GALLERY_EMAIL = "ada@example.com";

/** Ada, signed in, looking at Acme Travel (her only account, which she owns). */
export const GALLERY_CONTEXT: DashboardContext = {
  user: { id: ADA, email: GALLERY_EMAIL },
  memberships: [{ developerId: ACME, name: "Acme Travel", role: "owner", sandbox: false }],
  account: { developerId: ACME, name: "Acme Travel", role: "owner", sandbox: false },
};

type Key = Awaited<ReturnType<typeof keysOf>>[number];
const key = (k: Omit<Key, "state" | "revokedAt" | "lastUsedAt" | "madeBy"> & Partial<Pick<Key, "state" | "revokedAt" | "lastUsedAt" | "madeBy">>): Key => ({
  state: "active",
  revokedAt: null,
  lastUsedAt: null,
  madeBy: { via: "dashboard", dashboardUserId: ADA, email: GALLERY_EMAIL, member: true },
  ...k,
});

/**
 * Both planes, oldest first: a live secret key rotated on March 4 (the old one still works for its 24-hour overlap,
 * the new one beside it), a live publishable key, a revoked test key, and a test secret key that a
 * former member made. Makers: Ada, Grace, the command-line tool, and Alan (no longer a member).
 */
export const GALLERY_KEYS = [
  key({
    id: "0b7e4d2a-1c9f-4e36-8a05-5d2f7c1e9b40",
    kind: "secret",
    plane: "live",
    prefix: "sk_Xq7m",
    name: "Production server",
    createdAt: at("2026-01-08T10:12:00Z"),
    lastUsedAt: at("2026-03-04T09:41:00Z"),
    state: "rotating",
    revokedAt: at("2026-03-05T08:30:00Z"),
    madeBy: { via: "command_line" },
  }),
  key({
    id: "6a2f9c1e-4b7d-4e80-93a5-2c8e1f6b0d57",
    kind: "publishable",
    plane: "live",
    prefix: "pk_Lw4n",
    name: "Booking site",
    createdAt: at("2026-01-08T10:14:00Z"),
    lastUsedAt: at("2026-03-04T09:39:00Z"),
  }),
  key({
    id: "d1e8b3f6-7a2c-4d59-a014-8f6c2b9e3a71",
    kind: "secret",
    plane: "live",
    prefix: "sk_Hc9v",
    name: "Production server",
    createdAt: at("2026-03-04T08:30:00Z"),
    lastUsedAt: at("2026-03-04T09:41:00Z"),
    madeBy: { via: "dashboard", dashboardUserId: GRACE, email: "grace@acme-travel.example", member: true },
  }),
  key({
    id: "4e9d1b7c-8a3f-4c26-b5e1-0d6f2a8c4e93",
    kind: "secret",
    plane: "test",
    prefix: "sk_test_Qz8f",
    name: "Laptop",
    createdAt: at("2025-12-10T09:00:00Z"),
    state: "revoked",
    revokedAt: at("2026-01-20T11:45:00Z"),
    madeBy: { via: "unrecorded" },
  }),
  key({
    id: "9c4a7e1b-2f8d-4b63-85e0-1a7d3c9f6b28",
    kind: "secret",
    plane: "test",
    prefix: "sk_test_Bn2k",
    name: "Staging",
    createdAt: at("2025-12-15T14:02:00Z"),
    lastUsedAt: at("2026-03-03T17:20:00Z"),
    madeBy: { via: "dashboard", dashboardUserId: ALAN, email: "alan@acme-travel.example", member: false },
  }),
] satisfies Awaited<ReturnType<typeof keysOf>>;

export const GALLERY_AGENTS = [
  {
    handle: "acme-travel",
    display_name: "Acme Travel",
    active: true,
    created_at: "2026-01-08T10:20:00.000Z",
    logo_url: "https://travel.example.com/logo.png",
    brand_color: "#0f766e",
    sign_in_url: "https://profile.example.com/sign-in/acme-travel",
  },
  {
    handle: "trip-concierge",
    display_name: "Trip Concierge",
    active: false,
    created_at: "2026-02-11T15:45:00.000Z",
    logo_url: null,
    brand_color: null,
    sign_in_url: "https://profile.example.com/sign-in/trip-concierge",
  },
] satisfies Awaited<ReturnType<typeof agentsOf>>;

export const GALLERY_ORIGINS = [
  { id: "7b3e9a1d-5c2f-4e84-a6b0-3d8f1c7e2a59", origin: "https://travel.example.com", createdAt: at("2026-01-08T10:25:00Z") },
  { id: "2c8f4e6a-9d1b-4a37-8e52-6f0b3a9d1c84", origin: "https://staging.travel.example.com", createdAt: at("2026-01-09T16:00:00Z") },
  { id: "e5a1c9f3-4b7d-4d26-90e8-2a6c8f4b1d73", origin: "https://partners.acme-travel.example:8443", createdAt: at("2026-02-02T12:30:00Z") },
] satisfies Awaited<ReturnType<typeof originsOf>>;

export const GALLERY_SSO_CLIENTS = [
  {
    client_id: "oc_4Fh8Kq2Zx7Lm9Rt3Vb6N",
    token_endpoint_auth_method: "client_secret_basic",
    redirect_uris: ["https://travel.example.com/auth/callback", "https://travel.example.com/partners/auth/callback"],
    created_at: "2026-01-10T09:00:00.000Z",
    plane: "live",
  },
  {
    client_id: "oc_9Tn3Wd5Yc1Hp8Gs2Jk4Q",
    token_endpoint_auth_method: "none",
    redirect_uris: ["http://localhost:3000/auth/callback", "https://staging.travel.example.com/auth/callback"],
    created_at: "2026-01-09T16:10:00.000Z",
    plane: "test",
  },
] satisfies Awaited<ReturnType<typeof ssoClientsOf>>;

export const GALLERY_MEMBERS = {
  members: [
    { dashboardUserId: ADA, email: GALLERY_EMAIL, role: "owner", since: at("2026-01-08T10:00:00Z") },
    { dashboardUserId: GRACE, email: "grace@acme-travel.example", role: "owner", since: at("2026-01-15T13:20:00Z") },
    { dashboardUserId: LINUS, email: "linus@acme-travel.example", role: "member", since: at("2026-02-03T08:55:00Z") },
  ] satisfies Awaited<ReturnType<typeof listMembers>>,
  invites: [
    {
      id: "b9d2f7a4-1e6c-4b83-a5f0-8c3e1d7b2a96",
      email: "katherine@acme-travel.example",
      role: "member",
      createdAt: at("2026-03-02T14:00:00Z"),
      expiresAt: at("2026-03-09T14:00:00Z"),
    },
  ] satisfies Awaited<ReturnType<typeof pendingInvites>>,
  /** Alan left on March 3; the staging key he made still works. */
  formerKeys: [{ dashboardUserId: ALAN, email: "alan@acme-travel.example", prefixes: ["sk_test_Bn2k"] }],
};

/** The overview counts what the fixtures above hold: working keys per plane, agents, origins, members. */
export const GALLERY_OVERVIEW = { liveKeys: 3, testKeys: 1, agents: 2, activeAgents: 1, origins: 3, members: 3, requestPlane: "live" } satisfies Awaited<
  ReturnType<typeof accountOverview>
>;

/** A new account's overview: nothing yet, every step still to do. */
export const GALLERY_OVERVIEW_EMPTY = { liveKeys: 0, testKeys: 0, agents: 0, activeAgents: 0, origins: 0, members: 1, requestPlane: null } satisfies Awaited<
  ReturnType<typeof accountOverview>
>;

export const GALLERY_INVITE = {
  invite: { email: "katherine@acme-travel.example", role: "member", accountName: "Acme Travel" } satisfies NonNullable<Awaited<ReturnType<typeof inviteByToken>>>,
  token: "Vb6N4Fh8Kq2Zx7Lm9Rt3Tn3Wd5Yc1Hp8Gs2Jk4Q",
};
