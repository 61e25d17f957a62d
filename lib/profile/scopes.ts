// The profile tool scopes: what an OpenID Connect access token lets a developer's server do with the
// profile of the person who signed in (each /v1/profile route names the one it needs).

/** Every access token carries these, before the OpenID Connect scopes granted. */
export const PROFILE_TOOL_SCOPES = ["profile.read", "profile.search", "profile.remember", "profile.commit"] as const;
export type ProfileToolScope = (typeof PROFILE_TOOL_SCOPES)[number];
