// /dashboard/welcome — a new address names its developer account, once.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ActionForm } from "@/components/dashboard/action-form";
import { DashboardAuthShell } from "@/components/dashboard/shell";
import { inputStyle, labelStyle } from "@/components/dashboard/styles";
import { membershipsOf } from "@/lib/developer-auth/accounts";
import { currentDashboardUser } from "@/lib/developer-auth/session";
import { createAccountAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Name your developer account", robots: { index: false } };

export default async function WelcomePage() {
  const user = await currentDashboardUser();
  if (!user) redirect("/dashboard/sign-in");
  if ((await membershipsOf(user.id)).length > 0) redirect("/dashboard");
  return (
    <DashboardAuthShell title="Name your developer account">
      <p className="mt-3 text-slate-600">
        Signed in as <span className="font-semibold break-all text-slate-900">{user.email}</span>. Your account holds your API keys, agents and approved origins; you can invite your team to it.
      </p>
      <ActionForm action={createAccountAction} submit="Create account" pendingLabel="Creating…" wide className="mt-6">
        <div>
          <label htmlFor="name" className={labelStyle}>
            Account name
          </label>
          <input id="name" name="name" type="text" required maxLength={100} autoFocus autoComplete="organization" className={inputStyle} placeholder="Acme Labs" />
          <p className="mt-2 text-sm text-slate-600">Your company or project. People see it in their access log next to your agents.</p>
        </div>
      </ActionForm>
    </DashboardAuthShell>
  );
}
