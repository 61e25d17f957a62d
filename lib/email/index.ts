// E-mail behind one small interface: the outbox driver keeps each message in the database (for
// /dev/email-outbox and tests); the SMTP driver sends it through nodemailer to SMTP_URL.
import { db } from "../db";
import { env } from "../env";

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

/** SMTP through nodemailer (loaded on first use). */
export function smtpDriver(config: { url: string; from: string }): EmailDriver {
  let transport: Promise<import("nodemailer").Transporter> | undefined;
  return {
    name: "smtp",
    async send({ to, subject, text }) {
      transport ??= import("nodemailer").then((m) => m.createTransport(config.url));
      try {
        await (await transport).sendMail({ from: config.from, to, subject, text });
      } catch (err) {
        throw new EmailSendError(`The mail server refused the message: ${(err as Error).message}`);
      }
    },
  };
}

let cached: { key: string; driver: EmailDriver } | undefined;

/** The configured driver. */
export function emailDriver(): EmailDriver {
  const e = env();
  if (e.EMAIL_DRIVER !== "smtp") return emailOutboxDriver;
  const key = `${e.SMTP_URL} ${e.EMAIL_FROM}`;
  if (cached?.key !== key) cached = { key, driver: smtpDriver({ url: e.SMTP_URL!, from: e.EMAIL_FROM }) };
  return cached.driver;
}
