// A signed-in person's passkeys: registering one (options, then the authenticator's answer, checked by
// @simplewebauthn/server), listing, renaming and removing them. Only the credential id, the public key,
// the counter, the transports and the backup flags are stored. Every change names the person: an id
// that is not theirs changes nothing. Removing every passkey leaves the phone number as it is.
import { generateRegistrationOptions, verifyRegistrationResponse, type AuthenticatorTransport, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import { derivedBase62 } from "../platform/crypto";
import { db } from "../platform/db";
import { useChallenge, newChallenge } from "./challenges";
import { PASSKEY_MESSAGES, PasskeyError } from "./errors";
import { passkeyName, registrationResponse } from "./input";
import { consumeRegistration } from "./limits";
import { RP_NAME, rpId, rpOrigin } from "./rp";

/** The most passkeys one account keeps. */
export const MAX_PASSKEYS = 20;

export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/**
 * The WebAuthn user handle for a person: derived from their id under a key, so the authenticator
 * holds no id the service uses anywhere else.
 */
export function userHandleOf(userId: string): string {
  return derivedBase62("passkey-user-handle", userId, 32);
}

/** The options a browser needs to make a passkey for the signed-in person (a discoverable credential, user verification required). */
export async function registrationOptions(userId: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  await consumeRegistration(userId);
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { phoneLast4: true, passkeys: { select: { credentialId: true, transports: true } } } });
  if (!user) throw new PasskeyError("not_found", PASSKEY_MESSAGES.notFound);
  const challenge = await newChallenge({ purpose: "register", userId });
  const label = user.phoneLast4 ? `Number ending ${user.phoneLast4}` : "Your account";
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rpId(),
    userID: new TextEncoder().encode(userHandleOf(userId)),
    userName: label,
    userDisplayName: label,
    challenge: Buffer.from(challenge, "base64url"),
    attestationType: "none",
    excludeCredentials: user.passkeys.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
}

/** The authenticator's answer to those options: checked (challenge, origin, RP id, user verification), then the passkey is kept. */
export async function addPasskey(userId: string, input: { response: string }): Promise<PasskeySummary> {
  const response = registrationResponse(input.response);
  const prisma = await db();
  const count = await prisma.passkeyCredential.count({ where: { userId } });
  if (count >= MAX_PASSKEYS) throw new PasskeyError("refused", `An account keeps at most ${MAX_PASSKEYS} passkeys. Remove one first.`);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: (challenge) => useChallenge({ purpose: "register", userId }, challenge),
      expectedOrigin: rpOrigin(),
      expectedRPID: rpId(),
      requireUserVerification: true,
    });
  } catch {
    throw new PasskeyError("refused", PASSKEY_MESSAGES.refused);
  }
  if (!verified.verified) throw new PasskeyError("refused", PASSKEY_MESSAGES.refused);
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  const taken = await prisma.passkeyCredential.findUnique({ where: { credentialId: credential.id }, select: { id: true } });
  if (taken) throw new PasskeyError("refused", PASSKEY_MESSAGES.refused);
  return prisma.passkeyCredential.create({
    data: {
      userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey),
      counter: BigInt(credential.counter),
      transports: credential.transports ?? [],
      backupEligible: credentialDeviceType === "multiDevice",
      backedUp: credentialBackedUp,
      name: `Passkey ${count + 1}`,
    },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true },
  });
}

/** The person's passkeys, newest first. */
export async function listPasskeys(userId: string): Promise<PasskeySummary[]> {
  return (await db()).passkeyCredential.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    select: { id: true, name: true, createdAt: true, lastUsedAt: true },
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Renames one of the person's passkeys; false when it is not theirs. */
export async function renamePasskey(userId: string, input: { id: string; name: string }): Promise<boolean> {
  const name = passkeyName.safeParse(input.name);
  if (!name.success) throw new PasskeyError("invalid", PASSKEY_MESSAGES.name);
  if (!UUID.test(input.id)) return false;
  const res = await (await db()).passkeyCredential.updateMany({ where: { id: input.id, userId }, data: { name: name.data } });
  return res.count === 1;
}

/** Removes one of the person's passkeys (the last one too: the number still signs them in); false when it is not theirs. */
export async function removePasskey(userId: string, id: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const res = await (await db()).passkeyCredential.deleteMany({ where: { id, userId } });
  return res.count === 1;
}
