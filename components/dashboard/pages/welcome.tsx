// A new address names its developer account, once.
import { ActionForm } from "../action-form";
import { DashboardAuthShell } from "../shell";
import { inputStyle, labelStyle } from "../styles";
import type { DashboardActions } from "./actions";

export function WelcomePage({ data: user, actions }: { data: { email: string }; actions: DashboardActions }) {
  const { createAccountAction } = actions;
  return (
    <DashboardAuthShell title="Name your developer account">
      <p className="mt-3 text-slate-600">
        Signed in as <span className="font-semibold break-all text-slate-900">{user.email}</span>. Your account holds your API keys, agents and approved origins; you can invite
        your team to it.
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
