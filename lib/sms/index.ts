// Text messages behind one small interface. The outbox driver keeps each message in the database
// (number as a keyed hash and last four digits), for /dev/outbox and tests; the Twilio driver
// sends it through Twilio's REST API (Messages resource).
import { db } from "../platform/db";
import { env } from "../env";
import { countingSends } from "../platform/metrics";
import { phoneDigest } from "../users/phone";

export interface SmsMessage {
  /** E.164. Held in memory only while sending; never stored. */
  to: string;
  body: string;
}

export interface SmsDriver {
  readonly name: "outbox" | "twilio";
  send(message: SmsMessage): Promise<void>;
}

export class SmsSendError extends Error {}

export const outboxDriver: SmsDriver = {
  name: "outbox",
  async send({ to, body }) {
    await (await db()).smsOutbox.create({ data: { ...phoneDigest(to), body } });
  },
};

/** Where the development outbox shows what it kept (/dev/outbox), with that driver configured; else null. */
export function smsOutboxPath(): string | null {
  return env().SMS_DRIVER === "outbox" ? "/dev/outbox" : null;
}

/** The development outbox's newest messages (the /dev/outbox page). */
export async function outboxMessages(take: number) {
  return (await db()).smsOutbox.findMany({ orderBy: { createdAt: "desc" }, take });
}

/** Twilio's Messages API: POST /2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded, HTTP Basic. */
export function twilioDriver(config: { accountSid: string; authToken: string; from: string; apiBase: string }): SmsDriver {
  return {
    name: "twilio",
    async send({ to, body }) {
      const form = new URLSearchParams({ To: to, Body: body });
      form.set(config.from.startsWith("MG") ? "MessagingServiceSid" : "From", config.from);
      const res = await fetch(`${config.apiBase}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`, {
        method: "POST",
        headers: {
          Authorization: `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString("base64")}`,
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "application/json",
        },
        body: form,
        signal: AbortSignal.timeout(10_000),
      });
      if (res.status !== 201 && res.status !== 200) {
        const detail = (await res.json().catch(() => ({}))) as { code?: number; message?: string };
        throw new SmsSendError(`Twilio refused the message (HTTP ${res.status}${detail.code ? `, code ${detail.code}` : ""}): ${detail.message ?? "no detail"}`);
      }
    },
  };
}

/** The configured driver, each send counted by outcome (/metrics). */
export function smsDriver(): SmsDriver {
  const e = env();
  const driver =
    e.SMS_DRIVER === "twilio"
      ? twilioDriver({ accountSid: e.TWILIO_ACCOUNT_SID!, authToken: e.TWILIO_AUTH_TOKEN!, from: e.TWILIO_FROM!, apiBase: e.TWILIO_API_BASE })
      : outboxDriver;
  return countingSends("sms", driver);
}
