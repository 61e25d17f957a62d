// /dashboard/sign-in/link — the page the e-mailed link opens. It uses the code only when the person
// clicks: a mail scanner that opens links signs nobody in and spends no code.
import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/dashboard/action-form";
import { DashboardAuthShell } from "@/components/dashboard/shell";
import { emailSchema } from "@/lib/developer-auth/codes";
import { verifyCodeAction } from "../../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in", robots: { index: false }, referrer: "no-referrer" };

export default async function DashboardLinkPage({ searchParams }: { searchParams: Promise<{ email?: string; code?: string }> }) {
  const { email: raw, code } = await searchParams;
  const email = emailSchema.safeParse(raw);
  const valid = email.success && typeof code === "string" && /^\d{6}$/.test(code);
  return (
    <DashboardAuthShell title="Sign in to the developer dashboard">
      {valid ? (
        <>
          <p className="mt-3 text-slate-600">
            Sign in as <span className="font-semibold break-all text-slate-900">{email.data}</span>.
          </p>
          <ActionForm action={verifyCodeAction} hidden={{ email: email.data, code }} submit="Sign in" pendingLabel="Signing in…" wide className="mt-6" />
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
