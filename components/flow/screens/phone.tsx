// The phone number screen: the number the profile is kept under, or (signing in first) the number signed up with.
import { FlowShell } from "@/components/flow/flow-shell";
import { PhoneForm } from "@/components/flow/forms";
import { LinkNotice } from "@/components/flow/marks";
import { PasskeySignIn } from "@/components/flow/passkey";
import type { PhoneView } from "@/lib/flow/views";
import type { FlowActions } from "../actions";

export function PhoneScreen({ view, actions }: { view: PhoneView; actions: Pick<FlowActions, "phone" | "passkey"> }) {
  const { appName } = view.shell;
  return (
    <FlowShell {...view.shell} title={view.signInFirst ? "Sign in with your phone" : "Save it to your profile"}>
      <p className="mt-3 text-slate-600">
        {view.signInFirst
          ? "Enter the number you signed up with. We'll text you a code."
          : `Your profile is kept under your mobile number, so you can bring it to ${appName} and other apps.`}
      </p>
      {view.linkNotice && <LinkNotice {...view.linkNotice} />}
      <PhoneForm action={actions.phone} countries={view.countries} defaultCountry={view.defaultCountry} passkeyAutofill={view.passkeyAutofill} />
      {view.passkeyOptions && <PasskeySignIn optionsUrl={view.passkeyOptions} autofill={view.passkeyAutofill} action={actions.passkey} />}
    </FlowShell>
  );
}
