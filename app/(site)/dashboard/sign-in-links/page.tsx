// /dashboard/sign-in-links — per agent: the return destinations its hosted sign-in links may send a
// person back to (add, remove; per plane), and its message lines, by their last four digits only.
import type { Metadata } from "next";
import { ActionForm } from "@/components/dashboard/action-form";
import { DashboardShell, Section } from "@/components/dashboard/shell";
import { inputStyle, labelStyle } from "@/components/dashboard/styles";
import { dashboardPage } from "@/lib/dashboard/context";
import { signInLinksOf } from "@/lib/dashboard/sign-in-links";
import { addDestinationAction, removeDestinationAction, signOutAction, switchAccountAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign-in links", robots: { index: false } };

export default async function SignInLinksPage() {
  const ctx = await dashboardPage();
  const developer = ctx.account.developerId;
  const agents = await signInLinksOf(developer);
  return (
    <DashboardShell
      ctx={ctx}
      current="sign-in-links"
      title="Sign-in links"
      intro={<p>Where each agent&rsquo;s hosted sign-in may send people back to (web callbacks and app links, per plane), and the message lines it texts people from. Lines are registered over the API.</p>}
      switchAction={switchAccountAction}
      signOutAction={signOutAction}
    >
      {agents.length === 0 && <p className="text-slate-600">Create an agent first.</p>}
      {agents.map((a) => (
        <Section key={a.handle} id={`agent-${a.handle}`} title={a.displayName} description={<span className="font-mono">X-Agent: {a.handle}</span>}>
          <h3 className="text-sm font-semibold text-slate-900">Return destinations</h3>
          {a.destinations.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">None yet.</p>
          ) : (
            <ul className="mt-1 divide-y divide-slate-100">
              {a.destinations.map((d) => (
                <li key={`${d.plane} ${d.url}`} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="destination-row">
                  <span className="min-w-0 text-sm break-all text-slate-800">
                    <span className="mr-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">{d.plane}</span>
                    <span className="font-mono">{d.url}</span>
                  </span>
                  <ActionForm action={removeDestinationAction} hidden={{ developer, handle: a.handle, plane: d.plane, url: d.url }} submit={<>Remove<span className="sr-only"> {d.url} ({d.plane})</span></>} pendingLabel="Removing…" tone="danger" layout="inline" />
                </li>
              ))}
            </ul>
          )}
          <ActionForm action={addDestinationAction} hidden={{ developer, handle: a.handle }} submit="Add destination" pendingLabel="Adding…" tone="secondary" className="mt-3">
            <div className="grid gap-3 sm:grid-cols-4">
              <div>
                <label htmlFor={`plane-${a.handle}`} className={labelStyle}>
                  Plane<span className="sr-only"> for {a.handle}</span>
                </label>
                <select id={`plane-${a.handle}`} name="plane" defaultValue="test" className={inputStyle}>
                  <option value="test">Test</option>
                  <option value="live">Live</option>
                </select>
              </div>
              <div className="sm:col-span-3">
                <label htmlFor={`dest-${a.handle}`} className={labelStyle}>
                  Destination<span className="sr-only"> for {a.handle}</span>
                </label>
                <input id={`dest-${a.handle}`} name="url" type="text" inputMode="url" required maxLength={2048} className={`${inputStyle} font-mono`} placeholder="https://app.example.com/signed-in or myapp://done" />
              </div>
            </div>
          </ActionForm>
          <h3 className="mt-6 text-sm font-semibold text-slate-900">Message lines</h3>
          {a.lines.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">None. Register one with POST /v1/auth/sign-in/message-lines.</p>
          ) : (
            <ul className="mt-1 divide-y divide-slate-100">
              {a.lines.map((l) => (
                <li key={l.id} className="py-2 text-sm text-slate-800" data-testid="line-row">
                  <span className="mr-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">{l.plane}</span>
                  {l.channel === "sms" ? "SMS" : "iMessage"} · number ending in <span className="font-semibold">{l.last4}</span>
                  {l.label && <span className="text-slate-600"> · {l.label}</span>}
                </li>
              ))}
            </ul>
          )}
        </Section>
      ))}
    </DashboardShell>
  );
}
