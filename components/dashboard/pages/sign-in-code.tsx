// The six-digit code e-mailed to the address, and a way to get a new one.
import Link from "next/link";
import { ActionForm } from "../action-form";
import { DashboardAuthShell } from "../shell";
import { inputStyle, labelStyle } from "../styles";
import type { DashboardActions } from "./actions";
import { OneTimeCodeInput } from "../../one-time-code-input";
import { OutboxHint } from "../../dev/outbox";
import { EmailAddress } from "../../email-address";

export function SignInCodePage({ data: { email, after, outbox }, actions }: { data: { email: string; after: string; outbox: string | null }; actions: DashboardActions }) {
  const { sendCodeAction, verifyCodeAction } = actions;
  const hidden = { email, ...(after !== "/dashboard" ? { next: after } : {}) };
  return (
    <DashboardAuthShell title="Enter your code">
      <p className="mt-3 text-slate-600">
        We emailed a six-digit code to <EmailAddress email={email} className="font-semibold text-slate-900" />. You can also open the link in that email.
      </p>
      {outbox && <OutboxHint href={outbox} kind="e-mail" />}
      <ActionForm action={verifyCodeAction} hidden={hidden} submit="Sign in" pendingLabel="Signing in…" wide className="mt-6">
        <div>
          <label htmlFor="code" className={labelStyle}>
            Six-digit code
          </label>
          <OneTimeCodeInput className={`${inputStyle} text-center font-mono text-2xl tracking-[0.4em]`} />
        </div>
      </ActionForm>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4">
        <ActionForm action={sendCodeAction} hidden={hidden} submit="Send a new code" pendingLabel="Sending…" tone="secondary" layout="inline" />
        <Link href="/dashboard/sign-in" className="min-h-11 rounded-lg px-2 py-3 text-sm font-semibold text-brand-700 hover:underline">
          Use another address
        </Link>
      </div>
    </DashboardAuthShell>
  );
}
