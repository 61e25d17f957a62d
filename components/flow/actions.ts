// The hosted flow's server actions as its screens are handed them: the flow page binds each to its flow
// (app/(hosted)/flow/[flowId]/actions.ts); the screen gallery passes its own, which change nothing.
import type { ThirdPartyProvider } from "@/lib/person-auth/third-party";
import type { ActionState } from "@/lib/actions/state";

export type FormAction = (state: ActionState, form: FormData) => Promise<ActionState>;
export type ButtonAction = (state: ActionState) => Promise<ActionState>;
export type PlainAction = () => Promise<void>;

/** What each screen's forms post to. */
export interface FlowActions {
  preview: FormAction;
  decide: FormAction;
  continueImport: ButtonAction;
  signInFirst: PlainAction;
  phone: FormAction;
  code: FormAction;
  resend: ButtonAction;
  changeNumber: PlainAction;
  email: FormAction;
  emailCode: FormAction;
  changeEmail: PlainAction;
  thirdParty: (provider: ThirdPartyProvider) => PlainAction;
  continueMailbox: ButtonAction;
  continueApp: ButtonAction;
  continueApps: ButtonAction;
  allowCapability: ButtonAction;
  /** "Use a passkey" on the phone screen: the authenticator's answer. */
  passkey: FormAction;
  /** The receipt's passkey offer: make one, or "Not now". */
  addPasskey: FormAction;
  dismissPasskeyOffer: PlainAction;
}
