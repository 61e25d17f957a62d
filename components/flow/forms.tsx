"use client";
// The hosted flow's forms. Each posts to a server action, so it works without JavaScript; with it,
// buttons show progress, errors appear next to their field without a reload, and the code screen
// counts down to "Send a new code".
import { useActionState, useRef } from "react";
import { useFormStatus } from "react-dom";
import type { ActionState } from "@/lib/actions/state";
import { useCountdown } from "./countdown";
import { primaryButton, secondaryButton } from "./styles";
import { OneTimeCodeInput } from "../one-time-code-input";

type Action = (state: ActionState, form: FormData) => Promise<ActionState>;

function Spinner() {
  return <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-current border-r-transparent" />;
}

export function SubmitButton({
  children,
  pendingLabel,
  className = primaryButton,
  disabled,
  name,
  value,
}: {
  children: React.ReactNode;
  pendingLabel: string;
  className?: string;
  disabled?: boolean;
  name?: string;
  value?: string;
}) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className={className} disabled={disabled || pending} aria-disabled={disabled || pending} name={name} value={value}>
      {pending ? (
        <>
          <Spinner />
          <span>{pendingLabel}</span>
        </>
      ) : (
        children
      )}
    </button>
  );
}

function FieldError({ id, state, field }: { id: string; state: ActionState; field: string | string[] }) {
  const fields = Array.isArray(field) ? field : [field];
  if (!state?.field || !fields.includes(state.field)) return null;
  return (
    <p id={id} role="alert" className="mt-2 flex items-start gap-1.5 text-sm font-medium text-red-700">
      <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0" fill="currentColor">
        <path d="M10 2a8 8 0 100 16 8 8 0 000-16zm-.75 4.5h1.5v5h-1.5v-5zm0 6.5h1.5v1.5h-1.5V13z" />
      </svg>
      {state.error}
    </p>
  );
}

/** Paste an assistant's answer, or upload its export file: both lead to a preview. */
export function ImportForm({ action, provider, providerName, acceptsFile }: { action: Action; provider: string; providerName: string; acceptsFile: boolean }) {
  const [state, formAction] = useActionState(action, null);
  return (
    <form action={formAction} className="mt-4 space-y-4" encType="multipart/form-data">
      <input type="hidden" name="provider" value={provider} />
      <div>
        <label htmlFor="paste" className="block text-sm font-semibold text-slate-900">
          Paste {providerName}&rsquo;s answer
        </label>
        <textarea
          id="paste"
          name="text"
          rows={6}
          className="mt-2 block w-full rounded-xl border-0 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm ring-1 ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600"
          placeholder="[2024-03-05] - I live in Lisbon"
          aria-invalid={state?.field === "text" || undefined}
          aria-describedby={state?.field === "text" ? "paste-error" : undefined}
        />
        <FieldError id="paste-error" state={state} field={["text", "provider", "form"]} />
      </div>
      {acceptsFile && (
        <div>
          <label htmlFor="file" className="block text-sm font-semibold text-slate-900">
            Or upload <span className="font-mono text-[0.9em]">conversations.json</span> from your {providerName} export
          </label>
          <input
            id="file"
            name="file"
            type="file"
            accept="application/json,.json"
            className="mt-2 block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-700 hover:file:bg-brand-100"
            aria-invalid={state?.field === "file" || undefined}
            aria-describedby={state?.field === "file" ? "file-error" : undefined}
          />
          <FieldError id="file-error" state={state} field="file" />
        </div>
      )}
      <SubmitButton pendingLabel="Reading your memories…">Preview memories</SubmitButton>
    </form>
  );
}

/** Keep or discard a preview. */
export function DecideForm({ action, provider, count }: { action: Action; provider: string; count: number }) {
  const [state, formAction] = useActionState(action, null);
  return (
    <form action={formAction} className="mt-4 grid gap-3 sm:grid-cols-2">
      <input type="hidden" name="provider" value={provider} />
      <SubmitButton name="decision" value="keep" pendingLabel="Saving…">
        Keep {count} {count === 1 ? "memory" : "memories"}
      </SubmitButton>
      <SubmitButton name="decision" value="discard" pendingLabel="Discarding…" className={secondaryButton}>
        Discard
      </SubmitButton>
      <FieldError id="decide-error" state={state} field="form" />
    </form>
  );
}

/** Continue, off until the import screen's conditions hold. */
export function ContinueForm({
  action,
  enabled,
  hint,
  label = "Continue",
}: {
  action: (state: ActionState) => Promise<ActionState>;
  enabled: boolean;
  hint: string;
  label?: string;
}) {
  const [state, formAction] = useActionState(action, null);
  return (
    <form action={formAction}>
      <p id="continue-hint" className="mb-3 text-sm text-slate-600">
        {hint}
      </p>
      <SubmitButton disabled={!enabled} pendingLabel="Continuing…">
        {label}
      </SubmitButton>
      <FieldError id="continue-error" state={state} field="form" />
    </form>
  );
}

