// The dashboard's sign-in: an address to e-mail a code to (the e-mail also carries a one-click link),
// or Google and GitHub when the service has them, with the refusal a provider came back with.
import { THIRD_PARTY_NAMES, type ThirdPartyProvider } from "@/lib/person-auth/third-party";
import { ownEntry } from "@/lib/platform/own";
import { ActionForm } from "../action-form";
import { DashboardAuthShell } from "../shell";
import { buttonStyles, inputStyle, labelStyle } from "../styles";
import type { DashboardActions } from "./actions";

const ERRORS: Record<string, string> = {
  unverified: "That account did not give a verified email address. Use the emailed code instead.",
  AccessDenied: "Sign-in was refused. Try again, or use the emailed code.",
  Configuration: "Sign-in with that provider is not available just now. Use the emailed code.",
  // The provider sent the browser back without a sign-in: cancelled there, or its answer was refused.
  OAuthCallbackError: "Sign-in with that provider did not finish. Try again, or use the emailed code.",
};

export interface SignInData {
  /** The providers configured here, in the order shown. */
  providers: ThirdPartyProvider[];
  /** The error a provider's sign-in came back with (?error=), when there is one. */
  error?: string;
  /** Where the browser goes once signed in (a dashboard path). */
  after: string;
  /** The address to fill in (an invitation's). */
  email?: string;
}

export function SignInPage({ data: { providers, error, after, email }, actions }: { data: SignInData; actions: DashboardActions }) {
  const { sendCodeAction, thirdPartySignInAction } = actions;
  const message = error ? (ownEntry(ERRORS, error) ?? "Sign-in did not finish. Try again.") : null;
  return (
    <DashboardAuthShell title="Sign in to the developer dashboard">
      <p className="mt-3 text-slate-600">Create and rotate API keys, set up agents and approve origins. New here? Signing in creates your developer account.</p>
      {message && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-red-200">
          {message}
        </p>
      )}
      <ActionForm action={sendCodeAction} hidden={after !== "/dashboard" ? { next: after } : {}} submit="Email me a code" pendingLabel="Sending the code…" wide className="mt-6">
        <div>
          <label htmlFor="email" className={labelStyle}>
            Work email
          </label>
          <input id="email" name="email" type="email" autoComplete="email" required autoFocus defaultValue={email} className={inputStyle} placeholder="you@company.com" />
          <p className="mt-2 text-sm text-slate-600">We&rsquo;ll email you a six-digit code and a sign-in link. Both work once, for 10 minutes.</p>
        </div>
      </ActionForm>
      {providers.length > 0 && (
        <div className="mt-6 border-t border-slate-200 pt-6">
          <p className="text-sm font-semibold text-slate-900">Or continue with</p>
          <div className="mt-3 grid gap-3 sm:grid-cols-2">
            {providers.map((p) => (
              <form key={p} action={thirdPartySignInAction.bind(null, p)}>
                <button type="submit" className={`${buttonStyles.secondary} w-full`}>
                  <span className="sr-only">Continue with </span>
                  {THIRD_PARTY_NAMES[p]}
                </button>
              </form>
            ))}
          </div>
        </div>
      )}
    </DashboardAuthShell>
  );
}
