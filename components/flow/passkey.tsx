"use client";
// Passkeys on the hosted pages: "Use a passkey" on the phone screen (and the number field's autofill),
// and "Sign in faster next time with a passkey" after signing in. The browser asks the service for
// options (a challenge bound to the flow, or to the signed-in person), lets the authenticator answer,
// and posts the answer to a server action, which checks it. Without WebAuthn nothing here is shown.
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  platformAuthenticatorIsAvailable,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
} from "@simplewebauthn/browser";
import { useActionState, useEffect, useState, useTransition } from "react";
import type { ActionState } from "@/lib/actions/state";
import { useHydrated } from "./countdown";
import { primaryButton, secondaryButton } from "./styles";

type Action = (state: ActionState, form: FormData) => Promise<ActionState>;

/** The options the service hands this browser, or the reason it will not. */
async function optionsFrom(url: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: "POST", credentials: "same-origin", headers: { Accept: "application/json" } });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new Error(typeof body.error === "string" ? body.error : "Passkeys are not available right now. Try again.");
  return body;
}

/** The authenticator's answer as the action's form. */
function answerForm(response: unknown): FormData {
  const form = new FormData();
  form.set("response", JSON.stringify(response));
  return form;
}

/** Whether the person closed the browser's dialog (nothing to say) rather than something going wrong. */
function cancelled(err: unknown): boolean {
  return err instanceof Error && (err.name === "NotAllowedError" || err.name === "AbortError");
}

/**
 * One ceremony: the options from `url`, the authenticator's answer (`start`) handed to `send`; what went
 * wrong to `problem`, with `cancelledText` when the person closed the browser's dialog.
 */
async function ceremony(
  url: string,
  start: (optionsJSON: never) => Promise<unknown>,
  send: (response: unknown) => void,
  problem: (text: string) => void,
  cancelledText: string,
): Promise<void> {
  try {
    send(await start((await optionsFrom(url)) as never));
  } catch (err) {
    problem(cancelled(err) ? cancelledText : err instanceof Error ? err.message : String(err));
  }
}

function PasskeyMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <circle cx="8" cy="8" r="4" />
      <path d="M2 21v-2a5 5 0 015-5h3" />
      <circle cx="17" cy="13" r="2.5" />
      <path d="M17 15.5V21l1.5-1.5M17 18.5l1.5 1" />
    </svg>
  );
}

function Problem({ id, text }: { id: string; text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p id={id} role="alert" className="mt-2 text-sm font-medium text-red-700">
      {text}
    </p>
  );
}

/** The phone screen's passkey sign-in: the button, and the number field's autofill when `autofill`. */
export function PasskeySignIn({ optionsUrl, autofill, action }: { optionsUrl: string; autofill: boolean; action: Action }) {
  const hydrated = useHydrated();
  const [state, formAction] = useActionState(action, null);
  const [pending, startTransition] = useTransition();
  const [problem, setProblem] = useState<string | null>(null);
  const supported = hydrated && browserSupportsWebAuthn();

  const send = (response: unknown) => startTransition(() => formAction(answerForm(response)));

  useEffect(() => {
    if (!autofill || !supported) return;
    let stopped = false;
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill())) return;
      try {
        const optionsJSON = await optionsFrom(optionsUrl);
        if (stopped) return;
        send(await startAuthentication({ optionsJSON: optionsJSON as never, useBrowserAutofill: true }));
      } catch {
        // The person typed their number, or chose the button (which ends this request).
      }
    })();
    return () => {
      stopped = true;
      WebAuthnAbortService.cancelCeremony();
    };
  }, [autofill, supported, optionsUrl]);

  if (!supported) return null;
  const error = problem ?? (state?.field === "passkey" || state?.field === "form" ? state.error : null);
  return (
    <div className="mt-6 border-t border-slate-200 pt-6">
      <button
        type="button"
        className={secondaryButton}
        disabled={pending}
        aria-describedby={error ? "passkey-error" : undefined}
        onClick={() => {
          setProblem(null);
          void ceremony(optionsUrl, (optionsJSON) => startAuthentication({ optionsJSON }), send, setProblem, "No passkey was chosen. Try again, or use your number.");
        }}
      >
        <PasskeyMark />
        {pending ? "Signing you in…" : "Use a passkey"}
      </button>
      <Problem id="passkey-error" text={error} />
    </div>
  );
}

