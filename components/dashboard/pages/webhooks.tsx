// The webhooks page, one plane at a time: add an endpoint (its secret shown once), the plane's endpoints
// with their actions (./webhook-endpoints.tsx), and its delivery log with "Send again"
// (./webhook-deliveries.tsx). The same rules as /v1/webhooks; docs/webhooks.md describes both.
import type { DashboardContext } from "@/lib/dashboard/context";
import type { WebhooksOverview } from "@/lib/dashboard/webhooks";
import { WEBHOOK_EVENTS } from "@/lib/webhooks/catalogue";
import { ActionForm } from "../action-form";
import { PlaneTabs } from "../plane-tabs";
import { DashboardShell, Section } from "../shell";
import { inputStyle, labelStyle } from "../styles";
import { WebhookDeliveryRow } from "../webhook-deliveries";
import { WebhookEndpointRow } from "../webhook-endpoints";
import type { DashboardActions } from "./actions";

export function WebhooksPage({ ctx, data, overlapHours, actions }: { ctx: DashboardContext; data: WebhooksOverview; overlapHours: number; actions: DashboardActions }) {
  const { plane, endpoints, deliveries } = data;
  const hidden = { developer: ctx.account.developerId, plane };
  const endpointActions = {
    toggle: actions.toggleWebhookEndpointAction,
    remove: actions.removeWebhookEndpointAction,
    showSecret: actions.showWebhookSecretAction,
    rotateSecret: actions.rotateWebhookSecretAction,
    sendTest: actions.sendWebhookTestAction,
  };
  return (
    <DashboardShell
      ctx={ctx}
      current="webhooks"
      title="Webhooks"
      intro={
        <p>
          The service POSTs an event to your endpoints when a person approves or revokes one of your agents, deletes their account, gives an agent an app or takes it back, and when
          an import job ends. Each is signed (Standard Webhooks) and tried again for about a day until your server answers 2xx.
        </p>
      }
      switchAction={actions.switchAccountAction}
      signOutAction={actions.signOutAction}
    >
      <PlaneTabs current={plane} hrefOf={(p) => `/dashboard/webhooks?plane=${p}`} label="Plane of the webhooks" />
      <Section id="add-webhook" title={`Add a ${plane} endpoint`}>
        <ActionForm action={actions.addWebhookEndpointAction} hidden={hidden} submit="Add endpoint" pendingLabel="Adding…">
          <div>
            <label htmlFor="webhook-url" className={labelStyle}>
              URL
            </label>
            <input
              id="webhook-url"
              name="url"
              type="text"
              inputMode="url"
              required
              maxLength={2048}
              className={`${inputStyle} font-mono`}
              placeholder="https://api.example.com/webhooks/profile"
              aria-describedby="webhook-url-help"
            />
            <p id="webhook-url-help" className="mt-1.5 text-sm text-slate-600">
              {plane === "live" ? "https only." : "https, or http://localhost while you develop."}
            </p>
          </div>
          <fieldset>
            <legend className="text-sm font-semibold text-slate-900">Events</legend>
            <p className="mt-1 text-sm text-slate-600">Tick none for every event, including those added later.</p>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {Object.entries(WEBHOOK_EVENTS).map(([type, meaning]) => (
                <label
                  key={type}
                  className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-3 ring-1 ring-slate-200 has-[:checked]:bg-brand-50 has-[:checked]:ring-brand-600"
                >
                  <input type="checkbox" name={`event:${type}`} className="size-4 shrink-0 accent-brand-600" aria-describedby={`event-${type}`} />
                  <span className="font-mono text-sm text-slate-900">{type}</span>
                  <span id={`event-${type}`} className="sr-only">
                    {meaning}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        </ActionForm>
      </Section>
      <Section id="webhook-endpoints" title="Endpoints">
        {endpoints.length === 0 ? (
          <p className="text-sm text-slate-600">No {plane} endpoints yet.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {endpoints.map((e) => (
              <WebhookEndpointRow key={e.id} endpoint={e} hidden={hidden} overlapHours={overlapHours} actions={endpointActions} />
            ))}
          </ul>
        )}
      </Section>
      <Section id="webhook-deliveries" title="Delivery log" description="The latest deliveries of this plane, newest first; events are kept 30 days.">
        {deliveries.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing delivered yet. Send a test event from an endpoint to see one here.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {deliveries.map((d) => (
              <WebhookDeliveryRow key={d.id} delivery={d} hidden={hidden} resend={actions.resendWebhookDeliveryAction} />
            ))}
          </ul>
        )}
      </Section>
    </DashboardShell>
  );
}
