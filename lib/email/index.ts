// E-mail behind one small interface: the outbox driver keeps each message in the database (for
// /dev/email-outbox and tests); the SMTP driver sends it through nodemailer to SMTP_URL.
import { db } from "../platform/db";
import { env } from "../env";
import { countingSends } from "../platform/metrics";
import { processWideSlot } from "../process-wide";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface EmailDriver {
  readonly name: "outbox" | "smtp";
  send(message: EmailMessage): Promise<void>;
}

export class EmailSendError extends Error {}

export const emailOutboxDriver: EmailDriver = {
  name: "outbox",
  async send({ to, subject, text }) {
    await (await db()).emailOutbox.create({ data: { to, subject, body: text } });
  },
};

// The process's SMTP transport, for the last SMTP_URL asked for. The transport is what is shared,
// not a driver: a driver throws its own copy's EmailSendError, which another copy of this module
// (the API fast path, Next.js's chunks) would not recognise.
const transport = processWideSlot<{ url: string; transport: Promise<import("nodemailer").Transporter> }>("email.smtp-transport");

function smtpTransport(url: string): Promise<import("nodemailer").Transporter> {
  if (transport.current?.url !== url) transport.current = { url, transport: import("nodemailer").then((m) => m.createTransport(url)) };
  return transport.current.transport;
}

/** Where the development outbox shows what it kept (/dev/email-outbox), with that driver configured; else null. */
export function emailOutboxPath(): string | null {
  return env().EMAIL_DRIVER === "outbox" ? "/dev/email-outbox" : null;
}

/** The development outbox's newest e-mails (the /dev/email-outbox page). */
export async function emailOutboxMessages(take: number) {
  return (await db()).emailOutbox.findMany({ orderBy: { createdAt: "desc" }, take });
}

/** SMTP through nodemailer (loaded on first use). */
export function smtpDriver(config: { url: string; from: string }): EmailDriver {
  return {
    name: "smtp",
    async send({ to, subject, text }) {
      try {
        await (await smtpTransport(config.url)).sendMail({ from: config.from, to, subject, text });
      } catch (err) {
        throw new EmailSendError(`The mail server refused the message: ${(err as Error).message}`);
      }
    },
  };
}

/** The configured driver, each send counted by outcome (/metrics). */
export function emailDriver(): EmailDriver {
  const e = env();
  const driver = e.EMAIL_DRIVER !== "smtp" ? emailOutboxDriver : smtpDriver({ url: e.SMTP_URL!, from: e.EMAIL_FROM });
  return countingSends("email", driver);
}
