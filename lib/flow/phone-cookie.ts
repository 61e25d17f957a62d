// The number a person entered on the phone step, kept sealed in their browser for the flow's life so
// that "Send a new code" works without asking for it again: the service itself stores no number.
import { openSecret, sealSecret } from "../platform/crypto";
import { clearCookie, defineCookie, readCookie, writeCookie } from "../http/cookies";
import { FLOW_TTL_SECONDS } from "./browser";

const PURPOSE = "flow-phone";

function phoneCookie(flowId: string) {
  return defineCookie({ name: `service_flow_phone_${flowId}`, path: `/flow/${flowId}`, maxAge: FLOW_TTL_SECONDS });
}

export async function rememberNumber(flowId: string, e164: string): Promise<void> {
  await writeCookie(phoneCookie(flowId), sealSecret(PURPOSE, e164));
}

/** The number this browser entered for the flow, or null (none, expired, or not one the service sealed). */
export async function rememberedNumber(flowId: string): Promise<string | null> {
  const sealed = await readCookie(phoneCookie(flowId));
  try {
    return sealed ? openSecret(PURPOSE, sealed) : null;
  } catch {
    return null;
  }
}

export async function forgetNumber(flowId: string): Promise<void> {
  await clearCookie(phoneCookie(flowId));
}
