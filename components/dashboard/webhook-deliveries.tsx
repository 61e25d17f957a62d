// The webhooks page's delivery log of one plane: each delivery's event, endpoint, status, last response
// code and error, its tries (status, response code, duration, error) and "Send again".
import type { WebhooksOverview } from "@/lib/dashboard/webhooks";
import { ActionForm } from "./action-form";
import { milliseconds, utcTime } from "./format";
import type { FormAction } from "./pages/actions";

type Delivery = WebhooksOverview["deliveries"][number];

const STATUS: Readonly<Record<Delivery["status"], { label: string; tone: string }>> = {
  pending: { label: "Pending", tone: "bg-sky-100 text-sky-800" },
  delivered: { label: "Delivered", tone: "bg-emerald-100 text-emerald-800" },
  failed: { label: "Failed", tone: "bg-red-100 text-red-800" },
};

export function WebhookDeliveryRow({ delivery: d, hidden, resend }: { delivery: Delivery; hidden: { developer: string; plane: string }; resend: FormAction }) {
  const status = STATUS[d.status];
  const tries = d.attempts.length;
  return (
    <li className="space-y-2 py-3 first:pt-0 last:pb-0" data-testid="webhook-delivery-row">
      <div className="flex flex-wrap items-center gap-2">
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${status.tone}`}>{status.label}</span>
        <span className="font-mono text-sm font-semibold text-slate-900">{d.eventType}</span>
        <span className="text-sm text-slate-600">
          {d.responseCode === null ? "no answer" : `HTTP ${d.responseCode}`} · {tries === 1 ? "1 try" : `${tries} tries`}
        </span>
      </div>
      <p className="text-sm break-words text-slate-600">
        <span className="font-mono break-all">{d.eventId}</span> to <span className="font-mono break-all">{d.endpointUrl}</span> ·{" "}
        <span className="whitespace-nowrap">{utcTime(d.createdAt)}</span>
      </p>
      {d.lastError && d.status !== "delivered" && <p className="text-sm text-red-800">{d.lastError}</p>}
      {d.status === "pending" && d.nextAttemptAt && <p className="text-sm text-slate-600">Next try {utcTime(d.nextAttemptAt)}.</p>}
      {tries > 0 && (
        <details className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
          <summary className="cursor-pointer text-sm font-semibold text-slate-900">Tries ({tries})</summary>
          <ol className="mt-2 space-y-1 text-sm">
            {d.attempts.map((a) => (
              <li key={a.attempt} className="break-all text-slate-700">
                #{a.attempt} · {STATUS[a.status].label} · {a.responseCode === null ? "no answer" : `HTTP ${a.responseCode}`} · {milliseconds(a.durationMs)} · {utcTime(a.startedAt)}
                {a.error && <span className="text-slate-600"> · {a.error}</span>}
              </li>
            ))}
          </ol>
        </details>
      )}
      <ActionForm
        action={resend}
        hidden={{ ...hidden, delivery: d.id }}
        submit={
          <>
            Send again<span className="sr-only"> {d.eventId}</span>
          </>
        }
        pendingLabel="Sending…"
        tone="secondary"
        layout="inline"
      />
    </li>
  );
}
