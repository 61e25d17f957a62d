"use server";
// The hosted flow's form actions. Each acts for the browser that started the flow (auth "flow"), runs
// one step, and sends the browser back to the flow page (which shows the next screen); a problem with
// what was entered comes back as the form's state, shown next to its field.
import { redirect } from "next/navigation";
import { defineAction } from "@/lib/actions/define-action";
import { PHONE_CODE_PROVIDER, sessionTicket, signIn } from "@/lib/person-auth/session";
import { verifyFlowCookie } from "@/lib/person-auth/third-party";
import { forgetNumber, rememberedNumber, rememberNumber } from "@/lib/flow/phone-cookie";
import {
  allowCapability,
  changeFlowEmail,
  changeNumber,
  chooseSignIn,
  continueFromApp,
  continueFromApps,
  continueFromImport,
  continueFromMailbox,
  decidePreview,
  previewImport,
  sendFlowEmailCode,
  submitCode,
  submitPhone,
  thirdPartyProofReady,
  verifyFlowEmailCode,
} from "@/lib/flow/steps";
import { file, text, textArg } from "@/lib/http/action-input";
import { writeCookie } from "@/lib/http/cookies";
import { passkeyDeviceCookie } from "@/lib/passkeys/device";
import { asStepError, signInWithPasskey } from "@/lib/passkeys/sign-in";

/** Back to the flow page, which shows the flow's screen now; or on to the path under it that `then` names. */
function backToFlow(flowId: string, then = ""): never {
  redirect(`/flow/${flowId}${then}`);
}

export const previewAction = defineAction({
  auth: "flow",
  state: true,
  form: { provider: text(), text: text(), file: file() },
  handler: async ({ flow, form, ip }) => {
    // The file is read only once the limits allow it.
    await previewImport(flow, { provider: form.provider, text: form.text, file: form.file, ip });
    // Back to the same card, which now shows the preview.
    return backToFlow(flow.id, `?card=${encodeURIComponent(form.provider)}#panel`);
  },
});

export const decideAction = defineAction({
  auth: "flow",
  state: true,
  form: { provider: text(), decision: text() },
  handler: async ({ flow, form }) => {
    await decidePreview(flow, { provider: form.provider, keep: form.decision === "keep" });
    return backToFlow(flow.id);
  },
});

export const continueAction = defineAction({
  auth: "flow",
  state: true,
  handler: async ({ flow }) => {
    await continueFromImport(flow);
    return backToFlow(flow.id);
  },
});

export const continueMailboxAction = defineAction({
  auth: "flow",
  state: true,
  handler: async ({ flow }) => {
    await continueFromMailbox(flow);
    return backToFlow(flow.id);
  },
});

export const continueAppAction = defineAction({
  auth: "flow",
  state: true,
  handler: async ({ flow }) => {
    await continueFromApp(flow);
    return backToFlow(flow.id);
  },
});

export const continueAppsAction = defineAction({
  auth: "flow",
  state: true,
  handler: async ({ flow }) => {
    await continueFromApps(flow);
    return backToFlow(flow.id);
  },
});

export const allowCapabilityAction = defineAction({
  auth: "flow",
  state: true,
  handler: async ({ flow }) => {
    // A capability whose scope the app's provider grants separately: on to its consent first.
    const consent = (await allowCapability(flow))?.consent;
    return backToFlow(flow.id, consent ? `/connect/${consent}` : "");
  },
});

export const signInFirstAction = defineAction({
  auth: "flow",
  handler: async ({ flow }) => {
    await chooseSignIn(flow);
    backToFlow(flow.id);
  },
});

export const phoneAction = defineAction({
  auth: "flow",
  state: true,
  form: { phone: text(), country: text() },
  handler: async ({ flow, form, ip }) => {
    const { e164 } = await submitPhone(flow, { phone: form.phone, country: form.country || undefined, ip });
    // Kept in this browser (sealed) only so "Send a new code" works; the service stores no number.
    await rememberNumber(flow.id, e164);
    return backToFlow(flow.id);
  },
});

export const resendAction = defineAction({
  auth: "flow",
  state: true,
  handler: async ({ flow, ip }) => {
    const e164 = await rememberedNumber(flow.id);
    if (!e164) return { field: "code", error: "Enter your number again to get a new code." };
    await submitPhone(flow, { phone: e164, ip });
    return backToFlow(flow.id);
  },
});

export const changeNumberAction = defineAction({
  auth: "flow",
  handler: async ({ flow }) => {
    await changeNumber(flow);
    backToFlow(flow.id);
  },
});

export const codeAction = defineAction({
  auth: "flow",
  state: true,
  form: { code: text() },
  handler: async ({ flow, form }) => {
    const { userId } = await submitCode(flow, { code: form.code });
    await forgetNumber(flow.id);
    await signIn(PHONE_CODE_PROVIDER, { ticket: sessionTicket(userId), redirect: false });
    return backToFlow(flow.id);
  },
});

/** "Use a passkey" on the phone screen: a verified assertion signs the person in as a verified code would. */
export const passkeyAction = defineAction({
  auth: "flow",
  state: true,
  form: { response: text() },
  handler: async ({ flow, form, ip }) => {
    let userId: string;
    try {
      ({ userId } = await signInWithPasskey(flow, { response: form.response, ip }));
    } catch (err) {
      throw asStepError(err);
    }
    await writeCookie(passkeyDeviceCookie, "has");
    await signIn(PHONE_CODE_PROVIDER, { ticket: sessionTicket(userId), redirect: false });
    return backToFlow(flow.id);
  },
});

export const emailAction = defineAction({
  auth: "flow",
  state: true,
  form: { email: text() },
  handler: async ({ flow, form, ip }) => {
    await sendFlowEmailCode(flow, { email: form.email, ip });
    return backToFlow(flow.id);
  },
});

export const emailCodeAction = defineAction({
  auth: "flow",
  state: true,
  form: { email_code: text() },
  handler: async ({ flow, form }) => {
    await verifyFlowEmailCode(flow, { code: form.email_code });
    return backToFlow(flow.id);
  },
});

export const changeEmailAction = defineAction({
  auth: "flow",
  handler: async ({ flow }) => {
    await changeFlowEmail(flow);
    backToFlow(flow.id);
  },
});

/**
 * The mailbox page's Google or GitHub button (signed in): the browser goes to the provider, and comes
 * back to /flow/<id>/verified once the provider has vouched for an address.
 */
export const thirdPartyAction = defineAction({
  auth: "flow",
  bound: [textArg("provider")],
  handler: async ({ flow, bound: [provider] }) => {
    if (!thirdPartyProofReady(flow, provider)) backToFlow(flow.id);
    await writeCookie(verifyFlowCookie, flow.id);
    await signIn(provider, { redirectTo: `/flow/${flow.id}/verified` });
  },
});
