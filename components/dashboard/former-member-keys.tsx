// Keys still working that someone no longer a member made: the members and keys pages offer to revoke
// each person's at once (a removed member's keys do not stop by themselves).
import { ActionForm } from "./action-form";
import { Section } from "./shell";
import type { FormAction } from "./pages/actions";

export interface FormerMemberKeys {
  dashboardUserId: string;
  email: string;
  prefixes: string[];
}

export function FormerMemberKeysSection({ developer, former, action }: { developer: string; former: FormerMemberKeys[]; action: FormAction }) {
  if (former.length === 0) return null;
  return (
    <Section id="former-member-keys" title="Keys made by former members" description="These people are no longer members, but the keys they made still work until you revoke them.">
      <ul className="divide-y divide-slate-200">
        {former.map((f) => (
          <li key={f.dashboardUserId} className="flex flex-wrap items-center gap-3 py-3" data-testid="former-member-keys">
            <div className="min-w-48 flex-1">
              <p className="text-sm font-semibold break-all text-slate-900">{f.email}</p>
              <p className="font-mono text-sm break-all text-slate-600">{f.prefixes.map((p) => `${p}…`).join(" · ")}</p>
            </div>
            <ActionForm
              action={action}
              hidden={{ developer, made_by: f.dashboardUserId }}
              submit={
                <>
                  Revoke {f.prefixes.length === 1 ? "their key" : `their ${f.prefixes.length} keys`}
                  <span className="sr-only"> made by {f.email}</span>
                </>
              }
              pendingLabel="Revoking…"
              tone="danger"
              layout="inline"
            />
          </li>
        ))}
      </ul>
    </Section>
  );
}
