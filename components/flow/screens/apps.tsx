// A connect link's screens: the one app it names (marked Required until connected), every app, or a permission.
import { AppRow } from "@/components/flow/app-row";
import { FlowShell } from "@/components/flow/flow-shell";
import { ContinueForm } from "@/components/flow/forms";
import { ConnectErrorBanner, LinkNotice } from "@/components/flow/marks";
import { APP_NAMES } from "@/lib/catalogue";
import type { AppsView, CapabilityView } from "@/lib/flow/views";
import type { FlowActions } from "../actions";

export function AppsScreen({ view, actions }: { view: AppsView; actions: Pick<FlowActions, "continueApp" | "continueApps"> }) {
  const name = view.shell.appName;
  return (
    <FlowShell {...view.shell} title={view.app ? `Connect ${APP_NAMES[view.app]}` : "Your connected apps"}>
      <p className="mt-3 text-slate-600">{view.purpose ?? (view.app ? `${name} asks you to connect it.` : `Connect the apps ${name} can use.`)}</p>
      {view.linkNotice && <LinkNotice {...view.linkNotice} />}
      <ConnectErrorBanner code={view.connectError ?? undefined} />
      <ul className="mt-6 space-y-2">
        {view.rows.map((row) => (
          <AppRow key={row.app} row={row} />
        ))}
      </ul>
      <div className="mt-8 border-t border-slate-200 pt-6">
        <ContinueForm
          action={view.screen === "app" ? actions.continueApp : actions.continueApps}
          enabled={view.met}
          hint={
            view.met
              ? view.app
                ? `Continue lets ${name} use ${APP_NAMES[view.app]}. You can take it back at any time.`
                : `${name} can use the apps you connect here. You can take them back at any time.`
              : "Connect it to continue."
          }
        />
      </div>
    </FlowShell>
  );
}

export function CapabilityScreen({ view, actions }: { view: CapabilityView; actions: Pick<FlowActions, "allowCapability"> }) {
  const name = view.shell.appName;
  return (
    <FlowShell {...view.shell} title={`Allow ${name} to ${view.phrase}?`}>
      <p className="mt-3 text-slate-800">
        <span className="font-semibold">{name}</span>
        {view.shell.developerName && <> (by {view.shell.developerName})</>} wants to {view.phrase}.
      </p>
      <p className="mt-2 text-slate-600">{view.purpose ?? "You can take it back at any time on your account page."}</p>
      <p className="mt-4 rounded-xl bg-slate-50 px-4 py-3 font-mono text-sm text-slate-700 ring-1 ring-slate-200">{view.capability}</p>
      <ConnectErrorBanner code={view.connectError ?? undefined} />
      <div className="mt-6">
        <ContinueForm action={actions.allowCapability} enabled hint="Cancel keeps it off." label="Allow" />
      </div>
    </FlowShell>
  );
}