/**
 * "Sign in faster next time with a passkey": one tap to make one, or "Not now" (not offered again in
 * this browser). Offered only where the device has a platform authenticator that verifies the person
 * (isUserVerifyingPlatformAuthenticatorAvailable): elsewhere making one would ask for a security key.
 */
export function PasskeyOffer({ optionsUrl, add, dismiss }: { optionsUrl: string | null; add: Action; dismiss: () => Promise<void> }) {
  const hydrated = useHydrated();
  const [state, formAction] = useActionState(add, null);
  const [pending, startTransition] = useTransition();
  const [problem, setProblem] = useState<string | null>(null);
  const [hidden, setHidden] = useState(false);
  const [platform, setPlatform] = useState(false);
  useEffect(() => {
    let live = true;
    platformAuthenticatorIsAvailable().then(
      (available) => live && setPlatform(available),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  if (!hydrated || !browserSupportsWebAuthn() || hidden) return null;
  // The receipt returns to the app by itself after a few seconds: a person answering the offer stays.
  const stay = () => window.dispatchEvent(new Event("flow:stay"));
  if (state?.ok) {
    return (
      <p role="status" className="mt-6 rounded-xl bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-900 ring-1 ring-emerald-200">
        {state.ok}
      </p>
    );
  }
  if (!optionsUrl || !platform) return null;
  const error = problem ?? state?.error;
  return (
    <section aria-labelledby="passkey-offer-title" className="mt-6 rounded-xl bg-slate-50 px-4 py-4 ring-1 ring-slate-200">
      <h2 id="passkey-offer-title" className="flex items-center gap-2 font-semibold text-slate-900">
        <PasskeyMark />
        Sign in faster next time with a passkey
      </h2>
      <p className="mt-1 text-sm text-slate-600">Your phone or computer unlocks it with your face, fingerprint or screen lock. No text message to wait for.</p>
      <div className="mt-3 grid gap-2 sm:grid-cols-2">
        <button
          type="button"
          className={primaryButton}
          disabled={pending}
          aria-describedby={error ? "passkey-offer-error" : undefined}
          onClick={() => {
            stay();
            setProblem(null);
            void ceremony(
              optionsUrl,
              (optionsJSON) => startRegistration({ optionsJSON }),
              (response) => startTransition(() => formAction(answerForm(response))),
              setProblem,
              "No passkey was made. You can make one later on your account page.",
            );
          }}
        >
          {pending ? "Saving…" : "Create a passkey"}
        </button>
        <button
          type="button"
          className={secondaryButton}
          onClick={() => {
            stay();
            setHidden(true);
            void dismiss();
          }}
        >
          Not now
        </button>
      </div>
      <Problem id="passkey-offer-error" text={error} />
    </section>
  );
}

/** The account page's "Add a passkey": the same making as the offer's, then the page shows the new one. */
export function PasskeyAdd({ optionsUrl, add }: { optionsUrl: string; add: Action }) {
  const hydrated = useHydrated();
  const [state, formAction] = useActionState(add, null);
  const [pending, startTransition] = useTransition();
  const [problem, setProblem] = useState<string | null>(null);
  if (!hydrated || !browserSupportsWebAuthn()) return <p className="mt-3 text-sm text-slate-600">This browser cannot make passkeys.</p>;
  const error = problem ?? state?.error;
  return (
    <div className="mt-3">
      <button
        type="button"
        className="inline-flex min-h-10 items-center gap-2 rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-300 hover:bg-brand-50"
        disabled={pending}
        aria-describedby={error ? "passkey-add-error" : undefined}
        onClick={() => {
          setProblem(null);
          void ceremony(
            optionsUrl,
            (optionsJSON) => startRegistration({ optionsJSON }),
            (response) => startTransition(() => formAction(answerForm(response))),
            setProblem,
            "No passkey was made.",
          );
        }}
      >
        <PasskeyMark />
        {pending ? "Saving…" : "Add a passkey"}
      </button>
      {state?.ok && (
        <p role="status" className="mt-2 text-sm font-medium text-emerald-800">
          {state.ok}
        </p>
      )}
      <Problem id="passkey-add-error" text={error} />
    </div>
  );
}
