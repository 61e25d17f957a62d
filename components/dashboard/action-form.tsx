"use client";
// A dashboard form posting to a server action: it works without JavaScript; with it, the button shows
// progress and the answer appears under the form — a confirmation, a refusal, or a secret shown once.
import { useActionState, useEffect, useId, useRef, useState } from "react";
import { useFormStatus } from "react-dom";
import type { ActionState } from "@/lib/actions/state";
import { useDashboardNotice } from "./notices";
import { buttonStyles, type ButtonTone } from "./styles";

type Action = (state: ActionState, form: FormData) => Promise<ActionState>;

function Submit({ children, pendingLabel, tone, wide, disabled }: { children: React.ReactNode; pendingLabel: string; tone: ButtonTone; wide?: boolean; disabled?: boolean }) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className={`${buttonStyles[tone]} ${wide ? "w-full" : ""}`} disabled={pending || disabled} aria-disabled={pending || disabled}>
      {pending && <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-current border-r-transparent" />}
      {pending ? pendingLabel : children}
    </button>
  );
}

export function ActionForm({
  action,
  hidden = {},
  children,
  submit,
  pendingLabel = "Working…",
  tone = "primary",
  wide = false,
  layout = "stack",
  className = "",
  disabled = false,
}: {
  action: Action;
  hidden?: Record<string, string>;
  children?: React.ReactNode;
  submit: React.ReactNode;
  pendingLabel?: string;
  tone?: ButtonTone;
  wide?: boolean;
  /** stack: fields above the button; inline: the button alone (a row's action). */
  layout?: "stack" | "inline";
  className?: string;
  /** The button off (the form stays, so an answer it showed, a secret say, stays on the page). */
  disabled?: boolean;
}) {
  const announce = useDashboardNotice();
  // The answer that came back, until this form has shown it. A form whose row the change removed is
  // gone in the same render that brings the answer: its unmount hands the answer to the page instead.
  const unshown = useRef<string | null>(null);
  const [state, formAction] = useActionState(async (prev: ActionState, form: FormData) => {
    const next = await action(prev, form);
    unshown.current = next?.ok && !next.secret ? next.ok : null;
    return next;
  }, null);
  useEffect(() => {
    unshown.current = null;
  }, [state]);
  useEffect(
    () => () => {
      if (unshown.current) announce?.(unshown.current);
    },
    [announce],
  );
  const id = useId();
  return (
    <form action={formAction} className={`${layout === "stack" ? "space-y-4" : "inline-block"} ${className}`} aria-describedby={state?.error ? `${id}-error` : undefined}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      <Submit pendingLabel={pendingLabel} tone={tone} wide={wide} disabled={disabled}>
        {submit}
      </Submit>
      <FormResult state={state} id={id} />
    </form>
  );
}

export function FormResult({ state, id }: { state: ActionState; id: string }) {
  if (!state) return null;
  return (
    <>
      {state.error && (
        <p id={`${id}-error`} role="alert" className="mt-2 text-sm font-medium text-red-700" data-testid="form-error">
          {state.error}
        </p>
      )}
      {state.ok && !state.secret && (
        <p role="status" className="mt-2 text-sm font-medium text-emerald-800">
          {state.ok}
        </p>
      )}
      {state.secret && <SecretOnce label={state.secret.label} value={state.secret.value} note={state.secret.note} />}
    </>
  );
}

/** A secret shown this once, with a copy button. */
export function SecretOnce({ label, value, note }: { label: string; value: string; note?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="mt-3 rounded-xl bg-amber-50 p-4 text-left ring-1 ring-amber-200" data-testid="secret-once">
      <p className="text-sm font-semibold text-amber-950">{label}</p>
      <p className="mt-1 text-sm text-amber-900">Shown once. Copy it now and store it safely: it cannot be shown again.</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 rounded-lg bg-white px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-amber-200" data-testid="secret-value">
          {value}
        </code>
        <button
          type="button"
          className={buttonStyles.secondary}
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      {note && <p className="mt-2 text-sm text-amber-900">{note}</p>}
    </div>
  );
}
