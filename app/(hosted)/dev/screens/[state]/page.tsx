// /dev/screens/<state> — one screen in one state, from the gallery's fixtures: a flow screen
// (lib/flow/gallery.ts) with actions that change nothing, or one of the person's pages or the developer
// dashboard's (components/account/gallery.tsx, components/dashboard/gallery.tsx). Every form posts to
// the gallery's own actions: nothing is sent, signed in or out, or changed.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ACCOUNT_GALLERY } from "@/components/account/gallery";
import type { AccountActions } from "@/components/account/pages/actions";
import { DASHBOARD_GALLERY } from "@/components/dashboard/gallery";
import type { DashboardActions } from "@/components/dashboard/pages/actions";
import type { FlowActions } from "@/components/flow/actions";
import { FlowScreen } from "@/components/flow/flow-screen";
import { galleryState } from "@/lib/flow/gallery";
import { backToGallery, keepState } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Screen gallery", robots: { index: false } };

const GALLERY_ACTIONS: FlowActions = {
  preview: keepState,
  decide: keepState,
  continueImport: keepState,
  signInFirst: backToGallery,
  phone: keepState,
  code: keepState,
  resend: keepState,
  changeNumber: backToGallery,
  email: keepState,
  emailCode: keepState,
  changeEmail: backToGallery,
  thirdParty: () => backToGallery,
  continueMailbox: keepState,
  continueApp: keepState,
  continueApps: keepState,
  allowCapability: keepState,
  passkey: keepState,
  addPasskey: keepState,
  dismissPasskeyOffer: backToGallery,
};

const ACCOUNT_ACTIONS: AccountActions = {
  disconnectAction: backToGallery,
  removeAppFactAction: backToGallery,
  revokeAgentAction: backToGallery,
  revokeAgentAppAction: backToGallery,
  signOutAction: backToGallery,
  signOutEverywhereAction: backToGallery,
  editMemoryAction: backToGallery,
  removeMemoryAction: backToGallery,
  forgetMemoryAction: backToGallery,
  restoreHiddenAction: backToGallery,
  deleteAccountAction: backToGallery,
  addPasskeyAction: keepState,
  renamePasskeyAction: backToGallery,
  removePasskeyAction: backToGallery,
};

const DASHBOARD_ACTIONS: DashboardActions = {
  signOutAction: backToGallery,
  signOutEverywhereAction: backToGallery,
  switchAccountAction: backToGallery,
  thirdPartySignInAction: backToGallery,
  sendCodeAction: keepState,
  verifyCodeAction: keepState,
  createAccountAction: keepState,
  acceptInviteAction: keepState,
  createKeyAction: keepState,
  rotateKeyAction: keepState,
  revokeKeyAction: keepState,
  revokeFormerMemberKeysAction: keepState,
  rotateCallbackSecretAction: keepState,
  createAgentAction: keepState,
  updateAgentAction: keepState,
  addOriginAction: keepState,
  removeOriginAction: keepState,
  createSsoClientAction: keepState,
  addSsoCallbackAction: keepState,
  removeSsoCallbackAction: keepState,
  addDestinationAction: keepState,
  removeDestinationAction: keepState,
  revokeLineAction: keepState,
  partnerPhoneFirstAction: keepState,
  cancelImportJobAction: keepState,
  addWebhookEndpointAction: keepState,
  toggleWebhookEndpointAction: keepState,
  removeWebhookEndpointAction: keepState,
  showWebhookSecretAction: keepState,
  rotateWebhookSecretAction: keepState,
  sendWebhookTestAction: keepState,
  resendWebhookDeliveryAction: keepState,
  inviteAction: keepState,
  changeRoleAction: keepState,
  removeMemberAction: keepState,
  withdrawInviteAction: keepState,
};

export default async function GalleryScreenPage({ params }: { params: Promise<{ state: string }> }) {
  const name = (await params).state;
  const view = galleryState(name);
  if (view) return <FlowScreen view={view} actions={GALLERY_ACTIONS} />;
  if (Object.hasOwn(ACCOUNT_GALLERY, name)) return ACCOUNT_GALLERY[name]!(ACCOUNT_ACTIONS);
  if (Object.hasOwn(DASHBOARD_GALLERY, name)) return DASHBOARD_GALLERY[name]!(DASHBOARD_ACTIONS);
  notFound();
}
