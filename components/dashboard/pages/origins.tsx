// The origins approved for the account's sign-in callbacks and return addresses: approve, remove.
import type { DashboardContext } from "@/lib/dashboard/context";
import type { originsOf } from "@/lib/dashboard/origins";
import { ActionForm } from "../action-form";
import { DashboardShell, Section } from "../shell";
import { inputStyle, labelStyle } from "../styles";
import type { DashboardActions } from "./actions";

export type OriginsData = Awaited<ReturnType<typeof originsOf>>;

export function OriginsPage({ ctx, data: origins, actions }: { ctx: DashboardContext; data: OriginsData; actions: DashboardActions }) {
  const { addOriginAction, removeOriginAction, signOutAction, switchAccountAction } = actions;
  const developer = ctx.account.developerId;
  return (
    <DashboardShell
      ctx={ctx}
      current="origins"
      title="Approved origins"
      intro={
        <p>
          Sign-in callbacks registered with a publishable key, and the addresses people are sent back to after a hosted flow, must be on an origin approved here (localhost needs no
          approval).
        </p>
      }
      switchAction={switchAccountAction}
      signOutAction={signOutAction}
    >
      <Section id="add-origin" title="Approve an origin">
        <ActionForm action={addOriginAction} hidden={{ developer }} submit="Approve origin" pendingLabel="Approving…">
          <div>
            <label htmlFor="origin" className={labelStyle}>
              Origin
            </label>
            <input
              id="origin"
              name="origin"
              type="text"
              inputMode="url"
              required
              maxLength={2048}
              className={`${inputStyle} font-mono`}
              placeholder="https://app.example.com"
              aria-describedby="origin-help"
            />
            <p id="origin-help" className="mt-1.5 text-sm text-slate-600">
              https://host[:port], no path; http only for localhost.
            </p>
          </div>
        </ActionForm>
      </Section>
      <Section id="origins" title="Approved">
        {origins.length === 0 ? (
          <p className="text-sm text-slate-600">No origins approved yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {origins.map((o) => (
              <li key={o.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="origin-row">
                <span className="font-mono text-sm break-all text-slate-900">{o.origin}</span>
                <ActionForm
                  action={removeOriginAction}
                  hidden={{ developer, origin: o.origin }}
                  submit={
                    <>
                      Remove<span className="sr-only"> {o.origin}</span>
                    </>
                  }
                  pendingLabel="Removing…"
                  tone="danger"
                  layout="inline"
                />
              </li>
            ))}
          </ul>
        )}
      </Section>
    </DashboardShell>
  );
}
