// The dashboard's server actions as its pages are handed them: each page.tsx passes the module
// app/(site)/dashboard/actions.ts whole (`import * as actions`); the screen gallery passes its own, which change nothing.
// A new action joins this list once; a page takes what it uses from it.
import type { ActionState } from "@/lib/actions/state";

/** A dashboard form's action (components/dashboard/action-form.tsx): the last answer and the form, the next answer. */
export type FormAction = (state: ActionState, form: FormData) => Promise<ActionState>;

export interface DashboardActions {
  signOutAction: () => Promise<void>;
  signOutEverywhereAction: () => Promise<void>;
  switchAccountAction: (form: FormData) => Promise<void>;
  thirdPartySignInAction: (provider: string) => Promise<void>;
  sendCodeAction: FormAction;
  verifyCodeAction: FormAction;
  createAccountAction: FormAction;
  acceptInviteAction: FormAction;
  createKeyAction: FormAction;
  rotateKeyAction: FormAction;
  revokeKeyAction: FormAction;
  revokeFormerMemberKeysAction: FormAction;
  rotateCallbackSecretAction: FormAction;
  createAgentAction: FormAction;
  updateAgentAction: FormAction;
  addOriginAction: FormAction;
  removeOriginAction: FormAction;
  createSsoClientAction: FormAction;
  addSsoCallbackAction: FormAction;
  removeSsoCallbackAction: FormAction;
  addDestinationAction: FormAction;
  removeDestinationAction: FormAction;
  revokeLineAction: FormAction;
  partnerPhoneFirstAction: FormAction;
  cancelImportJobAction: FormAction;
  addWebhookEndpointAction: FormAction;
  toggleWebhookEndpointAction: FormAction;
  removeWebhookEndpointAction: FormAction;
  showWebhookSecretAction: FormAction;
  rotateWebhookSecretAction: FormAction;
  sendWebhookTestAction: FormAction;
  resendWebhookDeliveryAction: FormAction;
  inviteAction: FormAction;
  changeRoleAction: FormAction;
  removeMemberAction: FormAction;
  withdrawInviteAction: FormAction;
}
