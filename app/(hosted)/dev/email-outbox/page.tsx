// /dev/email-outbox — the e-mails the development driver kept instead of sending, newest first, so a
// person trying the service locally can read their code. Served only with EMAIL_DRIVER=outbox.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Code, Outbox, OUTBOX_SHOWN } from "@/components/dev/outbox";
import { emailOutboxMessages, emailOutboxPath } from "@/lib/email";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "E-mail outbox", robots: { index: false } };

export default async function EmailOutboxPage() {
  if (!emailOutboxPath()) notFound();
  const messages = await emailOutboxMessages(OUTBOX_SHOWN);
  return (
    <Outbox
      title="E-mail outbox"
      intro={
        <>
          This service runs with the development e-mail driver: messages are kept here instead of being sent. Set <Code>EMAIL_DRIVER=smtp</Code> and <Code>SMTP_URL</Code> to send
          them.
        </>
      }
      testId="email-message"
      messages={messages.map((m) => ({
        id: m.id,
        createdAt: m.createdAt,
        subject: m.subject,
        body: m.body,
        to: (
          <>
            To <span className="font-semibold text-slate-900">{m.to}</span>
          </>
        ),
      }))}
    />
  );
}
