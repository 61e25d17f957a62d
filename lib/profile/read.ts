// GET /v1/profile: the composed profile (account claims, identity facts, preferences, summary, and
// the lists), or one box of memories opened page by page.
import { agentView } from "../agents/agents";
import { addressProven, EMAIL_PROOF_COLUMNS, type EmailProofFacts } from "../person-auth/email-proof";
import { profileClaims, type ProfileClaimSource } from "./claims";
import { VersionedCache } from "../platform/cache";
import { database, db } from "../platform/db";
import type { Composition } from "./compose";
import { MEMORY_SELECT, memoryView } from "./memories";
import { noteRead } from "./obligation";
import { parseBox, visibleMemories } from "./sources";

export type ProfileSection = "identity" | "preferences" | "summary";
export const PROFILE_SECTIONS: readonly ProfileSection[] = ["identity", "preferences", "summary"];

/** How much of each list a read shows; more is cut and named in truncated_boxes. */
export const PROFILE_READ_LIMITS = { identity: 25, preferences: 25, imports: 20 } as const;
/** Memories per page when a box is opened. */
export const BOX_PAGE_SIZE = 50;

interface ProfileRow extends EmailProofFacts, ProfileClaimSource, Record<string, unknown> {
  /** users.profile_version, as text. */
  version: string;
  preferences: Composition["preferences"] | null;
  summary: string | null;
  obligation_opened_at: Date | string | null;
  agents?:
    | {
        handle: string;
        display_name: string;
        active: boolean;
        sign_in_name: string;
        logo_url: string | null;
        brand_color: string | null;
        created_at: string;
        approved_at: string;
      }[]
    | null;
  imports?: { id: string; provider: string; source: string; memory_count: number; created_at: string }[] | null;
  connections?: { app: string; provider: string; account_email: string | null; status: string; connected_at: string }[] | null;
}

// One statement: this read sits in every conversation turn (docs/performance.md).
const CORE = `u.profile_version::text AS version, u.name, u.given_name, u.family_name, u.picture, u.birthdate, u.location, ${EMAIL_PROOF_COLUMNS},
              p.identity AS identity_facts, p.preferences, p.summary,
              (SELECT opened_at FROM read_obligations o WHERE o.user_id = u.id AND o.agent_id = $2) AS obligation_opened_at`;
const LISTS = `,
         (SELECT json_agg(json_build_object(
                   'handle', g.handle, 'display_name', g.display_name, 'active', g.active, 'sign_in_name', g.sign_in_name,
                   'logo_url', g.logo_url, 'brand_color', g.brand_color,
                   'created_at', g.created_at, 'approved_at', a.approved_at) ORDER BY a.approved_at, g.handle)
            FROM agent_approvals a JOIN agents g ON g.id = a.agent_id
           WHERE a.user_id = u.id AND a.revoked_at IS NULL) AS agents,
         (SELECT json_agg(i ORDER BY i.created_at DESC) FROM (
            SELECT id, provider, source, memory_count, created_at FROM imports
             WHERE user_id = u.id ORDER BY created_at DESC LIMIT ${PROFILE_READ_LIMITS.imports + 1}) i) AS imports,
         (SELECT json_agg(json_build_object('app', c.app, 'provider', c.provider, 'account_email', c.account_email,
                   'status', c.status, 'connected_at', c.created_at) ORDER BY c.created_at)
            FROM app_connections c WHERE c.user_id = u.id) AS connections`;
// The row comes as one JSON value: the driver parses one column, not two dozen with their types.
const sql = (lists: boolean) => `SELECT row_to_json(r) AS row FROM (SELECT ${CORE}${lists ? LISTS : ""}
    FROM users u LEFT JOIN user_profiles p ON p.user_id = u.id
   WHERE u.id = $1) r`;
const SQL_SECTIONS = sql(false);
const SQL_FULL = sql(true);
// A read whose composition is at hand: the profile's version and the agent's obligation, one point-select.
const SQL_VERSION = `SELECT u.profile_version::text AS version,
         (SELECT opened_at FROM read_obligations o WHERE o.user_id = u.id AND o.agent_id = $2) AS obligation_opened_at
    FROM users u WHERE u.id = $1`;

export type ComposedProfile = Awaited<ReturnType<typeof compose>>;

/** Compositions kept per process at most (a few kilobytes each): the ones made most recently. */
export const COMPOSED_READS_KEPT = 2_000;

/**
 * Composed reads by person and sections, each kept with the profile version it was made from
 * (users.profile_version, raised by triggers on everything the read draws from): reused while the
 * version holds, so a repeated read is one point-select and serializes what it already has.
 * Frozen: every reader gets the same object.
 */
const composedReads = new VersionedCache<ComposedProfile>("profile.composed-reads", COMPOSED_READS_KEPT);

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** PostgreSQL's JSON renders timestamps with the session's zone offset; normalise to ISO 8601 UTC. */
function iso(value: string): string {
  return new Date(value).toISOString();
}

