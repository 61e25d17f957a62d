"use server";
// The passkey forms of the account page and the receipt: make a passkey (the authenticator's answer to
// the options from POST /account/passkeys/options), rename or remove one, and "Not now" on the offer.
// Each acts for the signed-in person only (auth "person"): an id that is not theirs changes nothing.
import { redirect } from "next/navigation";
import { defineAction } from "@/lib/actions/define-action";
import { StepError } from "@/lib/flow/errors";
import { text, textArg } from "@/lib/http/action-input";
import { writeCookie } from "@/lib/http/cookies";
import { addPasskey, removePasskey, renamePasskey } from "@/lib/passkeys/credentials";
import { passkeyDeviceCookie } from "@/lib/passkeys/device";
import { PasskeyError } from "@/lib/passkeys/errors";

/** A passkey refusal as the form shows it, beside its field. */
async function shown<T>(field: string, act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (err) {
    throw err instanceof PasskeyError ? new StepError(field, err.message) : err;
  }
}

export const addPasskeyAction = defineAction({
  auth: "person",
  state: true,
  form: { response: text() },
  handler: async ({ userId, form }) => {
    const made = await shown("passkey", () => addPasskey(userId, { response: form.response }));
    await writeCookie(passkeyDeviceCookie, "has");
    return { ok: `Passkey saved as “${made.name}”. Next time, choose “Use a passkey” when you sign in.` };
  },
});

export const renamePasskeyAction = defineAction({
  auth: "person",
  bound: [textArg("passkeyId")],
  form: { name: text() },
  handler: async ({ userId, bound: [passkeyId], form }) => {
    const done = await renamePasskey(userId, { id: passkeyId, name: form.name }).catch((err: unknown) => {
      if (err instanceof PasskeyError) return "invalid" as const;
      throw err;
    });
    redirect(`/account?passkey=${done === "invalid" ? "name_error" : done ? "renamed" : "unknown"}#passkeys-title`);
  },
});

export const removePasskeyAction = defineAction({
  auth: "person",
  bound: [textArg("passkeyId")],
  handler: async ({ userId, bound: [passkeyId] }) => {
    const done = await removePasskey(userId, passkeyId);
    redirect(`/account?passkey=${done ? "removed" : "unknown"}#passkeys-title`);
  },
});

/** "Not now" on the offer: this browser's cookie says so, and the offer is not shown here again. */
export const dismissPasskeyOfferAction = defineAction({
  auth: "none",
  handler: async () => {
    await writeCookie(passkeyDeviceCookie, "dismissed");
  },
});
