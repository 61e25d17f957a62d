// The order of the hosted flow's screens, decided by one function from the way in. The
// specification's "First screen by way in" table is its test (tests/flow-sequence.test.ts).
import { SIGN_IN_LINK_CONNECTORS } from "../catalogue";
import { isMailboxOnly, type RequiredEntry } from "./required";

export const SCREENS = ["mailbox", "import", "app", "apps", "capability", "phone", "code", "receipt"] as const;
export type Screen = (typeof SCREENS)[number];

/** How the person arrived: the ways in the service opens flows for. */
export const WAYS_IN = ["oidc", "mcp_client", "profile_signup", "connect", "sign_in_link", "partner"] as const;
export type WayIn = (typeof WAYS_IN)[number];
/**
 * Hosted sign-in links ({sign_in_url}/<agent>), text-back links among them, are the "sign_in_link" way
 * in; an MCP client a person installs signing them in at {mcp_url} is "mcp_client"; a partner flow
 * session's link ({base_url}/partner/<id>) is "partner".
 */
export type SequencedWayIn = WayIn;


export interface SequenceInput {
  wayIn: SequencedWayIn;
  required: RequiredEntry[];
  /** The person chose "Sign in" under Continue: phone and code come before the import screen. */
  signInFirst?: boolean;
  /** The mailbox page after the code: an OpenID Connect client asked for email and the account has no verified one, or a profile sign-up has no mailbox. */
  mailboxAfterCode?: boolean;
  /** A connect link's request: one app, a capability, and whether the person was signed in when it opened. */
  connect?: { app?: string | null; capability?: string | null; signedIn?: boolean };
  /** A sign-in link's connectors, as given (unknown names and outlook are not connectors). */
  signInLink?: { connectors: readonly string[] };
  /** A partner link's flow, and whether its developer puts phone and code first (linked_account only). */
  partner?: { flow: PartnerFlow; phoneFirst?: boolean };
}

/**
 * The flows a partner session opens: `connect` (import, phone, code), `linked_account` (served as
 * connect; phone and code first where the developer asked for it), and `import`, the import-only flow
 * (the import screen, then the receipt: no phone or code).
 */
export const PARTNER_FLOWS = ["connect", "linked_account", "import"] as const;
export type PartnerFlow = (typeof PARTNER_FLOWS)[number];

/**
 * How each way in orders its screens: one row per way in. A new way in (text-back links, MCP install
 * login, partner links) is a row here, its screens, and its entry in WAYS_IN.
 */
const SEQUENCES: Readonly<Record<SequencedWayIn, (input: SequenceInput) => Screen[]>> = {
  oidc: importFirstSequence,
  mcp_client: importFirstSequence,
  profile_signup: importFirstSequence,
  connect: (input) => connectSequence(input.connect ?? {}),
  sign_in_link: signInLinkSequence,
  partner: partnerSequence,
};

/** The screens in order, for the flow's way in. */
export function screenSequence(input: SequenceInput): Screen[] {
  return SEQUENCES[input.wayIn](input);
}

/**
 * The import screen, then phone and code (or, after "Sign in", phone and code first). The mailbox page
 * comes first only for an OpenID Connect request whose required entry is made only of mailboxes; other
 * entries apply on the import screen.
 */
function importFirstSequence(input: SequenceInput): Screen[] {
  const mailboxFirst = input.wayIn === "oidc" && input.required.some(isMailboxOnly);
  const middle: Screen[] = input.signInFirst ? ["phone", "code", "import"] : ["import", "phone", "code"];
  const afterCode: Screen[] = input.mailboxAfterCode && !mailboxFirst ? ["mailbox"] : [];
  return [...(mailboxFirst ? (["mailbox"] as Screen[]) : []), ...middle, ...afterCode, "receipt"];
}

/**
 * A partner link: the import-only flow is the import screen and the receipt; connect and
 * linked_account are a sign-in's import, phone, code (linked_account with phone-first: phone, code,
 * then the import screen signed in, as after "Sign in").
 */
function partnerSequence(input: SequenceInput): Screen[] {
  const partner = input.partner ?? { flow: "connect" };
  if (partner.flow === "import") return ["import", "receipt"];
  const phoneFirst = partner.flow === "linked_account" && !!partner.phoneFirst;
  return importFirstSequence({ ...input, signInFirst: input.signInFirst || phoneFirst });
}

/** A sign-in link: one app opens on that app's screen; Sheets on the older connect page; otherwise as a sign-in. */
function signInLinkSequence(input: SequenceInput): Screen[] {
  const linkApp = oneAppOf(input.signInLink?.connectors ?? []);
  // The older connect page: phone, code, then Sheets; required does not apply.
  if (linkApp === "sheets") return ["phone", "code", "app", "receipt"];
  if (!linkApp) return importFirstSequence(input);
  // That app's own screen, marked Required; the mailbox page first only when a mailbox entry is not met
  // by the app itself (connectors ['gmail'] with required ['email'] opens on Gmail).
  const mailboxUnmet = input.required.some((e) => isMailboxOnly(e) && !e.includes(linkApp as RequiredEntry[number]));
  return [...(mailboxUnmet ? (["mailbox"] as Screen[]) : []), "app", "phone", "code", "receipt"];
}

/**
 * A connect link: a capability keeps its own page (phone and code first for a person not signed
 * in); one app opens on that app (phone and code after it); no app opens on the import screen, or
 * on the list of apps for a signed-in person.
 */
function connectSequence(c: NonNullable<SequenceInput["connect"]>): Screen[] {
  const signIn: Screen[] = c.signedIn ? [] : ["phone", "code"];
  if (c.capability) return [...signIn, "capability", "receipt"];
  if (c.app) return ["app", ...signIn, "receipt"];
  return c.signedIn ? ["apps", "receipt"] : ["import", "phone", "code", "receipt"];
}

/** The one app a sign-in link is for: exactly one valid connector; two or more is a plain sign-in offering them. */
export function oneAppOf(connectors: readonly string[]): string | null {
  const valid = [...new Set(connectors.map((c) => c.trim().toLowerCase()))].filter((c) => (SIGN_IN_LINK_CONNECTORS as readonly string[]).includes(c));
  return valid.length === 1 ? valid[0]! : null;
}

export function firstScreen(input: SequenceInput): Screen {
  return screenSequence(input)[0]!;
}

/** The screen after `current` on the person's way (the receipt is last). */
export function nextScreen(input: SequenceInput, current: Screen): Screen {
  const order = screenSequence(input);
  const at = order.indexOf(current);
  return order[Math.min(order.length - 1, at < 0 ? 0 : at + 1)]!;
}
