// /dev/outbox — the text messages the development driver kept instead of sending, newest first, so
// a person trying the service locally can read their sign-in code. Served only with SMS_DRIVER=outbox.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Code, Outbox, OUTBOX_SHOWN } from "@/components/dev/outbox";
import { outboxMessages, smsOutboxPath } from "@/lib/sms";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Text message outbox", robots: { index: false } };

export default async function OutboxPage() {
  if (!smsOutboxPath()) notFound();
  const messages = await outboxMessages(OUTBOX_SHOWN);
  return (
    <Outbox
      title="Text message outbox"
      intro={
        <>
          This service runs with the development text-message driver: messages are kept here instead of being sent. Set <Code>SMS_DRIVER=twilio</Code> to send them. Numbers show
          only their last four digits.
        </>
      }
      testId="outbox-message"
      bodyTestId="outbox-body"
      messages={messages.map((m) => ({
        id: m.id,
        createdAt: m.createdAt,
        body: m.body,
        to: (
          <>
            To number ending in{" "}
            <span className="font-semibold text-slate-900" data-testid="outbox-last4">
              {m.phoneLast4}
            </span>
          </>
        ),
      }))}
    />
  );
}