function cut<T>(list: T[], limit: number, box: string, truncated: string[]): T[] {
  if (list.length <= limit) return list;
  truncated.push(box);
  return list.slice(0, limit);
}

/**
 * The composed profile, as the agent reads it; the read counts toward the agent's read obligation.
 * With agentId null it is the person reading their own profile (the account page): the same
 * composition, and no agent's obligation.
 */
export async function readProfile(input: { userId: string; agentId: string | null; sections?: readonly ProfileSection[] }): Promise<ComposedProfile> {
  const full = !input.sections;
  const key = `${input.userId}:${full ? "full" : [...new Set(input.sections)].sort().join(",")}`;
  const { sql } = await database();
  if (composedReads.versionOf(key) !== undefined) {
    const [now] = await sql.query<{ version: string; obligation_opened_at: Date | string | null }>(SQL_VERSION, [input.userId, input.agentId], { name: "profile_version" });
    if (!now) throw new Error(`User ${input.userId} vanished while its profile was read.`);
    const kept = composedReads.get(key, now.version);
    if (kept) {
      if (input.agentId) await noteRead({ userId: input.userId, agentId: input.agentId }, { openedAt: now.obligation_opened_at });
      return kept;
    }
  }
  const [found] = await sql.query<{ row: ProfileRow }>(full ? SQL_FULL : SQL_SECTIONS, [input.userId, input.agentId], {
    name: full ? "profile_full" : "profile_sections",
  });
  const user = found?.row;
  if (!user) throw new Error(`User ${input.userId} vanished while its profile was read.`);
  if (input.agentId) await noteRead({ userId: input.userId, agentId: input.agentId }, { openedAt: user.obligation_opened_at });
  const profile = deepFreeze(compose(user, input.sections));
  composedReads.set(key, user.version, profile);
  return profile;
}

/** The answer of a read, from its row. */
function compose(user: ProfileRow, only: readonly ProfileSection[] | undefined) {
  const full = !only;
  const sections = new Set(only ?? PROFILE_SECTIONS);
  const truncated: string[] = [];

  const composed = user.identity_facts;
  const identityFacts = composed ? [composed.name, composed.location, composed.origin, composed.work, ...(composed.relationships ?? [])].filter((e) => !!e).map((e) => e.text) : [];
  // The same claims an ID token carries, decided by the same functions.
  const claims = { ...profileClaims(user), ...(user.email ? { email: user.email, email_verified: addressProven(user) } : {}) };
  const identity = sections.has("identity") ? { ...claims, facts: cut(identityFacts, PROFILE_READ_LIMITS.identity, "identity", truncated) } : undefined;
  const preferences = sections.has("preferences")
    ? cut(
        (user.preferences ?? []).map((e) => e.text),
        PROFILE_READ_LIMITS.preferences,
        "preferences",
        truncated,
      )
    : undefined;
  const imports = full ? cut(user.imports ?? [], PROFILE_READ_LIMITS.imports, "imports", truncated) : [];

  return {
    linked: true,
    ...(identity ? { identity } : {}),
    ...(preferences ? { preferences } : {}),
    ...(sections.has("summary") ? { summary: user.summary ?? "" } : {}),
    ...(full
      ? {
          // Each connected account, and the apps the profile can use now (working connections).
          connections: (user.connections ?? []).map((c) => ({ ...c, connected_at: iso(c.connected_at) })),
          integrations: [...new Set((user.connections ?? []).filter((c) => c.status === "active").map((c) => c.app))],
          imports: imports.map((i) => ({ ...i, created_at: iso(i.created_at) })),
          agents: (user.agents ?? []).map((a) => ({
            ...agentView({
              handle: a.handle,
              displayName: a.display_name,
              active: a.active,
              signInName: a.sign_in_name,
              logoUrl: a.logo_url,
              brandColor: a.brand_color,
              createdAt: new Date(a.created_at),
            }),
            approved_at: iso(a.approved_at),
          })),
        }
      : {}),
    ...(truncated.length ? { truncated: true, truncated_boxes: truncated } : {}),
  };
}

/** One box (a category, projects/<slug>, or a source) of the user's visible memories, newest first. */
export async function readBox(input: { userId: string; agentId: string; box: string; page: number }) {
  const box = parseBox(input.box);
  await noteRead({ userId: input.userId, agentId: input.agentId });
  const memories = await (
    await db()
  ).memory.findMany({
    where: {
      ...visibleMemories(input.userId),
      ...(box.type === "source" ? { source: { in: box.sources } } : { box: box.box }),
    },
    orderBy: [{ learnedAt: "desc" }, { id: "asc" }],
    skip: (input.page - 1) * BOX_PAGE_SIZE,
    take: BOX_PAGE_SIZE + 1,
    select: MEMORY_SELECT,
  });
  const hasMore = memories.length > BOX_PAGE_SIZE;
  return {
    linked: true,
    box: input.box.trim().toLowerCase(),
    page: input.page,
    page_size: BOX_PAGE_SIZE,
    has_more: hasMore,
    memories: memories.slice(0, BOX_PAGE_SIZE).map((m) => memoryView(m)),
  };
}
