"use server";
// The hosted flow's form actions. Each opens the flow for this browser, runs one step, and sends
// the browser back to the flow page (which shows the next screen); a problem with what was entered
// comes back as the form's state, shown next to its field.
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { openSecret, sealSecret } from "@/lib/crypto";
import { FLOW_TTL_SECONDS, FlowError, flowCookieName, openFlowFor, type FlowSession } from "@/lib/flow/sessions";
import { allowCapability, changeFlowEmail, changeNumber, sendFlowEmailCode, verifyFlowEmailCode, chooseSignIn, continueFromApp, continueFromApps, continueFromImport, continueFromMailbox, decidePreview, previewImport, StepAlreadyDone, StepError, submitCode, submitPhone, thirdPartyProofReady, type FormState } from "@/lib/flow/steps";
import { PHONE_CODE_PROVIDER, sessionTicket, signIn } from "@/lib/auth/session";
import { VERIFY_FLOW_COOKIE } from "@/lib/auth/third-party";
import { clientIpFromHeaders } from "@/lib/http/request";
import { env } from "@/lib/env";
import { actionForm, formState, refuseQuietly, serverAction, textArg, type ActionProblem } from "@/lib/http/server-action";


const PHONE_COOKIE_PURPOSE = "flow-phone";
const phoneCookie = (flowId: string) => `service_flow_phone_${flowId}`;

/** The flow this browser may act on (open, or ended or expired: the step then says so); never another browser's. */
async function openFlow(flowId: string): Promise<FlowSession> {
  const opened = await openFlowFor(flowId, (await cookies()).get(flowCookieName(flowId))?.value);
  if (opened.state === "unknown" || opened.state === "foreign") throw new FlowError("not_found");
  return opened.flow;
}

async function requestIp(): Promise<string> {
  const h = await headers();
  return clientIpFromHeaders(h);
}

/**
 * Runs a step; on success (or when the flow has ended meanwhile) the browser goes back to the flow, or
 * on to the path under it that `query` names once the step has run.
 */
async function step(flowId: string, fn: (flow: FlowSession) => Promise<unknown>, query: string | (() => string) = ""): Promise<FormState> {
  try {
    await fn(await openFlow(flowId));
  } catch (err) {
    // A step another submission already took only needs the page brought up to date.
    if (err instanceof StepError && !(err instanceof StepAlreadyDone)) return { field: err.field, message: err.message };
    if (!(err instanceof StepError) && !(err instanceof FlowError)) throw err;
  }
  redirect(`/flow/${flowId}${typeof query === "function" ? query() : query}`);
}

/** A call the contract refused (lib/http/server-action.ts), as the form's state: shown next to its field. */
const refused = (problem: ActionProblem): FormState => ({ field: problem.fields[0]?.field ?? "form", message: problem.message });

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

export const previewAction = serverAction({ args: [textArg("flowId"), formState<FormState>(), actionForm()], refuse: refused }, async (flowId: string, _prev: FormState, form: FormData): Promise<FormState> => {
  const file = form.get("file");
  const provider = text(form, "provider");
  const ip = await requestIp();
  // Back to the same card, which now shows the preview. The file is read only once the limits allow it.
  return step(
    flowId,
    (flow) => previewImport(flow, { provider, text: text(form, "text"), file: file instanceof File && file.size > 0 ? file : undefined, ip }),
    `?card=${encodeURIComponent(provider)}#panel`,
  );
});

export const decideAction = serverAction({ args: [textArg("flowId"), formState<FormState>(), actionForm()], refuse: refused }, async (flowId: string, _prev: FormState, form: FormData): Promise<FormState> => {
  return step(flowId, (flow) => decidePreview(flow, { provider: text(form, "provider"), keep: text(form, "decision") === "keep" }));
});

export const continueAction = serverAction({ args: [textArg("flowId"), formState<FormState>()], refuse: refused }, async (flowId: string, _prev: FormState): Promise<FormState> => {
  return step(flowId, (flow) => continueFromImport(flow));
});

export const continueMailboxAction = serverAction({ args: [textArg("flowId"), formState<FormState>()], refuse: refused }, async (flowId: string, _prev: FormState): Promise<FormState> => {
  return step(flowId, (flow) => continueFromMailbox(flow));
});

export const continueAppAction = serverAction({ args: [textArg("flowId"), formState<FormState>()], refuse: refused }, async (flowId: string, _prev: FormState): Promise<FormState> => {
  return step(flowId, (flow) => continueFromApp(flow));
});

export const continueAppsAction = serverAction({ args: [textArg("flowId"), formState<FormState>()], refuse: refused }, async (flowId: string, _prev: FormState): Promise<FormState> => {
  return step(flowId, (flow) => continueFromApps(flow));
});

