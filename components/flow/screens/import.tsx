// The import screen: assistants to import from (a card each: the prompt to ask, then the preview to
// keep or discard) and apps to connect, with what is Required marked and sorted first.
import { AppRow } from "@/components/flow/app-row";
import { FlowShell } from "@/components/flow/flow-shell";
import { CopyButton } from "@/components/copy-button";
import { ContinueForm, DecideForm, ImportForm } from "@/components/flow/forms";
import { Badge, ConnectErrorBanner, LinkNotice, Monogram } from "@/components/flow/marks";
import type { AssistantBadge, AssistantRowView, ImportView } from "@/lib/flow/views";
import type { FlowActions } from "../actions";

type ImportActions = Pick<FlowActions, "preview" | "decide" | "continueImport" | "signInFirst">;

export function ImportScreen({ view, actions }: { view: ImportView; actions: ImportActions }) {
  const { appName } = view.shell;
  return (
    <FlowShell {...view.shell} title={`Bring your profile to ${appName}`}>
      <p className="mt-3 text-slate-600">
        {view.apps.length > 0 ? "Import what an assistant already knows about you, or connect an app." : "Import what an assistant already knows about you."} {appName} can then
        personalise from the start.
      </p>
      {/* Above the cards: in a 480×720 popup, below them would be out of sight. */}
      {view.signInOffered && (
        <form action={actions.signInFirst} className="mt-2 text-sm text-slate-600">
          Already have a profile?{" "}
          <button type="submit" className="min-h-10 font-semibold text-brand-700 underline underline-offset-2">
            Sign in
          </button>
        </form>
      )}
      {view.linkNotice && <LinkNotice {...view.linkNotice} />}
      <ConnectErrorBanner code={view.connectError ?? undefined} />
      {view.signedIn && (
        <p className="mt-4 rounded-xl bg-emerald-50 px-4 py-3 text-sm text-emerald-900 ring-1 ring-emerald-200">
          You&rsquo;re signed in. Your profile already has what you imported before; add more if you like.
        </p>
      )}

      <section aria-labelledby="assistants-title" className="mt-6">
        <h2 id="assistants-title" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
          Assistants
        </h2>
        <ul className="mt-3 space-y-2">
          {view.assistants.map((row) => (
            <li key={row.assistant}>
              <a
                href={row.href}
                aria-expanded={row.open}
                className={`flex min-h-14 items-center gap-3 rounded-xl px-4 py-3 ring-1 transition-colors ${row.open ? "bg-brand-50 ring-brand-600" : "ring-slate-200 hover:bg-slate-50"}`}
              >
                <Monogram id={row.assistant} name={row.name} />
                <span className="flex-1 font-semibold text-slate-900">{row.name}</span>
                <AssistantStatus badge={row.badge} />
                <svg aria-hidden="true" viewBox="0 0 20 20" className={`size-5 text-slate-400 transition-transform ${row.open ? "rotate-90" : ""}`} fill="currentColor">
                  <path d="M7.2 4.2a.75.75 0 011.06 0l5.25 5.25a.75.75 0 010 1.06L8.26 15.8a.75.75 0 11-1.06-1.06L11.94 10 7.2 5.26a.75.75 0 010-1.06z" />
                </svg>
              </a>
              {row.panel && <AssistantPanel row={row} actions={actions} />}
            </li>
          ))}
        </ul>
      </section>

      {view.apps.length > 0 && (
        <section aria-labelledby="apps-title" className="mt-6">
          <h2 id="apps-title" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
            Apps
          </h2>
          <ul className="mt-3 space-y-2">
            {view.apps.map((row) => (
              <AppRow key={row.app} row={row} />
            ))}
          </ul>
        </section>
      )}

      <div className="mt-8 border-t border-slate-200 pt-6">
        {view.alternatives && <p className="mb-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">Where several are marked Required together, one of them is enough.</p>}
        <ContinueForm action={actions.continueImport} enabled={view.continueEnabled} hint={view.hint} label={view.signedIn ? `Continue to ${appName}` : "Continue"} />
      </div>
    </FlowShell>
  );
}

function AssistantStatus({ badge }: { badge: AssistantBadge }) {
  if (!badge) return null;
  switch (badge.kind) {
    case "imported":
      return (
        <Badge tone="done">
          ✓ {badge.count} {badge.count === 1 ? "memory" : "memories"}
        </Badge>
      );
    case "preview":
      return <Badge tone="muted">Preview ready</Badge>;
    case "required":
      return <Badge tone="required">Required</Badge>;
    case "done":
      return <Badge tone="done">✓ Done</Badge>;
  }
}

function AssistantPanel({ row, actions }: { row: AssistantRowView; actions: ImportActions }) {
  const { panel, name } = row;
  if (!panel) return null;
  if (panel.kind === "preview") {
    return (
      <div id="panel" className="mt-2 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
        <h3 id="preview-title" className="font-semibold text-slate-900">
          {panel.count} {panel.count === 1 ? "memory" : "memories"} from {name} will be saved
        </h3>
        {/* It scrolls when long: focusable, so the keyboard can scroll it too. */}
        <ul
          aria-labelledby="preview-title"
          tabIndex={0}
          className="mt-3 max-h-72 space-y-1.5 overflow-y-auto rounded-md text-sm text-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
        >
          {panel.shown.map((m, i) => (
            <li key={i} className="flex gap-2">
              <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-brand-500" />
              <span>
                {m.text}
                {m.date && <span className="text-slate-500"> · {m.date}</span>}
              </span>
            </li>
          ))}
        </ul>
        {panel.more > 0 && <p className="mt-2 text-sm text-slate-500">and {panel.more} more</p>}
        <DecideForm action={actions.decide} provider={row.assistant} count={panel.count} />
      </div>
    );
  }
  return (
    <div id="panel" className="mt-2 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
      <p className="text-sm font-semibold text-slate-900">1. Ask {name} for its memories of you</p>
      <p className="mt-2 rounded-lg bg-white p-3 text-sm text-slate-700 ring-1 ring-slate-200">{panel.prompt}</p>
      <div className="mt-2">
        <CopyButton look="prompt" text={panel.prompt} />
      </div>
      <p className="mt-4 text-sm font-semibold text-slate-900">2. Bring the answer here</p>
      <ImportForm action={actions.preview} provider={row.assistant} providerName={name} acceptsFile={panel.acceptsFile} />
      {panel.replaces !== null && (
        <p className="mt-3 text-sm text-slate-600">
          Importing again replaces the {panel.replaces} memories kept from {name}.
        </p>
      )}
    </div>
  );
}
