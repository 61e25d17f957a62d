// The standard profile claims (name, given_name, family_name, picture, birthdate, location) as the
// profile holds them, for every user: the account's own fields where they were set (the sandbox's seeded
// person, an operator's import), else the identity composed from the person's memories. One function
// for the ID token and GET /v1/profile.
import type { Composition } from "./compose";

/** The canonical openings of identity facts (lib/profile/distill: "Is called Sam", "Lives in Lisbon"). */
const NAME_OPENING = /^Is called\s+/i;
const LOCATION_OPENING = /^Lives in\s+/i;

export const PROFILE_CLAIMS = ["name", "given_name", "family_name", "picture", "birthdate", "location"] as const;
export type ProfileClaim = (typeof PROFILE_CLAIMS)[number];

export interface ProfileClaimSource {
  name: string | null;
  given_name: string | null;
  family_name: string | null;
  picture: string | null;
  birthdate: string | null;
  location: string | null;
  /** user_profiles.identity: the composition's identity, or null before anything was composed. */
  identity_facts: Composition["identity"] | null;
}

/** Each claim the profile holds, and only those. */
export function profileClaims(source: ProfileClaimSource): Partial<Record<ProfileClaim, string>> {
  const composedName = source.identity_facts?.name?.text.replace(NAME_OPENING, "").trim() || null;
  const composedLocation = source.identity_facts?.location?.text.replace(LOCATION_OPENING, "").trim() || null;
  const parts = composedName?.split(/\s+/) ?? [];
  const name = source.name ?? composedName;
  // A composed name splits into given and family names only when it has both.
  const split = !source.name && parts.length > 1;
  const values: Record<ProfileClaim, string | null> = {
    name,
    given_name: source.given_name ?? (split ? parts[0]! : null),
    family_name: source.family_name ?? (split ? parts.slice(1).join(" ") : null),
    picture: source.picture,
    birthdate: source.birthdate,
    location: source.location ?? composedLocation,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => !!v));
}
