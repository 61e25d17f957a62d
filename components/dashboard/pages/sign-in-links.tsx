// The sign-in links page: per agent, the return destinations its hosted sign-in links may send a
// person back to (add, remove; per plane) and its message lines, by their last four digits only
// (revoked here; registered over the API, which takes the number); the completion-callback secrets of
// both planes (shown, rotated); and the account's partner-session order (phone number first for
// linked-account sessions).
import type { DashboardContext } from "@/lib/dashboard/context";
import type { SignInLinksView } from "@/lib/dashboard/sign-in-links";
import { CALLBACK_SECRET_OVERLAP_HOURS } from "@/lib/sign-in/callback-schemas";
import { ActionForm } from "../action-form";
import { CallbackSecretsSection } from "../callback-secrets";
import { DashboardShell, Section } from "../shell";
import { inputStyle, labelStyle } from "../styles";
import type { DashboardActions } from "./actions";
import { PlaneField } from "../fields";

export function SignInLinksPage({ ctx, data, actions }: { ctx: DashboardContext; data: SignInLinksView; actions: DashboardActions }) {
  const { addDestinationAction, partnerPhoneFirstAction, removeDestinationAction, revokeLineAction, rotateCallbackSecretAction, signOutAction, switchAccountAction } = actions;
  const developer = ctx.account.developerId;
  const { agents, partnerPhoneFirst } = data;
  return (
    <DashboardShell
      ctx={ctx}
      current="sign-in-links"
      title="Sign-in links"
      intro={
        <p>
          Where each agent&rsquo;s hosted sign-in may send people back to (web callbacks and app links, per plane), and the message lines it texts people from. Lines are registered
          over the API and can be revoked here.
        </p>
      }
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
                  <ActionForm
                    action={removeDestinationAction}
                    hidden={{ developer, handle: a.handle, plane: d.plane, url: d.url }}
                    submit={
                      <>
                        Remove
                        <span className="sr-only">
                          {" "}
                          {d.url} ({d.plane})
                        </span>
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
          <ActionForm action={addDestinationAction} hidden={{ developer, handle: a.handle }} submit="Add destination" pendingLabel="Adding…" tone="secondary" className="mt-3">
            <div className="grid gap-3 sm:grid-cols-4">
              <PlaneField
                id={`plane-${a.handle}`}
                label={
                  <>
                    Plane<span className="sr-only"> for {a.handle}</span>
                  </>
                }
              />
              <div className="sm:col-span-3">
                <label htmlFor={`dest-${a.handle}`} className={labelStyle}>
                  Destination<span className="sr-only"> for {a.handle}</span>
                </label>
                <input
                  id={`dest-${a.handle}`}
                  name="url"
                  type="text"
                  inputMode="url"
                  required
                  maxLength={2048}
                  className={`${inputStyle} font-mono`}
                  placeholder="https://app.example.com/signed-in or myapp://done"
                />
              </div>
            </div>
          </ActionForm>
          <h3 className="mt-6 text-sm font-semibold text-slate-900">Message lines</h3>
          {a.lines.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">None. Register one with POST /v1/auth/sign-in/message-lines.</p>
          ) : (
            <ul className="mt-1 divide-y divide-slate-100">
              {a.lines.map((l) => (
                <li key={l.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="line-row">
                  <span className="text-sm text-slate-800">
                    <span className="mr-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">{l.plane}</span>
                    {l.channel === "sms" ? "SMS" : "iMessage"} · number ending in <span className="font-semibold">{l.last4}</span>
                    {l.label && <span className="text-slate-600"> · {l.label}</span>}
                  </span>
                  <ActionForm
                    action={revokeLineAction}
                    hidden={{ developer, line: l.id }}
                    submit={
                      <>
                        Revoke
                        <span className="sr-only">
                          {" "}
                          the {l.plane} {l.channel === "sms" ? "SMS" : "iMessage"} line ending in {l.last4}
                        </span>
                      </>
                    }
                    pendingLabel="Revoking…"
                    tone="danger"
                    layout="inline"
                  />
                </li>
              ))}
            </ul>
          )}
        </Section>
      ))}
      <CallbackSecretsSection developer={developer} secrets={data.callbackSecrets} overlapHours={CALLBACK_SECRET_OVERLAP_HOURS} action={rotateCallbackSecretAction} />
      <Section
        id="partner-sessions"
        title="Partner sessions"
        description={
          <>
            The order of a <span className="font-mono">linked_account</span> session made with <span className="font-mono">POST /v1/flows/sessions</span>.
          </>
        }
      >
        <ActionForm action={partnerPhoneFirstAction} hidden={{ developer }} submit="Save order" pendingLabel="Saving…" tone="secondary">
          <fieldset>
            <legend className={labelStyle}>Linked-account sessions start with</legend>
            <div className="mt-2 space-y-2">
              {(
                [
                  ["off", "The import screen, then the phone number (the default)"],
                  ["on", "The phone number and its code, then the import screen"],
                ] as const
              ).map(([value, text]) => (
                <label
                  key={value}
                  className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-3 ring-1 ring-slate-200 has-[:checked]:bg-brand-50 has-[:checked]:ring-brand-600"
                >
                  <input type="radio" name="phone_first" value={value} defaultChecked={partnerPhoneFirst === (value === "on")} className="size-4 accent-brand-600" />
                  <span className="text-sm text-slate-900">{text}</span>
                </label>
              ))}
            </div>
          </fieldset>
        </ActionForm>
      </Section>
    </DashboardShell>
  );
}
