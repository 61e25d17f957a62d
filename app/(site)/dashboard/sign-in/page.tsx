// /dashboard/sign-in — developers sign in to the dashboard with a code e-mailed to their address (the
// e-mail also carries a one-click link), or with Google or GitHub when the service has them. A new
// address makes its account on its first sign-in.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ActionForm } from "@/components/dashboard/action-form";
import { DashboardAuthShell } from "@/components/dashboard/shell";
import { buttonStyles, inputStyle, labelStyle } from "@/components/dashboard/styles";
import { configuredThirdParty, THIRD_PARTY_NAMES } from "@/lib/auth/third-party";
import { afterSignInPath } from "@/lib/dashboard/paths";
import { currentDashboardUser } from "@/lib/developer-auth/session";
import { ownEntry } from "@/lib/own";
import { sendCodeAction, thirdPartySignInAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in to the developer dashboard", robots: { index: false } };

const ERRORS: Record<string, string> = {
  unverified: "That account did not give a verified email address. Use the emailed code instead.",
  AccessDenied: "Sign-in was refused. Try again, or use the emailed code.",
  Configuration: "Sign-in with that provider is not available just now. Use the emailed code.",
};

export default async function DashboardSignInPage({ searchParams }: { searchParams: Promise<{ error?: string; next?: string; email?: string }> }) {
  const { error, next, email } = await searchParams;
  const after = afterSignInPath(typeof next === "string" ? next : "");
  if (await currentDashboardUser()) redirect(after);
  const providers = configuredThirdParty();
  const message = typeof error === "string" ? (ownEntry(ERRORS, error) ?? "Sign-in did not finish. Try again.") : null;
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
          <input id="email" name="email" type="email" autoComplete="email" required autoFocus defaultValue={typeof email === "string" ? email : undefined} className={inputStyle} placeholder="you@company.com" />
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