/** The phone number: a country for national numbers, or an international number starting with +. */
export function PhoneForm({
  action,
  countries,
  defaultCountry,
  passkeyAutofill = false,
}: {
  action: Action;
  countries: Array<{ code: string; name: string; dial: string }>;
  defaultCountry: string;
  /** The browser offers passkeys in the number field's autofill (conditional UI). */
  passkeyAutofill?: boolean;
}) {
  const [state, formAction] = useActionState(action, null);
  return (
    <form action={formAction} className="mt-6 space-y-4" noValidate>
      <div>
        <label htmlFor="country" className="block text-sm font-semibold text-slate-900">
          Country
        </label>
        <select
          id="country"
          name="country"
          defaultValue={defaultCountry}
          autoComplete="tel-country-code"
          className="mt-2 block min-h-12 w-full rounded-xl border-0 bg-white px-3 text-base text-slate-900 shadow-sm ring-1 ring-slate-300 focus:ring-2 focus:ring-brand-600"
        >
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name} (+{c.dial})
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="phone" className="block text-sm font-semibold text-slate-900">
          Mobile number
        </label>
        <input
          id="phone"
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete={passkeyAutofill ? "tel webauthn" : "tel"}
          required
          autoFocus
          placeholder="415 555 0123"
          className="mt-2 block min-h-12 w-full rounded-xl border-0 bg-white px-3 text-lg tracking-wide text-slate-900 shadow-sm ring-1 ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600"
          aria-invalid={state?.field === "phone" || undefined}
          aria-describedby={state?.field === "phone" ? "phone-error phone-help" : "phone-help"}
        />
        <p id="phone-help" className="mt-2 text-sm text-slate-600">
          We&rsquo;ll text you a six-digit code. A number starting with + uses its own country code.
        </p>
        <FieldError id="phone-error" state={state} field={["phone", "form"]} />
      </div>
      <SubmitButton pendingLabel="Sending the code…">Text me a code</SubmitButton>
    </form>
  );
}

/** The six-digit code: one field, so paste and one-time-code autofill fill it whole. */
export function CodeForm({ action, resend, resendAfterSeconds }: { action: Action; resend: (state: ActionState) => Promise<ActionState>; resendAfterSeconds: number }) {
  const [state, formAction] = useActionState(action, null);
  const [resendState, resendAction] = useActionState(resend, null);
  // Without JavaScript the button stays on (the server still enforces the wait); with it, it counts down.
  const wait = useCountdown(resendAfterSeconds);
  const input = useRef<HTMLInputElement>(null);
  const error = state ?? resendState;
  return (
    <>
      <form
        action={formAction}
        className="mt-6 space-y-4"
        onInput={(e) => {
          const el = e.target as HTMLInputElement;
          // A full code (typed, pasted or autofilled) is sent at once.
          if (el.name === "code" && /^\d{6}$/.test(el.value.replace(/\D/g, ""))) el.form?.requestSubmit();
        }}
      >
        <div>
          <label htmlFor="code" className="block text-sm font-semibold text-slate-900">
            Six-digit code
          </label>
          <OneTimeCodeInput
            ref={input}
            placeholder="123456"
            className="mt-2 block min-h-14 w-full rounded-xl border-0 bg-white px-3 text-center font-mono text-2xl tracking-[0.5em] text-slate-900 shadow-sm ring-1 ring-slate-300 placeholder:text-slate-300 focus:ring-2 focus:ring-brand-600"
            aria-invalid={error?.field === "code" || undefined}
            aria-describedby={error?.field === "code" ? "code-error" : undefined}
          />
          <FieldError id="code-error" state={error} field={["code", "phone", "form"]} />
        </div>
        <SubmitButton pendingLabel="Checking…">Confirm</SubmitButton>
      </form>
      <form action={resendAction} className="mt-3">
        <SubmitButton className={secondaryButton} disabled={wait > 0} pendingLabel="Sending…">
          {wait > 0 ? `Send a new code in ${wait} s` : "Send a new code"}
        </SubmitButton>
      </form>
    </>
  );
}

/** One field and its button: the address for an e-mailed code, or that code. */
export function SingleFieldForm({
  action,
  name,
  label,
  type,
  autoComplete,
  inputMode,
  button,
  pendingLabel,
  help,
}: {
  action: Action;
  name: string;
  label: string;
  type: "email" | "text";
  autoComplete: string;
  inputMode?: "email" | "numeric";
  button: string;
  pendingLabel: string;
  help?: string;
}) {
  const [state, formAction] = useActionState(action, null);
  const errorId = `${name}-error`;
  return (
    <form action={formAction} className="mt-3 space-y-3">
      <div>
        <label htmlFor={name} className="block text-sm font-semibold text-slate-900">
          {label}
        </label>
        <input
          id={name}
          name={name}
          type={type}
          inputMode={inputMode}
          autoComplete={autoComplete}
          required
          className="mt-2 block min-h-12 w-full rounded-xl border-0 bg-white px-3 text-base text-slate-900 shadow-sm ring-1 ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600"
          aria-invalid={state?.field === name || undefined}
          aria-describedby={state?.field === name ? errorId : undefined}
        />
        {help && <p className="mt-2 text-sm text-slate-600">{help}</p>}
        <FieldError id={errorId} state={state} field={[name, "form"]} />
      </div>
      <SubmitButton className={secondaryButton} pendingLabel={pendingLabel}>
        {button}
      </SubmitButton>
    </form>
  );
}
