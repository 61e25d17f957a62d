// The order of the hosted flow's screens, decided by one function from the way in. The
// specification's "First screen by way in" table is its test (tests/flow-sequence.test.ts).
import { isMailboxOnly, type RequiredEntry } from "../oidc/required";

export type Screen = "mailbox" | "import" | "app" | "apps" | "capability" | "phone" | "code" | "receipt";

/** How the person arrived. */
export type WayIn = "oidc" | "profile_signup" | "connect";
export const WAYS_IN: readonly WayIn[] = ["oidc", "profile_signup", "connect"];

export interface SequenceInput {
  wayIn: WayIn;
  required: RequiredEntry[];
  /** The person chose "Sign in" under Continue: phone and code come before the import screen. */
  signInFirst?: boolean;
  /** The mailbox page after the code: an OpenID Connect client asked for email and the account has no verified one, or a profile sign-up has no mailbox. */
  mailboxAfterCode?: boolean;
  /** A connect link's request: one app, a capability, and whether the person was signed in when it opened. */
  connect?: { app?: string | null; capability?: string | null; signedIn?: boolean };
}

/**
 * The screens in order. The mailbox page comes first only for an OpenID Connect request whose
 * required entry is made only of mailboxes; other entries apply on the import screen.
 */
export function screenSequence(input: SequenceInput): Screen[] {
  if (input.wayIn === "connect") return connectSequence(input.connect ?? {});
  const mailboxFirst = input.wayIn === "oidc" && input.required.some(isMailboxOnly);
  const middle: Screen[] = input.signInFirst ? ["phone", "code", "import"] : ["import", "phone", "code"];
  const afterCode: Screen[] = input.mailboxAfterCode && !mailboxFirst ? ["mailbox"] : [];
  return [...(mailboxFirst ? (["mailbox"] as Screen[]) : []), ...middle, ...afterCode, "receipt"];
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

export function firstScreen(input: SequenceInput): Screen {
  return screenSequence(input)[0]!;
}

/** The screen after `current` on the person's way (the receipt is last). */
export function nextScreen(input: SequenceInput, current: Screen): Screen {
  const order = screenSequence(input);
  const at = order.indexOf(current);
  return order[Math.min(order.length - 1, at < 0 ? 0 : at + 1)]!;
}
