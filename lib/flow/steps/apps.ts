// The app screens' steps: a connect link's (or a one-app sign-in link's) app, the list of apps a
// signed-in person opened from a connect link, and a capability's own page.
import { capabilityConsentNeeded } from "../../connectors/connections";
import { StepError } from "../errors";
import { metNames } from "../queries";
import { nextScreen, traitsOf } from "../sequence";
import { findFlow, isExpired, type Flow } from "../store";
import { applyStep, assertOpen, saveAndApprove } from "../transitions";

/** An app's own screen: once that app is connected, on (phone and code, or the end). */
export async function continueFromApp(flow: Flow): Promise<void> {
  assertOpen(flow, ["app"]);
  const app = traitsOf(flow).app;
  if (!app || !(await metNames(flow)).has(app)) throw new StepError("form", "Connect the app first.");
  const next = nextScreen(flow, "app");
  if (next === "receipt" && flow.userId) return saveAndApprove(flow, flow.userId);
  await applyStep(flow, { screen: next });
}

/** The list of apps a signed-in person opened from a connect link: Continue ends it. */
export async function continueFromApps(flow: Flow): Promise<void> {
  assertOpen(flow, ["apps"]);
  if (!flow.userId) throw new StepError("form", "Sign in first.");
  await saveAndApprove(flow, flow.userId);
}

/**
 * A capability's own page, which only a connect link asks for: the person allows it (refusing is
 * Cancel), and the link's request records it. When the app's provider grants the capability's scope
 * separately and the connection lacks it, the flow stays here, marked allowed, and answers the app
 * whose consent the person goes through first (finishCapabilityConsent ends it).
 */
export async function allowCapability(flow: Flow): Promise<{ consent: string } | null> {
  assertOpen(flow, ["capability"]);
  if (flow.wayIn !== "connect" || !flow.userId || !flow.request.capability) throw new StepError("form", "Sign in first.");
  const request = { ...flow.request, capability_allowed: true };
  const consent = await capabilityConsentNeeded({ userId: flow.userId, capability: flow.request.capability });
  if (consent) {
    await applyStep(flow, { request });
    return { consent };
  }
  await saveAndApprove({ ...flow, request }, flow.userId, { request });
  return null;
}

/**
 * Back from the provider's consent a capability needed (allowCapability): the capability is granted
 * once the connection carries its scope. "missing" when the person left the scope unticked; "none"
 * when the flow was not waiting for it.
 */
export async function finishCapabilityConsent(flowId: string): Promise<"granted" | "missing" | "none"> {
  const flow = await findFlow(flowId);
  if (!flow || flow.status !== "active" || isExpired(flow) || flow.screen !== "capability") return "none";
  if (flow.wayIn !== "connect" || !flow.userId || !flow.request.capability || !flow.request.capability_allowed) return "none";
  if (await capabilityConsentNeeded({ userId: flow.userId, capability: flow.request.capability })) return "missing";
  await saveAndApprove(flow, flow.userId);
  return "granted";
}