export const allowCapabilityAction = serverAction({ args: [textArg("flowId"), formState<FormState>()], refuse: refused }, async (flowId: string, _prev: FormState): Promise<FormState> => {
  // A capability whose scope the app's provider grants separately: on to its consent first.
  let consent: string | undefined;
  return step(
    flowId,
    async (flow) => (consent = (await allowCapability(flow))?.consent),
    () => (consent ? `/connect/${consent}` : ""),
  );
});

export const signInFirstAction = serverAction({ args: [textArg("flowId")], refuse: refuseQuietly }, async (flowId: string): Promise<void> => {
  await step(flowId, (flow) => chooseSignIn(flow));
});

export const phoneAction = serverAction({ args: [textArg("flowId"), formState<FormState>(), actionForm()], refuse: refused }, async (flowId: string, _prev: FormState, form: FormData): Promise<FormState> => {
  const ip = await requestIp();
  return step(flowId, async (flow) => {
    const { e164 } = await submitPhone(flow, { phone: text(form, "phone"), country: text(form, "country") || undefined, ip });
    // Kept in this browser (sealed) only so "Send a new code" works; the service stores no number.
    (await cookies()).set(phoneCookie(flowId), sealSecret(PHONE_COOKIE_PURPOSE, e164), {
      path: `/flow/${flowId}`,
      maxAge: FLOW_TTL_SECONDS,
      httpOnly: true,
      sameSite: "lax",
      secure: env().BASE_URL.startsWith("https:"),
    });
  });
});

export const resendAction = serverAction({ args: [textArg("flowId"), formState<FormState>()], refuse: refused }, async (flowId: string, _prev: FormState): Promise<FormState> => {
  const ip = await requestIp();
  const sealed = (await cookies()).get(phoneCookie(flowId))?.value;
  let e164: string | null = null;
  try {
    e164 = sealed ? openSecret(PHONE_COOKIE_PURPOSE, sealed) : null;
  } catch {
    e164 = null;
  }
  if (!e164) return { field: "code", message: "Enter your number again to get a new code." };
  return step(flowId, (flow) => submitPhone(flow, { phone: e164, ip }));
});

export const changeNumberAction = serverAction({ args: [textArg("flowId")], refuse: refuseQuietly }, async (flowId: string): Promise<void> => {
  await step(flowId, (flow) => changeNumber(flow));
});

export const codeAction = serverAction({ args: [textArg("flowId"), formState<FormState>(), actionForm()], refuse: refused }, async (flowId: string, _prev: FormState, form: FormData): Promise<FormState> => {
  return step(flowId, async (flow) => {
    const { userId } = await submitCode(flow, { code: text(form, "code") });
    (await cookies()).delete({ name: phoneCookie(flowId), path: `/flow/${flowId}` });
    await signIn(PHONE_CODE_PROVIDER, { ticket: sessionTicket(userId), redirect: false });
  });
});

export const emailAction = serverAction({ args: [textArg("flowId"), formState<FormState>(), actionForm()], refuse: refused }, async (flowId: string, _prev: FormState, form: FormData): Promise<FormState> => {
  const ip = await requestIp();
  return step(flowId, (flow) => sendFlowEmailCode(flow, { email: text(form, "email"), ip }));
});

export const emailCodeAction = serverAction({ args: [textArg("flowId"), formState<FormState>(), actionForm()], refuse: refused }, async (flowId: string, _prev: FormState, form: FormData): Promise<FormState> => {
  return step(flowId, (flow) => verifyFlowEmailCode(flow, { code: text(form, "email_code") }));
});

export const changeEmailAction = serverAction({ args: [textArg("flowId")], refuse: refuseQuietly }, async (flowId: string): Promise<void> => {
  await step(flowId, (flow) => changeFlowEmail(flow));
});

/**
 * The mailbox page's Google or GitHub button (signed in): the browser goes to the provider, and comes
 * back to /flow/<id>/verified once the provider has vouched for an address.
 */
export const thirdPartyAction = serverAction({ args: [textArg("flowId"), textArg("provider")], refuse: refuseQuietly }, async (flowId: string, provider: string): Promise<void> => {
  let ready = false;
  try {
    const flow = await openFlow(flowId);
    ready = thirdPartyProofReady(flow, provider);
  } catch (err) {
    if (!(err instanceof FlowError)) throw err;
  }
  if (!ready) redirect(`/flow/${flowId}`);
  (await cookies()).set(VERIFY_FLOW_COOKIE, flowId, {
    httpOnly: true,
    sameSite: "lax",
    secure: env().BASE_URL.startsWith("https:"),
    path: "/",
    maxAge: FLOW_TTL_SECONDS,
  });
  await signIn(provider, { redirectTo: `/flow/${flowId}/verified` });
});
