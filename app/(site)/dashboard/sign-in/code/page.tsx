// /dashboard/sign-in/code — the six-digit code e-mailed to the address, and a way to get a new one.
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { ActionForm } from "@/components/dashboard/action-form";
import { DashboardAuthShell } from "@/components/dashboard/shell";
import { inputStyle, labelStyle } from "@/components/dashboard/styles";
import { emailSchema } from "@/lib/developer-auth/codes";
import { afterSignInPath } from "@/lib/dashboard/paths";
import { sendCodeAction, verifyCodeAction } from "../../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Enter your code", robots: { index: false } };

export default async function DashboardCodePage({ searchParams }: { searchParams: Promise<{ email?: string; next?: string }> }) {
  const { email: raw, next } = await searchParams;
  const email = emailSchema.safeParse(raw);
  if (!email.success) redirect("/dashboard/sign-in");
  const after = afterSignInPath(typeof next === "string" ? next : "");
  const hidden = { email: email.data, ...(after !== "/dashboard" ? { next: after } : {}) };
  return (
    <DashboardAuthShell title="Enter your code">
      <p className="mt-3 text-slate-600">
        We emailed a six-digit code to <span className="font-semibold break-all text-slate-900">{email.data}</span>. You can also open the link in that email.
      </p>
      <ActionForm action={verifyCodeAction} hidden={hidden} submit="Sign in" pendingLabel="Signing in…" wide className="mt-6">
        <div>
          <label htmlFor="code" className={labelStyle}>
            Six-digit code
          </label>
          <input
            id="code"
            name="code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="\d{6}"
            maxLength={6}
            required
            autoFocus
            className={`${inputStyle} text-center font-mono text-2xl tracking-[0.4em]`}
          />
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
