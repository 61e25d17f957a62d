// The mailbox page: first in the flow when the app requires a mailbox; after the code, offered while
// the person's address is not yet proven, with the other proofs (an e-mailed code, a sign-in).
import { AppRow } from "@/components/flow/app-row";
import { FlowShell } from "@/components/flow/flow-shell";
import { ContinueForm, SingleFieldForm } from "@/components/flow/forms";
import { ConnectErrorBanner } from "@/components/flow/marks";
import { secondaryButton } from "@/components/flow/styles";
import type { MailboxView } from "@/lib/flow/views";
import type { FlowActions } from "../actions";

export function MailboxScreen({ view, actions }: { view: MailboxView; actions: Pick<FlowActions, "email" | "emailCode" | "changeEmail" | "thirdParty" | "continueMailbox"> }) {
  const { appName } = view.shell;
  return (
    <FlowShell {...view.shell} title={view.offered ? "Add your mailbox" : `${appName} asks for your mailbox`}>
      <p className="mt-3 text-slate-600">
        {view.offered
          ? `Connecting your mailbox shows ${appName} that your email address is yours. You can skip this.`
          : `Connect ${view.rows.length > 1 ? "one of these mailboxes" : "your mailbox"}. It also shows ${appName} that the address is yours. Assistants and other apps come next.`}
      </p>
      <ConnectErrorBanner code={view.connectError ?? undefined} />
      {view.verifyError && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-red-200">
          {view.verifyError} did not confirm an email address for that account. Try another way below.
        </p>
      )}
      <ul className="mt-6 space-y-2">
        {view.rows.map((row) => (
          <AppRow key={row.app} row={row} />
        ))}
      </ul>
      {view.emailCode && (
        <section aria-labelledby="email-code-title" className="mt-6 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
          <h2 id="email-code-title" className="font-semibold text-slate-900">
            Or confirm your email with a code
          </h2>
          {view.emailCode.pendingEmail ? (
            <>
              <p className="mt-1 text-sm text-slate-600">
                We sent a six-digit code to <span className="font-semibold text-slate-900">{view.emailCode.pendingEmail}</span>.
              </p>
              <SingleFieldForm
                action={actions.emailCode}
                name="email_code"
                label="Code from the email"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                button="Confirm my email"
                pendingLabel="Checking…"
              />
              <form action={actions.changeEmail} className="mt-2 text-center">
                <button type="submit" className="min-h-10 text-sm font-semibold text-brand-700 underline underline-offset-2">
                  Use a different address
                </button>
              </form>
            </>
          ) : (
            <SingleFieldForm
              action={actions.email}
              name="email"
              label="Email address"
              type="email"
              inputMode="email"
              autoComplete="email"
              button="Email me a code"
              pendingLabel="Sending…"
            />
          )}
        </section>
      )}
      {view.thirdParty.length > 0 && (
        <section aria-labelledby="third-party-title" className="mt-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
          <h2 id="third-party-title" className="font-semibold text-slate-900">
            Or confirm it by signing in
          </h2>
          <p className="mt-1 text-sm text-slate-600">The address your account there has confirmed becomes your verified email. Your phone number stays how you sign in here.</p>
          <div className="mt-3 grid gap-2 sm:grid-cols-2">
            {view.thirdParty.map((p) => (
              <form key={p.provider} action={actions.thirdParty(p.provider)}>
                <button type="submit" className={`${secondaryButton} w-full`}>
                  Continue with {p.name}
                </button>
              </form>
            ))}
          </div>
        </section>
      )}
      <div className="mt-8 border-t border-slate-200 pt-6">
        <ContinueForm action={actions.continueMailbox} enabled={view.continueEnabled} label={view.continueLabel} hint={view.hint} />
      </div>
    </FlowShell>
  );
}
