// The page the e-mailed link opens: it uses the code only when the person clicks, so a mail scanner
// that opens links signs nobody in and spends no code.
import Link from "next/link";
import { ActionForm } from "../action-form";
import { DashboardAuthShell } from "../shell";
import { EmailAddress } from "../../email-address";
import type { DashboardActions } from "./actions";

/** The link's address and code, when the link is complete; null when it is not. */
export type SignInLinkData = { email: string; code: string } | null;

export function SignInLinkPage({ data: link, actions }: { data: SignInLinkData; actions: DashboardActions }) {
  const { verifyCodeAction } = actions;
  return (
    <DashboardAuthShell title="Sign in to the developer dashboard">
      {link ? (
        <>
          <p className="mt-3 text-slate-600">
            Sign in as <EmailAddress email={link.email} className="font-semibold text-slate-900" />.
          </p>
          <ActionForm action={verifyCodeAction} hidden={{ email: link.email, code: link.code }} submit="Sign in" pendingLabel="Signing in…" wide className="mt-6" />
        </>
      ) : (
        <p className="mt-3 text-slate-600">This sign-in link is not complete. Open it again from the email, or ask for a new code.</p>
      )}
      <p className="mt-6 text-sm">
        <Link href="/dashboard/sign-in" className="font-semibold text-brand-700 hover:underline">
          Ask for a new code
        </Link>
      </p>
    </DashboardAuthShell>
  );
}
