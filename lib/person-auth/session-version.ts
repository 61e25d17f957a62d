// Session versions: a browser session cookie carries the version of its owner's sessions it was made
// under (claim "sv"; a cookie made before versions existed counts as 0). "Sign out everywhere" raises
// the stored version, and every read of a session refuses a cookie whose version is not the stored one.

/** The session token's claim holding its version. */
export const SESSION_VERSION_CLAIM = "sv";

/** The version a decoded session token was made under. */
export function versionOfToken(token: Record<string, unknown> | null | undefined): number {
  const v = token?.[SESSION_VERSION_CLAIM];
  return typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : 0;
}

/** Whether a session token still holds: it names someone who exists, under their current version. */
export function isCurrentVersion(token: Record<string, unknown> | null | undefined, stored: { sessionVersion: number } | null): boolean {
  return stored !== null && versionOfToken(token) === stored.sessionVersion;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
