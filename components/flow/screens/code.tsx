// The code screen: the six digits texted to the number, a new code after a wait, or another number.
import { FlowShell } from "@/components/flow/flow-shell";
import { CodeForm } from "@/components/flow/forms";
import { LinkNotice } from "@/components/flow/marks";
import { OutboxHint } from "@/components/dev/outbox";
import type { CodeView } from "@/lib/flow/views";
import type { FlowActions } from "../actions";

export function CodeScreen({ view, actions }: { view: CodeView; actions: Pick<FlowActions, "code" | "resend" | "changeNumber"> }) {
  return (
    <FlowShell {...view.shell} title="Enter the code">
      <p className="mt-3 text-slate-600">
        We sent a six-digit code to your number ending in <span className="font-semibold text-slate-900">{view.phoneLast4}</span>.
        {view.sandboxCode && ` The sandbox's number takes the code ${view.sandboxCode}.`}
      </p>
      {view.outbox && <OutboxHint href={view.outbox} kind="text message" />}
      {view.linkNotice && <LinkNotice {...view.linkNotice} />}
      <CodeForm action={actions.code} resend={actions.resend} resendAfterSeconds={view.resendAfterSeconds} />
      <form action={actions.changeNumber} className="mt-3 text-center">
        <button type="submit" className="min-h-10 text-sm font-semibold text-brand-700 underline underline-offset-2">
          Use a different number
        </button>
      </form>
    </FlowShell>
  );
}
