// The receipt: what was saved and connected (with what each app is read for, and what it taught the
// profile so far), the app approved, and the way back to it.
import Link from "next/link";
import { FlowShell } from "@/components/flow/flow-shell";
import { PasskeyOffer } from "@/components/flow/passkey";
import { ReturnForm } from "@/components/flow/return-form";
import { secondaryButton } from "@/components/flow/styles";
import type { ReceiptView } from "@/lib/flow/views";
import type { FlowActions } from "../actions";

export function ReceiptScreen({ view, actions }: { view: ReceiptView; actions: Pick<FlowActions, "addPasskey" | "dismissPasskeyOffer"> }) {
  const { appName } = view.shell;
  return (
    <FlowShell {...view.shell} title={view.importOnly ? `Saved for ${appName}` : view.approved ? `You're signed in to ${appName}` : "Your profile is ready"}>
      <div className="mt-4 flex size-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-700" aria-hidden="true">
        <svg viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
          <path d="M5 12.5l4.5 4.5L19 7.5" />
        </svg>
      </div>
      <h2 className="mt-5 text-sm font-semibold uppercase tracking-wide text-slate-500">Saved to your profile</h2>
      {view.saved.length ? (
        <ul className="mt-2 divide-y divide-slate-200 rounded-xl ring-1 ring-slate-200">
          {view.saved.map((s) => (
            <li key={s.name} className="flex items-center justify-between px-4 py-3">
              <span className="font-medium text-slate-900">{s.name}</span>
              <span className="text-sm text-slate-600">
                {s.count} {s.count === 1 ? "memory" : "memories"}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-slate-600">Nothing new this time: your profile already had it.</p>
      )}
      {view.connected.length > 0 && (
        <>
          <h2 className="mt-6 text-sm font-semibold uppercase tracking-wide text-slate-500">Connected</h2>
          {view.fromApps.length ? (
            <ul className="mt-2 space-y-3">
              {view.connected.map((name) => (
                <ConnectedApp key={name} name={name} from={view.fromApps.find((a) => a.name === name)} />
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-slate-700">{view.connected.join(", ")}</p>
          )}
        </>
      )}
      {view.approved && (
        <>
          <h2 className="mt-6 text-sm font-semibold uppercase tracking-wide text-slate-500">Approved</h2>
          <p className="mt-2 text-slate-700">
            {view.importOnly ? (
              <>
                <span className="font-semibold text-slate-900">{appName}</span> can now read what you brought in and add what it learns.
              </>
            ) : (
              <>
                <span className="font-semibold text-slate-900">{appName}</span>
                {view.shell.developerName && <> (by {view.shell.developerName})</>} can now read your profile and add what it learns
                {view.agentApps.length ? <>, and use {listed(view.agentApps)}</> : null}.{" "}
                {view.agentApps.length ? "It cannot use your other apps." : "It cannot use any of your apps."} You can revoke it at any time.
              </>
            )}
          </p>
        </>
      )}
      {/* Always in place, so that its confirmation outlives the refresh that making a passkey brings (the offer is then no longer made). */}
      <PasskeyOffer optionsUrl={view.passkeyOffer} add={actions.addPasskey} dismiss={actions.dismissPasskeyOffer} />
      {view.returnAction ? (
        <ReturnForm action={view.returnAction} appName={appName} seconds={5} />
      ) : (
        <p className="mt-6 rounded-xl bg-brand-50 px-4 py-3 text-slate-800 ring-1 ring-brand-100">
          {view.backToMessages
            ? `Go back to your messages: ${appName} picks up the conversation where you left it. You can close this page.`
            : `You can close this page and go back to ${appName}.`}
        </p>
      )}
      {view.approved && (
        <Link href="/" className={`${secondaryButton} mt-3`}>
          About Profile Service
        </Link>
      )}
    </FlowShell>
  );
}

function listed(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** A connected app: what the service reads from it until it has learned something, then what it learned. */
function ConnectedApp({ name, from }: { name: string; from?: ReceiptView["fromApps"][number] }) {
  return (
    <li className="text-slate-700">
      <span className="font-medium text-slate-900">{name}</span>
      {from && from.facts.length > 0 && (
        <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-600">
          {from.facts.map((fact) => (
            <li key={fact}>{fact}</li>
          ))}
        </ul>
      )}
      {from && !from.facts.length && (
        <p className="mt-1 text-sm text-slate-600">Reading {from.reads.charAt(0).toLowerCase() + from.reads.slice(1)}: what it learns is added to your profile.</p>
      )}
    </li>
  );
}
