// /dev/outbox — the text messages the development driver kept instead of sending, newest first, so
// a person trying the service locally can read their sign-in code. Served only with SMS_DRIVER=outbox.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { LogoMark } from "@/components/site-header";
import { db } from "@/lib/db";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Text message outbox", robots: { index: false } };

const SHOWN = 50;

export default async function OutboxPage() {
  if (env().SMS_DRIVER !== "outbox") notFound();
  const messages = await (await db()).smsOutbox.findMany({ orderBy: { createdAt: "desc" }, take: SHOWN });
  return (
    <div className="min-h-dvh bg-slate-50">
      <main id="main" className="mx-auto max-w-2xl px-4 py-8">
        <div className="flex items-center gap-3">
          <LogoMark />
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Text message outbox</h1>
        </div>
        <p className="mt-3 text-slate-600">
          This service runs with the development text-message driver: messages are kept here instead of being sent. Set{" "}
          <code className="rounded bg-slate-200 px-1 py-0.5 text-sm">SMS_DRIVER=twilio</code> to send them. Numbers show only their last four digits.
        </p>
        {messages.length === 0 ? (
          <p className="mt-8 rounded-xl bg-white p-6 text-center text-slate-600 ring-1 ring-slate-200">No messages yet.</p>
        ) : (
          <ol className="mt-6 space-y-3" aria-label="Messages, newest first">
            {messages.map((m) => (
              <li key={m.id} className="rounded-xl bg-white p-4 ring-1 ring-slate-200" data-testid="outbox-message">
                <p className="flex items-center justify-between text-sm text-slate-500">
                  <span>
                    To number ending in <span className="font-semibold text-slate-900" data-testid="outbox-last4">{m.phoneLast4}</span>
                  </span>
                  <time dateTime={m.createdAt.toISOString()}>{m.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC</time>
                </p>
                <p className="mt-2 whitespace-pre-line text-slate-900" data-testid="outbox-body">
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
