// The webhooks page's endpoints of one plane: each address with its events and state, and what a member
// does to it — send a test event, disable or enable it, show its secret (on request, as the API's
// explicit read), rotate the secret keeping the old one signing for the overlap or not, remove it.
import type { WebhookEndpointView } from "@/lib/webhooks/endpoints";
import { ActionForm } from "./action-form";
import { utcTime } from "./format";
import type { FormAction } from "./pages/actions";

export interface EndpointActions {
  toggle: FormAction;
  remove: FormAction;
  showSecret: FormAction;
  rotateSecret: FormAction;
  sendTest: FormAction;
}

const badge = "rounded-full px-2 py-0.5 text-xs font-semibold";

export function WebhookEndpointRow({
  endpoint: e,
  hidden,
  overlapHours,
  actions,
}: {
  endpoint: WebhookEndpointView;
  hidden: { developer: string; plane: string };
  overlapHours: number;
  actions: EndpointActions;
}) {
  const row = { ...hidden, endpoint: e.id };
  const named = <span className="sr-only"> {e.url}</span>;
  return (
    <li className="space-y-3 py-4 first:pt-0 last:pb-0" data-testid="webhook-endpoint-row">
      <div className="space-y-1">
        <p className="font-mono text-sm break-all text-slate-900">{e.url}</p>
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <span className={`${badge} ${e.enabled ? "bg-emerald-100 text-emerald-800" : "bg-slate-200 text-slate-700"}`}>{e.enabled ? "Enabled" : "Disabled"}</span>
          <span>{e.events.includes("*") ? "All events" : e.events.join(", ")}</span>
          <span>· added {utcTime(e.createdAt)}</span>
        </p>
        {e.description && <p className="text-sm text-slate-700">{e.description}</p>}
        {e.previousSecretExpiresAt && (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-200">
            The secret it replaced also signs until {utcTime(e.previousSecretExpiresAt)}.
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-start gap-2">
        {e.enabled && <ActionForm action={actions.sendTest} hidden={row} submit={<>Send test event{named}</>} pendingLabel="Sending…" tone="secondary" layout="inline" />}
        <ActionForm
          action={actions.toggle}
          hidden={{ ...row, enabled: e.enabled ? "off" : "on" }}
          submit={
            <>
              {e.enabled ? "Disable" : "Enable"}
              {named}
            </>
          }
          pendingLabel="Saving…"
          tone="secondary"
          layout="inline"
        />
        <ActionForm action={actions.showSecret} hidden={row} submit={<>Show secret{named}</>} pendingLabel="Opening…" tone="secondary" layout="inline" />
        <ActionForm action={actions.remove} hidden={row} submit={<>Remove{named}</>} pendingLabel="Removing…" tone="danger" layout="inline" />
      </div>
      <details>
        <summary className="inline-flex min-h-10 cursor-pointer items-center text-sm font-semibold text-brand-700">Rotate the secret{named}</summary>
        <ActionForm action={actions.rotateSecret} hidden={row} submit={<>Rotate secret{named}</>} pendingLabel="Rotating…" tone="secondary" className="mt-2">
          <fieldset>
            <legend className="text-sm font-semibold text-slate-900">The old secret</legend>
            <div className="mt-2 space-y-2">
              {(
                [
                  ["keep", `Keeps signing for ${overlapHours} hours, beside the new one`],
                  ["end", "Stops now (it leaked)"],
                ] as const
              ).map(([value, text]) => (
                <label
                  key={value}
                  className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-3 ring-1 ring-slate-200 has-[:checked]:bg-brand-50 has-[:checked]:ring-brand-600"
                >
                  <input type="radio" name="overlap" value={value} defaultChecked={value === "keep"} className="size-4 accent-brand-600" />
                  <span className="text-sm text-slate-900">{text}</span>
                </label>
              ))}
            </div>
          </fieldset>
        </ActionForm>
      </details>
    </li>
  );
}
