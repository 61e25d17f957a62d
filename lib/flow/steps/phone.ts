// The phone and code screens' steps: the number (a code is texted to it), changing it, and the code,
// which signs the person in to the account behind the number.
import { parsePhoneNumberWithError, type CountryCode } from "libphonenumber-js";
import { CodeError, sendSignInCode, verifySignInCode } from "../../person-auth/phone-codes";
import { db } from "../../platform/db";
import { phoneDigest } from "../../users/phone";
import { StepError } from "../errors";
import { nextScreen, traitsOf } from "../sequence";
import type { Flow } from "../store";
import { applyStep, assertOpen, saveAndApprove, stillOnScreen } from "../transitions";
import { wayOf } from "../ways-in";

/**
 * The number in E.164, from what the person typed (international, or national with a country).
 * Live numbers must be valid; sandbox numbers (fictitious ones like 555-0100) need only be possible.
 */
export function normalisePhone(raw: string, country?: string, plane: "live" | "test" = "live"): string {
  const text = raw.trim();
  if (!text) throw new StepError("phone", "Enter your mobile number.");
  try {
    const parsed = parsePhoneNumberWithError(text, country ? (country.toUpperCase() as CountryCode) : undefined);
    if (!(plane === "test" ? parsed.isPossible() : parsed.isValid())) throw new Error("invalid");
    return parsed.number;
  } catch {
    throw new StepError("phone", text.startsWith("+") || country ? "That is not a valid mobile number." : "Enter your number with its country code, starting with +.");
  }
}

/** Where a number is unique: the developer's own sandbox on the test plane, everywhere on the live one. */
function phoneScope(flow: Flow): string {
  return flow.plane === "test" ? (flow.developerId ?? "") : "";
}

/** Sends the code to the number and moves to the code screen. Known and unknown numbers alike. */
export async function submitPhone(flow: Flow, input: { phone: string; country?: string; ip: string }): Promise<{ e164: string }> {
  assertOpen(flow, ["phone", "code"]);
  const e164 = normalisePhone(input.phone, input.country, flow.plane);
  try {
    await stillOnScreen(flow);
    await sendSignInCode({ phone: e164, plane: flow.plane, phoneScope: phoneScope(flow), ip: input.ip, flowId: flow.id });
  } catch (err) {
    if (err instanceof CodeError) throw new StepError("phone", err.message);
    throw err;
  }
  const { phoneHash, phoneLast4 } = phoneDigest(e164);
  await applyStep(flow, { phoneHash, phoneLast4, screen: "code" });
  return { e164 };
}

/** Back from the code screen to change the number. */
export async function changeNumber(flow: Flow): Promise<void> {
  assertOpen(flow, ["code"]);
  await applyStep(flow, { screen: "phone" });
}

/** A connect link minted for one account, finished with another account's number. */
export const LINK_FOR_ANOTHER_ACCOUNT = "This link was made for another account. Enter the number of the account it is for, or ask the app for a new link.";

/**
 * The code: signs the person in to the account behind the number (created for a new number). A
 * person who chose Sign in goes on to the import screen; everyone else is finished, after the mailbox
 * page when the way in asks for it.
 */
export async function submitCode(flow: Flow, input: { code: string }): Promise<{ userId: string }> {
  assertOpen(flow, ["code"]);
  const prisma = await db();
  const { phoneHash, phoneLast4 } = flow;
  if (!phoneHash || !phoneLast4) throw new StepError("code", "Enter your number first.");
  if (!/^\s*\d{6}\s*$/.test(input.code)) throw new StepError("code", "Enter the six digits from the text message.");
  try {
    await stillOnScreen(flow);
    await verifySignInCode({ phoneHash, plane: flow.plane, phoneScope: phoneScope(flow), code: input.code, flowId: flow.id });
  } catch (err) {
    if (err instanceof CodeError) throw new StepError("code", err.message);
    throw err;
  }
  const scope = phoneScope(flow);
  const owner = await prisma.user.findUnique({ where: { plane_phoneScope_phoneHash: { plane: flow.plane, phoneScope: scope, phoneHash } }, select: { id: true } });
  assertAccountFor(flow, owner?.id, "code");
  const user = await prisma.user.upsert({
    where: { plane_phoneScope_phoneHash: { plane: flow.plane, phoneScope: scope, phoneHash } },
    create: { plane: flow.plane, phoneScope: scope, phoneHash, phoneLast4, developerId: flow.plane === "test" ? flow.developerId : null },
    update: {},
    select: { id: true },
  });
  await continueSignedIn(flow, user.id);
  return { userId: user.id };
}

/**
 * A flow for one account (a link minted for it) is finished by that account only: anyone else who
 * holds it changes nothing. `userId` is the account the person proved (none: a number with no account).
 */
export function assertAccountFor(flow: Flow, userId: string | undefined, field: string): void {
  const onlyAccount = traitsOf(flow).onlyAccount;
  if (onlyAccount && userId !== onlyAccount) throw new StepError(field, LINK_FOR_ANOTHER_ACCOUNT);
}

/**
 * The person proved who they are (a code from a text message, or a passkey): the flow goes where the
 * code takes it — on to the screen after the code (signed in), the mailbox page when the way in asks
 * for one, or the end. `change` is what the proof writes besides (a passkey's account's number).
 */
export async function continueSignedIn(flow: Flow, userId: string, change: { phoneHash?: string; phoneLast4?: string } = {}): Promise<void> {
  const next = nextScreen(flow, "code");
  if (next === "receipt" && (await wayOf(flow).mailboxAfterCode?.(flow, userId))) await applyStep(flow, { ...change, userId, screen: "mailbox" });
  else if (next === "receipt") await saveAndApprove(flow, userId, change);
  else await applyStep(flow, { ...change, userId, screen: next });
}
