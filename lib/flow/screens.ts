// The hosted flow's screens, the ways in that open flows, and the screen orders ways in share. Each
// way in (lib/flow/ways-in/) says its own order from these; lib/flow/sequence.ts reads it. The
// specification's "First screen by way in" table is its test (tests/flow/sequence.test.ts).
import { isMailboxOnly, type RequiredEntry } from "../required/entries";

export const SCREENS = ["mailbox", "import", "app", "apps", "capability", "phone", "code", "receipt"] as const;
export type Screen = (typeof SCREENS)[number];

/**
 * How the person arrived: the ways in the service opens flows for (the database's FlowWayIn). Hosted
 * sign-in links ({sign_in_url}/<agent>), text-back links among them, are "sign_in_link"; an MCP client
 * a person installs signing them in at {mcp_url} is "mcp_client"; a partner flow session's link
 * ({base_url}/partner/<id>) is "partner".
 */
export const WAY_IN_NAMES = ["oidc", "mcp_client", "profile_signup", "connect", "sign_in_link", "partner"] as const;
export type WayInName = (typeof WAY_IN_NAMES)[number];

/** What orders a flow's screens besides its way in's request. */
export interface OrderInput {
  required: RequiredEntry[];
  /** The person chose "Sign in" under Continue: phone and code come before the import screen. */
  signInFirst?: boolean;
  /** The mailbox page after the code: the way in asked for it once the person was known. */
  mailboxAfterCode?: boolean;
}

/**
 * The import screen, then phone and code (or, after "Sign in", phone and code first), the mailbox page
 * after the code when the way in asked for it, and the receipt. With `mailboxFirst` (an OpenID Connect
 * request) a required entry made only of mailboxes puts the mailbox page first; other entries apply on
 * the import screen.
 */
export function importFirstOrder(input: OrderInput, options: { mailboxFirst?: boolean } = {}): Screen[] {
  const mailboxFirst = !!options.mailboxFirst && input.required.some(isMailboxOnly);
  const middle: Screen[] = input.signInFirst ? ["phone", "code", "import"] : ["import", "phone", "code"];
  const afterCode: Screen[] = input.mailboxAfterCode && !mailboxFirst ? ["mailbox"] : [];
  return [...(mailboxFirst ? (["mailbox"] as Screen[]) : []), ...middle, ...afterCode, "receipt"];
}

/** The screen after `current` in `order` (the receipt is last). */
export function screenAfter(order: readonly Screen[], current: Screen): Screen {
  const at = order.indexOf(current);
  return order[Math.min(order.length - 1, at < 0 ? 0 : at + 1)] ?? "receipt";
}
