// The composed profile as GET /v1/profile returns it: identity from the account, the approved agents.
import { database } from "../db";
import { agentView } from "../agents/agents";

export type ProfileSection = "identity" | "preferences" | "summary";
export const PROFILE_SECTIONS: readonly ProfileSection[] = ["identity", "preferences", "summary"];

interface ProfileRow extends Record<string, unknown> {
  name: string | null;
  given_name: string | null;
  family_name: string | null;
  picture: string | null;
  birthdate: string | null;
  location: string | null;
  email: string | null;
  email_proof: string;
  agents: { handle: string; display_name: string; active: boolean; created_at: string; approved_at: string }[] | null;
}

// One statement: this read sits in every conversation turn (docs/performance.md).
const PROFILE_SQL = `
  SELECT u.name, u.given_name, u.family_name, u.picture, u.birthdate, u.location, u.email, u.email_proof::text AS email_proof,
         (SELECT json_agg(json_build_object(
                   'handle', g.handle, 'display_name', g.display_name, 'active', g.active,
                   'created_at', g.created_at, 'approved_at', a.approved_at) ORDER BY a.approved_at, g.handle)
            FROM agent_approvals a JOIN agents g ON g.id = a.agent_id
           WHERE a.user_id = u.id AND a.revoked_at IS NULL) AS agents
    FROM users u
   WHERE u.id = $1`;

/** PostgreSQL's JSON renders timestamps without a zone suffix when the column has one; normalise to ISO 8601 UTC. */
function iso(value: string): string {
  return new Date(value).toISOString();
}

export async function readProfile(input: { userId: string; sections?: readonly ProfileSection[] }) {
  const [user] = await (await database()).sql.query<ProfileRow>(PROFILE_SQL, [input.userId]);
  if (!user) throw new Error(`User ${input.userId} vanished while its profile was read.`);
  const identity = Object.fromEntries(
    Object.entries({
      name: user.name,
      given_name: user.given_name,
      family_name: user.family_name,
      picture: user.picture,
      birthdate: user.birthdate,
      location: user.location,
      email: user.email,
      email_verified: user.email ? user.email_proof !== "none" : null,
    }).filter(([, v]) => v !== null),
  );
  const sections = new Set(input.sections ?? PROFILE_SECTIONS);
  const full = !input.sections;
  return {
    linked: true,
    ...(sections.has("identity") ? { identity } : {}),
    // Preferences and the summary are composed from memories; an account without memories has none.
    ...(sections.has("preferences") ? { preferences: [] as string[] } : {}),
    ...(sections.has("summary") ? { summary: "" } : {}),
    ...(full
      ? {
          connections: [],
          integrations: [],
          imports: [],
          agents: (user.agents ?? []).map((a) => ({
            ...agentView({ handle: a.handle, displayName: a.display_name, active: a.active, createdAt: new Date(iso(a.created_at)) }),
            approved_at: iso(a.approved_at),
          })),
        }
      : {}),
  };
}
