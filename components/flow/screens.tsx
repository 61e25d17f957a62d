// Pieces of the hosted flow's screens that several screens or ways in share: an app's row on the app
// and import screens, and the receipt.
import { FlowShell } from "@/components/flow/flow-shell";
import { ReturnForm } from "@/components/flow/forms";
import { AppIdentity, Badge } from "@/components/flow/marks";
import { secondaryButton } from "@/components/flow/styles";
import { appState, connectsInDevelopment } from "@/lib/connectors/connections";
import { APP_NAMES, ASSISTANT_NAMES, type App, type Assistant } from "@/lib/catalogue";
import type { FlowSession } from "@/lib/flow/sessions";

/** An app's row: connected (with its account), needing reconnection, ready to connect, or not available here. */
export function AppRow({ flow, app, connection, required }: { flow: FlowSession; app: App; connection?: { accountEmail: string | null; status: string }; required: boolean }) {
  const href = `/flow/${flow.id}/connect/${app}`;
  const status = appState(app, connection);
  const detail =
    status === "connected"
      ? connection?.accountEmail || "Connected"
      : status === "reconnect"
        ? "Needs reconnecting"
        : status === "connect"
          ? connectsInDevelopment(app)
            ? "Connect (development)"
            : "Connect"
          : "Not set up on this service";
  const inner = (
    <>
      <AppIdentity app={app} dimmed={status === "unavailable"} detail={detail} />
      {status === "connected" ? <Badge tone="done">✓ Connected</Badge> : required ? <Badge tone="required">Required</Badge> : null}
    </>
  );
  const box = "flex min-h-14 items-center gap-3 rounded-xl px-4 py-3 ring-1";
  return (
    <li>
      {status === "connect" || status === "reconnect" ? (
        <a href={href} className={`${box} ring-slate-200 hover:bg-slate-50`}>
          {inner}
          <span className="sr-only">: connect {APP_NAMES[app]}</span>
        </a>
      ) : (
        <div className={`${box} ${status === "connected" ? "ring-emerald-200" : "ring-slate-200"}`} aria-disabled={status === "unavailable" || undefined}>
          {inner}
        </div>
      )}
    </li>
  );
}

export function Receipt({ flow, appName, shell }: { flow: FlowSession; appName: string; shell: Omit<React.ComponentProps<typeof FlowShell>, "title" | "children"> }) {
  const saved = flow.receipt?.saved.filter((s) => s.count > 0) ?? [];
  const connected = flow.receipt?.connected ?? [];
  return (
    <FlowShell {...shell} cancelAction={undefined} title={flow.agentId ? `You're signed in to ${appName}` : "Your profile is ready"}>
      <div className="mt-4 flex size-12 items-center justify-center rounded-full bg-emerald-100 text-emerald-700" aria-hidden="true">
        <svg viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
          <path d="M5 12.5l4.5 4.5L19 7.5" />
        </svg>
      </div>
      <h2 className="mt-5 text-sm font-semibold uppercase tracking-wide text-slate-500">Saved to your profile</h2>
      {saved.length ? (
        <ul className="mt-2 divide-y divide-slate-200 rounded-xl ring-1 ring-slate-200">
          {saved.map((s) => (
            <li key={s.provider} className="flex items-center justify-between px-4 py-3">
              <span className="font-medium text-slate-900">{ASSISTANT_NAMES[s.provider as Assistant] ?? s.provider}</span>
              <span className="text-sm text-slate-600">
                {s.count} {s.count === 1 ? "memory" : "memories"}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-slate-600">Nothing new this time: your profile already had it.</p>
      )}
      {connected.length > 0 && (
        <>
          <h2 className="mt-6 text-sm font-semibold uppercase tracking-wide text-slate-500">Connected</h2>
          <p className="mt-2 text-slate-700">{connected.map((a) => APP_NAMES[a as App] ?? a).join(", ")}</p>
        </>
      )}
      {flow.agentId && (
        <>
          <h2 className="mt-6 text-sm font-semibold uppercase tracking-wide text-slate-500">Approved</h2>
          <p className="mt-2 text-slate-700">
            <span className="font-semibold text-slate-900">{appName}</span> can now read your profile and add what it learns. You can revoke it at any
            time.
          </p>
        </>
      )}
      <ReturnForm action={`/flow/${flow.id}/return`} appName={appName} seconds={5} />
      {flow.agentId && (
        <a href="/" className={`${secondaryButton} mt-3`}>
          About Profile Service
        </a>
      )}
    </FlowShell>
  );
}
