// /dev/email-outbox — the e-mails the development driver kept instead of sending, newest first, so a
// person trying the service locally can read their code. Served only with EMAIL_DRIVER=outbox.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { LogoMark } from "@/components/site-header";
import { db } from "@/lib/db";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "E-mail outbox", robots: { index: false } };

export default async function EmailOutboxPage() {
  if (env().EMAIL_DRIVER !== "outbox") notFound();
  const messages = await (await db()).emailOutbox.findMany({ orderBy: { createdAt: "desc" }, take: 50 });
  return (
    <div className="min-h-dvh bg-slate-50">
      <main id="main" className="mx-auto max-w-2xl px-4 py-8">
        <div className="flex items-center gap-3">
          <LogoMark />
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">E-mail outbox</h1>
        </div>
        <p className="mt-3 text-slate-600">
          This service runs with the development e-mail driver: messages are kept here instead of being sent. Set{" "}
          <code className="rounded bg-slate-200 px-1 py-0.5 text-sm">EMAIL_DRIVER=smtp</code> and <code className="rounded bg-slate-200 px-1 py-0.5 text-sm">SMTP_URL</code> to send them.
        </p>
        {messages.length === 0 ? (
          <p className="mt-8 rounded-xl bg-white p-6 text-center text-slate-600 ring-1 ring-slate-200">No messages yet.</p>
        ) : (
          <ol className="mt-6 space-y-3" aria-label="Messages, newest first">
            {messages.map((m) => (
              <li key={m.id} className="rounded-xl bg-white p-4 ring-1 ring-slate-200" data-testid="email-message">
                <p className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-500">
                  <span>
                    To <span className="font-semibold text-slate-900">{m.to}</span>
                  </span>
                  <time dateTime={m.createdAt.toISOString()}>{m.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC</time>
                </p>
                <p className="mt-2 font-semibold text-slate-900">{m.subject}</p>
                <p className="mt-1 whitespace-pre-line text-slate-700">{m.body}</p>
              </li>
            ))}
          </ol>
        )}
      </main>
    </div>
  );
}
