// The hosted flow (/flow/<id>): the screen the person is on, for the browser that started it. The flow
// is opened once (lib/flow/sessions.ts), its screen's view computed (lib/flow/views.ts), and the screen
// laid out by components/flow/flow-screen.tsx with this flow's actions.
import type { Metadata } from "next";
import { headers } from "next/headers";
import type { FlowActions } from "@/components/flow/actions";
import { FlowScreen } from "@/components/flow/flow-screen";
import type { ThirdPartyProvider } from "@/lib/person-auth/third-party";
import { flowCookie } from "@/lib/flow/browser";
import { openFlowFor } from "@/lib/flow/open";
import { readCookie } from "@/lib/http/cookies";
import { flowScreenView } from "@/lib/flow/views";
import { passkeyDeviceCookie, passkeyDeviceOf } from "@/lib/passkeys/device";
import * as act from "./actions";
import { addPasskeyAction, dismissPasskeyOfferAction } from "../../account/passkeys/actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in", robots: { index: false } };

function flowActions(flowId: string): FlowActions {
  return {
    preview: act.previewAction.bind(null, flowId),
    decide: act.decideAction.bind(null, flowId),
    continueImport: act.continueAction.bind(null, flowId),
    signInFirst: act.signInFirstAction.bind(null, flowId),
    phone: act.phoneAction.bind(null, flowId),
    code: act.codeAction.bind(null, flowId),
    resend: act.resendAction.bind(null, flowId),
    changeNumber: act.changeNumberAction.bind(null, flowId),
    email: act.emailAction.bind(null, flowId),
    emailCode: act.emailCodeAction.bind(null, flowId),
    changeEmail: act.changeEmailAction.bind(null, flowId),
    thirdParty: (provider: ThirdPartyProvider) => act.thirdPartyAction.bind(null, flowId, provider),
    continueMailbox: act.continueMailboxAction.bind(null, flowId),
    continueApp: act.continueAppAction.bind(null, flowId),
    continueApps: act.continueAppsAction.bind(null, flowId),
    allowCapability: act.allowCapabilityAction.bind(null, flowId),
    passkey: act.passkeyAction.bind(null, flowId),
    addPasskey: addPasskeyAction,
    dismissPasskeyOffer: dismissPasskeyOfferAction,
  };
}

export default async function FlowPage({
  params,
  searchParams,
}: {
  params: Promise<{ flowId: string }>;
  searchParams: Promise<{ card?: string; connect_error?: string; verify_error?: string; with?: string }>;
}) {
  const { flowId } = await params;
  const query = await searchParams;
  const opened = await openFlowFor(flowId, await readCookie(flowCookie(flowId)));
  const view = await flowScreenView(opened, {
    card: query.card,
    connectError: query.connect_error,
    verifyError: query.verify_error,
    verifyWith: query.with,
    acceptLanguage: (await headers()).get("accept-language") ?? "",
    passkeyDevice: passkeyDeviceOf(await readCookie(passkeyDeviceCookie)),
  });
  return <FlowScreen view={view} actions={flowActions(flowId)} />;
}
