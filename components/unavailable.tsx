"use client";
// What a person sees when a page of the service could not be drawn (the database away, or a fault of
// the service's own): it is brief, nothing they entered is lost, and Try again draws the page again.
// The reference is the digest the service's log carries for the failure (instrumentation.ts).
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { primaryButton } from "@/components/flow/styles";

export function Unavailable({ digest, reset }: { digest?: string; reset: () => void }) {
  const router = useRouter();
  const [retrying, startRetry] = useTransition();
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center bg-brand-50 px-4 py-10">
      <main id="main" className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8" aria-labelledby="unavailable-title">
        <span aria-hidden="true" className="flex size-12 items-center justify-center rounded-full bg-blue-50 text-blue-700">
          <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <circle cx="12" cy="12" r="9" />
            <path d="M12 7v5l3 2" />
          </svg>
        </span>
        <h1 id="unavailable-title" className="mt-5 text-2xl font-semibold tracking-tight text-slate-900">
          We&rsquo;ll be right back
        </h1>
        <p className="mt-3 text-base leading-relaxed text-slate-700">The service is briefly unavailable. Nothing you entered is lost: try again in a few seconds.</p>
        <button
          type="button"
          className={`${primaryButton} mt-6`}
          disabled={retrying}
          onClick={() =>
            startRetry(() => {
              router.refresh();
              reset();
            })
          }
        >
          {retrying ? "Trying again…" : "Try again"}
        </button>
        {digest && <p className="mt-5 text-center text-xs text-slate-500">Reference {digest}</p>}
      </main>
    </div>
  );
}

/** The page in the screen gallery (/dev/screens/page-unavailable), with a reference as the log gives one. */
export function UnavailablePreview() {
  return <Unavailable digest="2871563204" reset={() => undefined} />;
}
