// The connectors a sign-in link names (`connectors=`), and the one app a link with exactly one is for.
import { SIGN_IN_LINK_CONNECTORS } from "../catalogue";

/** The connectors a link names: known sign-in connectors only (never outlook), lowercased, once each, in order. */
export function linkConnectors(params: URLSearchParams): string[] {
  const names = params
    .getAll("connectors")
    .flatMap((v) => v.split(","))
    .map((c) => c.trim().toLowerCase());
  return [...new Set(names)].filter((c) => (SIGN_IN_LINK_CONNECTORS as readonly string[]).includes(c));
}

/** The one app a sign-in link is for: exactly one valid connector; two or more is a plain sign-in offering them. */
export function oneAppOf(connectors: readonly string[]): string | null {
  const valid = [...new Set(connectors.map((c) => c.trim().toLowerCase()))].filter((c) => (SIGN_IN_LINK_CONNECTORS as readonly string[]).includes(c));
  return valid.length === 1 ? (valid[0] ?? null) : null;
}
