// What a flow screen shows, decided here rather than in the page: each screen's view of the flow.
// The page only lays it out; the rules it shows (what meets the screen, what is offered) are the same
// functions the steps enforce.
import { configuredThirdParty, type ThirdPartyProvider } from "../auth/third-party";
import { MAILBOX_APPS, type MailboxApp } from "../catalogue";
import { isMailboxOnly, requiredMet } from "./required";
import type { FlowSession } from "./sessions";
import { connectedApps, metNames, verifiedOnceFinished, type ConnectedApp } from "./steps";

export interface MailboxView {
  /** After the code the mailbox is offered, not required (the person may skip it); first in the flow the app requires it. */
  offered: boolean;
  /** The mailboxes the page lists: every one when offered; otherwise those the required entries name. */
  mailboxes: MailboxApp[];
  connections: ConnectedApp[];
  /**
   * First in the flow: a listed mailbox is connected. After the code: the address will be proven once
   * the flow finishes (email_verified's one decision, lib/auth/email-proof.ts), by a mailbox connected here.
   */
  connectedMailbox: boolean;
  /** Continue is on: always when offered; first in the flow, once every mailbox entry is met (continueFromMailbox's rule). */
  continueEnabled: boolean;
  continueLabel: "Not now" | "Continue";
  hint: string;
  /** The other proofs of the address, offered after the code while no mailbox proves it. */
  emailCode: { pendingEmail: string | null } | null;
  thirdParty: ThirdPartyProvider[];
}

export async function mailboxView(flow: FlowSession): Promise<MailboxView> {
  const connections = await connectedApps(flow);
  const offered = !!flow.userId;
  const mailboxEntries = flow.required.filter(isMailboxOnly);
  const mailboxes = offered ? [...MAILBOX_APPS] : MAILBOX_APPS.filter((m) => mailboxEntries.some((entry) => entry.includes(m)));
  const connectedMailbox = flow.userId
    ? await verifiedOnceFinished(flow, flow.userId)
    : mailboxes.some((m) => connections.some((c) => c.app === m && c.status === "active"));
  const continueEnabled = offered || requiredMet(mailboxEntries, await metNames(flow, connections));
  const proofsOffered = offered && !connectedMailbox;
  return {
    offered,
    mailboxes,
    connections,
    connectedMailbox,
    continueEnabled,
    continueLabel: proofsOffered ? "Not now" : "Continue",
    hint: connectedMailbox
      ? offered
        ? "Your mailbox proves your email address."
        : "Your mailbox is connected."
      : offered
        ? "Your email address stays unverified until a mailbox, a code or a sign-in proves it."
        : mailboxes.length > 1
          ? "Connect one of them to continue: one is enough."
          : "Connect it to continue.",
    emailCode: proofsOffered ? { pendingEmail: flow.pendingEmail } : null,
    thirdParty: proofsOffered ? configuredThirdParty() : [],
  };
}
