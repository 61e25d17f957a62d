// The layout both development outboxes share (/dev/outbox for text messages, /dev/email-outbox for
// e-mail): what the driver kept instead of sending, newest first.
import { LogoMark } from "@/components/site-header";

/** How many messages an outbox page shows. */
export const OUTBOX_SHOWN = 50;

export interface OutboxMessage {
  id: string;
  createdAt: Date;
  /** Who it was for, as the page may show it. */
  to: React.ReactNode;
  subject?: string;
  body: string;
}

/** On a screen that sends a code: where this development service keeps it instead of sending it. */
export function OutboxHint({ href, kind }: { href: string; kind: "text message" | "e-mail" }) {
  return (
    <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
      Development mode: this service keeps each {kind} instead of sending it.{" "}
      <a href={href} target="_blank" rel="noopener" className="font-semibold underline underline-offset-2">
        Read the code in the outbox<span className="sr-only"> (opens in a new tab)</span>
      </a>
      .
    </p>
  );
}

export function Code({ children }: { children: React.ReactNode }) {
  return <code className="rounded bg-slate-200 px-1 py-0.5 text-sm">{children}</code>;
}

export function Outbox({ title, intro, messages, testId, bodyTestId }: { title: string; intro: React.ReactNode; messages: OutboxMessage[]; testId: string; bodyTestId?: string }) {
  return (
    <div className="min-h-dvh bg-slate-50">
      <main id="main" className="mx-auto max-w-2xl px-4 py-8">
        <div className="flex items-center gap-3">
          <LogoMark />
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        </div>
        <p className="mt-3 text-slate-600">{intro}</p>
        {messages.length === 0 ? (
          <p className="mt-8 rounded-xl bg-white p-6 text-center text-slate-600 ring-1 ring-slate-200">No messages yet.</p>
        ) : (
          <ol className="mt-6 space-y-3" aria-label="Messages, newest first">
            {messages.map((m) => (
              <li key={m.id} className="rounded-xl bg-white p-4 ring-1 ring-slate-200" data-testid={testId}>
                <p className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-500">
                  <span>{m.to}</span>
                  <time dateTime={m.createdAt.toISOString()}>{m.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC</time>
                </p>
                {m.subject && <p className="mt-2 font-semibold text-slate-900">{m.subject}</p>}
                <p className={`whitespace-pre-line ${m.subject ? "mt-1 text-slate-700" : "mt-2 text-slate-900"}`} data-testid={bodyTestId}>
                  {m.body}
                </p>
              </li>
            ))}
          </ol>
        )}
      </main>
    </div>
  );
}
