// The mailbox page's steps. First in the flow it asks for a mailbox an entry requires; after the code
// it offers the proofs of the person's address: a mailbox, a code e-mailed to an address they give, or
// a Google or GitHub sign-in.
import { accountEmailVerified } from "../../person-auth/email-proof";
import { EmailCodeError, sendEmailCode, verifyEmailCode } from "../../person-auth/email-codes";
import { configuredThirdParty, isThirdPartyProvider } from "../../person-auth/third-party";
import { isMailboxOnly, requiredMet } from "../../required/entries";
import { FlowError, StepError } from "../errors";
import { metNames } from "../queries";
import { nextScreen } from "../sequence";
import type { Flow } from "../store";
import { applyStep, assertOpen, saveAndApprove, stillOnScreen } from "../transitions";

/**
 * The mailbox page's Continue. First in the flow: once a mailbox the entry accepts is connected, on
 * to the import screen. After the code: the mailbox is offered, not required — Continue ends the flow.
 */
export async function continueFromMailbox(flow: Flow): Promise<void> {
  assertOpen(flow, ["mailbox"]);
  if (flow.userId) return saveAndApprove(flow, flow.userId);
  const met = await metNames(flow);
  if (!requiredMet(flow.required.filter(isMailboxOnly), met)) throw new StepError("form", "Connect the mailbox first.");
  await applyStep(flow, { screen: nextScreen(flow, "mailbox") });
}

/** The mailbox page after the code, the other proof: a code e-mailed to an address the person gives. */
export async function sendFlowEmailCode(flow: Flow, input: { email: string; ip: string }): Promise<void> {
  assertOpen(flow, ["mailbox"]);
  if (!flow.userId) throw new StepError("email", "Sign in first.");
  try {
    await stillOnScreen(flow);
    const { email } = await sendEmailCode({ userId: flow.userId, email: input.email, ip: input.ip });
    await applyStep(flow, { pendingEmail: email });
  } catch (err) {
    if (err instanceof EmailCodeError) throw new StepError("email", err.message);
    throw err;
  }
}

/** The e-mailed code: the address is proven, and the flow moves to its receipt. */
export async function verifyFlowEmailCode(flow: Flow, input: { code: string }): Promise<void> {
  assertOpen(flow, ["mailbox"]);
  if (!flow.userId) throw new StepError("email_code", "Sign in first.");
  try {
    await stillOnScreen(flow);
    await verifyEmailCode({ userId: flow.userId, code: input.code });
  } catch (err) {
    if (err instanceof EmailCodeError) throw new StepError("email_code", err.message);
    throw err;
  }
  await saveAndApprove(flow, flow.userId);
}

/** Whether the mailbox page after the code may send the person to `provider` to prove their address. */
export function thirdPartyProofReady(flow: Flow, provider: string): boolean {
  try {
    assertOpen(flow, ["mailbox"]);
  } catch (err) {
    if (err instanceof StepError || err instanceof FlowError) return false;
    throw err;
  }
  return !!flow.userId && isThirdPartyProvider(provider) && configuredThirdParty().includes(provider);
}

/**
 * Back from a Google or GitHub sign-in started on the mailbox page (lib/person-auth/third-party.ts): when it
 * proved an address for this flow's account, the flow moves to its receipt as after an e-mailed code.
 * Answers whether it did.
 */
export async function finishThirdPartyProof(flow: Flow, sessionUserId: string | null): Promise<boolean> {
  assertOpen(flow, ["mailbox"]);
  if (!flow.userId || flow.userId !== sessionUserId) return false;
  if (!(await accountEmailVerified(flow.userId))) return false;
  await saveAndApprove(flow, flow.userId);
  return true;
}

/** Back to entering another address. */
export async function changeFlowEmail(flow: Flow): Promise<void> {
  assertOpen(flow, ["mailbox"]);
  await applyStep(flow, { pendingEmail: null });
}
