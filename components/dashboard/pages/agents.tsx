// The account's agents: handle (sent in X-Agent), display name, logo, brand colour, active or not, and
// each one's sign-in link; create one, change one.
import { initialsOf } from "@/lib/agents/agents";
import type { agentsOf } from "@/lib/dashboard/agents";
import type { DashboardContext } from "@/lib/dashboard/context";
import { ActionForm } from "../action-form";
import { DashboardShell, Section } from "../shell";
import { inputStyle, labelStyle } from "../styles";
import type { DashboardActions } from "./actions";

export type AgentsData = Awaited<ReturnType<typeof agentsOf>>;

export function AgentsPage({ ctx, data: agents, actions }: { ctx: DashboardContext; data: AgentsData; actions: DashboardActions }) {
  const { createAgentAction, signOutAction, switchAccountAction, updateAgentAction } = actions;
  const developer = ctx.account.developerId;
  return (
    <DashboardShell
      ctx={ctx}
      current="agents"
      title="Agents"
      intro={
        <p>An agent is one of your apps as people see it on the hosted pages. Your servers name it in the X-Agent header; its sign-in link opens the hosted sign-in for it.</p>
      }
      switchAction={switchAccountAction}
      signOutAction={signOutAction}
    >
      <Section id="create-agent" title="Create an agent">
        <ActionForm action={createAgentAction} hidden={{ developer }} submit="Create agent" pendingLabel="Creating…">
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor="handle" className={labelStyle}>
                Handle
              </label>
              <input
                id="handle"
                name="handle"
                type="text"
                required
                minLength={2}
                maxLength={64}
                pattern="[a-z0-9][a-z0-9\-]*[a-z0-9]"
                className={`${inputStyle} font-mono`}
                placeholder="travel-helper"
                aria-describedby="handle-help"
              />
              <p id="handle-help" className="mt-1.5 text-sm text-slate-600">
                Lowercase letters, digits and inner hyphens. It cannot be changed later.
              </p>
            </div>
            <div>
              <label htmlFor="display_name" className={labelStyle}>
                Display name <span className="font-normal text-slate-500">(optional)</span>
              </label>
              <input id="display_name" name="display_name" type="text" maxLength={100} className={inputStyle} placeholder="Travel Helper" />
            </div>
          </div>
        </ActionForm>
      </Section>
      <Section id="agents" title="Your agents">
        {agents.length === 0 ? (
          <p className="text-sm text-slate-600">No agents yet.</p>
        ) : (
          <ul className="space-y-4">
            {agents.map((a) => (
              <li key={a.handle} className="rounded-xl p-4 ring-1 ring-slate-200" data-testid="agent-row">
                <div className="flex items-start gap-3">
                  <span
                    aria-hidden="true"
                    className="flex size-10 shrink-0 items-center justify-center rounded-xl text-sm font-bold text-white"
                    style={{ backgroundColor: a.brand_color ?? "#4338ca" }}
                  >
                    {initialsOf(a.display_name)}
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold text-slate-900">
                      {a.display_name}{" "}
                      <span className={`ml-1 rounded-full px-2 py-0.5 text-xs font-semibold ${a.active ? "bg-emerald-100 text-emerald-800" : "bg-slate-100 text-slate-600"}`}>
                        {a.active ? "Active" : "Inactive"}
                      </span>
                    </p>
                    <p className="font-mono text-sm text-slate-600">X-Agent: {a.handle}</p>
                    <p className="mt-1 text-sm break-all text-slate-600">
                      Sign-in link:{" "}
                      <a href={a.sign_in_url} className="font-medium text-brand-700 hover:underline" data-testid="sign-in-url">
                        {a.sign_in_url}
                      </a>
                    </p>
                  </div>
                </div>
                <details className="mt-3">
                  <summary className="inline-flex min-h-11 cursor-pointer items-center rounded-lg px-2 text-sm font-semibold text-brand-700 hover:bg-brand-50">
                    Edit {a.handle}
                  </summary>
                  <ActionForm action={updateAgentAction} hidden={{ developer, handle: a.handle }} submit="Save" pendingLabel="Saving…" className="mt-3">
                    <div className="grid gap-4 sm:grid-cols-2">
                      <div>
                        <label htmlFor={`dn-${a.handle}`} className={labelStyle}>
                          Display name
                        </label>
                        <input id={`dn-${a.handle}`} name="display_name" type="text" required maxLength={100} defaultValue={a.display_name} className={inputStyle} />
                      </div>
                      <div>
                        <label htmlFor={`logo-${a.handle}`} className={labelStyle}>
                          Logo URL <span className="font-normal text-slate-500">(https, optional)</span>
                        </label>
                        <input
                          id={`logo-${a.handle}`}
                          name="logo_url"
                          type="url"
                          maxLength={2048}
                          defaultValue={a.logo_url ?? ""}
                          className={inputStyle}
                          placeholder="https://…/logo.png"
                        />
                      </div>
                      <div>
                        <label htmlFor={`color-${a.handle}`} className={labelStyle}>
                          Brand colour <span className="font-normal text-slate-500">(#rrggbb, optional)</span>
                        </label>
                        <input
                          id={`color-${a.handle}`}
                          name="brand_color"
                          type="text"
                          pattern="#[0-9a-fA-F]{6}"
                          maxLength={7}
                          defaultValue={a.brand_color ?? ""}
                          className={`${inputStyle} font-mono`}
                          placeholder="#4338ca"
                        />
                      </div>
                      <div className="flex items-end">
                        <label className="flex min-h-11 items-center gap-2 text-sm font-semibold text-slate-900">
                          <input type="checkbox" name="active" defaultChecked={a.active} className="size-5 rounded border-slate-300 text-brand-600" />
                          Active
                        </label>
                      </div>
                    </div>
                  </ActionForm>
                </details>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </DashboardShell>
  );
}
