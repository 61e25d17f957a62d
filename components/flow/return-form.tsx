"use client";
// The receipt's way back to the app: a form posting to the app's return address, sent for the person
// after a countdown they can stop. Without JavaScript it is the button alone.
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "./countdown";
import { primaryButton } from "./styles";

/** The receipt's way back: a button, pressed for the person after a few seconds. */
export function ReturnForm({ action, appName, seconds }: { action: string; appName: string; seconds: number }) {
  const [left, setLeft] = useState(seconds);
  const form = useRef<HTMLFormElement>(null);
  // The automatic return needs JavaScript: until it runs, only the button is offered.
  const hydrated = useHydrated();
  const [stayed, setStayed] = useState(false);
  const stopped = !hydrated || stayed;
  // Sent once: a slow answer must not let the countdown (or a second click) send the form again, which
  // would replace the way back to the app with "this sign-in has finished".
  const sent = useRef(false);
  // Another part of the receipt the person is answering (the passkey offer) keeps them here.
  useEffect(() => {
    const stay = () => setStayed(true);
    window.addEventListener("flow:stay", stay);
    return () => window.removeEventListener("flow:stay", stay);
  }, []);
  useEffect(() => {
    if (stopped) return;
    if (left <= 0) {
      form.current?.requestSubmit();
      return;
    }
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, stopped]);
  return (
    <form
      ref={form}
      method="post"
      action={action}
      className="mt-6"
      onSubmit={(e) => {
        if (sent.current) return e.preventDefault();
        sent.current = true;
        setStayed(true);
      }}
    >
      <button type="submit" className={primaryButton}>
        Return to {appName}
      </button>
      {!stopped && left > 0 && (
        <p className="mt-3 text-center text-sm text-slate-600" aria-live="polite">
          Returning automatically in {left} s.{" "}
          <button type="button" className="font-semibold text-brand-700 underline underline-offset-2" onClick={() => setStayed(true)}>
            Stay here
          </button>
        </p>
      )}
    </form>
  );
}
