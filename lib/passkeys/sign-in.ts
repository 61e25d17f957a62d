// Signing in on the phone screen with a passkey: options bound to the flow (a challenge only this
// flow's browser is handed, expiring with the flow), then the assertion checked by
// @simplewebauthn/server — the challenge used up, origin and RP id, user verification, the counter
// not going backwards and the backup eligibility as registered — and the flow continues exactly where
// a verified code would take it (lib/flow/steps continueSignedIn). A passkey proves the account, never
// an e-mail address; the text-message limits do not apply, the passkey limits do.
import { generateAuthenticationOptions, verifyAuthenticationResponse, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import { StepError } from "../flow/errors";
import { assertAccountFor, continueSignedIn } from "../flow/steps";
import type { Flow } from "../flow/store";
import { assertOpen, stillOnScreen } from "../flow/transitions";
import { newChallenge, useChallenge } from "./challenges";
import { userHandleOf } from "./credentials";
import { PASSKEY_MESSAGES, PasskeyError } from "./errors";
import { authenticationResponse } from "./input";
import { consumePasskeyAttempt } from "./limits";
import { rpId, rpOrigin } from "./rp";

/** The screens a passkey signs in from: the phone number's. */
const FROM: Flow["screen"][] = ["phone"];

/** The options for the phone screen's "Use a passkey" (and the number field's autofill): any passkey of this RP, user verification required. */
export async function signInOptions(flow: Flow, input: { ip: string }): Promise<PublicKeyCredentialRequestOptionsJSON> {
  assertOpen(flow, FROM);
  await consumePasskeyAttempt({ flowId: flow.id, ip: input.ip, kind: "options" });
  const challenge = await newChallenge({ purpose: "sign_in", flowId: flow.id, expiresAt: flow.expiresAt });
  return generateAuthenticationOptions({ rpID: rpId(), challenge: Buffer.from(challenge, "base64url"), userVerification: "required", allowCredentials: [] });
}

/** The account a passkey belongs to may finish this flow: the flow's plane, and on the test plane the flow's developer's sandbox. */
function sameAccountSpace(flow: Flow, user: { plane: string; developerId: string | null; phoneHash: string | null }): boolean {
  if (!user.phoneHash || user.plane !== flow.plane) return false;
  return flow.plane === "live" || user.developerId === flow.developerId;
}

/**
 * The browser's assertion: the person behind the passkey is signed in to the flow as a verified code
 * would sign them in. Anything wrong (an unknown or removed passkey, a used or foreign challenge, a
 * counter gone backwards) refuses with one message and changes nothing but the used challenge.
 */
export async function signInWithPasskey(flow: Flow, input: { response: string; ip: string }): Promise<{ userId: string }> {
  assertOpen(flow, FROM);
  await consumePasskeyAttempt({ flowId: flow.id, ip: input.ip, kind: "assertion" });
  const response = authenticationResponse(input.response);
  const prisma = await db();
  const stored = await prisma.passkeyCredential.findUnique({
    where: { credentialId: response.id },
    include: { user: { select: { id: true, plane: true, developerId: true, phoneHash: true, phoneLast4: true } } },
  });
  // The challenge is used up whatever happens next, so an assertion is never good twice.
  const owner = { purpose: "sign_in" as const, flowId: flow.id, expiresAt: flow.expiresAt };
  if (!stored || !sameAccountSpace(flow, stored.user) || (response.response.userHandle && response.response.userHandle !== toB64url(userHandleOf(stored.userId)))) {
    await useChallenge(owner, challengeOf(response.response.clientDataJSON));
    throw new PasskeyError("refused", PASSKEY_MESSAGES.refused);
  }
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => useChallenge(owner, challenge),
      expectedOrigin: rpOrigin(),
      expectedRPID: rpId(),
      credential: {
        id: stored.credentialId,
        publicKey: new Uint8Array(stored.publicKey),
        counter: Number(stored.counter),
        transports: stored.transports,
      },
      requireUserVerification: true,
    });
  } catch {
    throw new PasskeyError("refused", PASSKEY_MESSAGES.refused);
  }
  const info = verified.authenticationInfo;
  // Backup eligibility is fixed when the passkey is made: an authenticator that changes it is not the one registered.
  if (!verified.verified || !info.userVerified || (info.credentialDeviceType === "multiDevice") !== stored.backupEligible)
    throw new PasskeyError("refused", PASSKEY_MESSAGES.refused);
  // The counter moves on only from the value checked: of two uses of one assertion, one counts.
  const kept = await prisma.passkeyCredential.updateMany({
    where: { id: stored.id, counter: stored.counter },
    data: { counter: BigInt(info.newCounter), backedUp: info.credentialBackedUp, lastUsedAt: clockNow() },
  });
  if (kept.count !== 1) throw new PasskeyError("refused", PASSKEY_MESSAGES.refused);
  const user = stored.user;
  await stillOnScreen(flow);
  assertAccountFor(flow, user.id, "passkey");
  await continueSignedIn(flow, user.id, { phoneHash: user.phoneHash!, phoneLast4: user.phoneLast4 ?? undefined });
  return { userId: user.id };
}

function toB64url(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

/** The challenge clientDataJSON names, or "" when it names none. */
function challengeOf(clientDataJSON: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown };
    return typeof parsed.challenge === "string" ? parsed.challenge : "";
  } catch {
    return "";
  }
}

/** A passkey error as the phone screen shows it, beside the passkey button. */
export function asStepError(err: unknown): unknown {
  return err instanceof PasskeyError ? new StepError("passkey", err.message) : err;
}
