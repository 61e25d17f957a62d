// service_email_send's reply_to becomes a path segment of the mailbox's URL (/me/messages/<id>/reply,
// /users/me/messages/<id>): "." and "..", and anything outside the mailbox's message-id alphabet, are
// refused with 400 invalid_request naming reply_to, before any mailbox is asked.
import { beforeAll, describe, expect, it } from "vitest";
import { POST as emailSend } from "@/app/v1/tools/service_email_send/route";
import { isMessageId, REPLY_TO_MESSAGE, validateOutgoingMail } from "@/lib/connectors/apis/mail";
import { ApiError } from "@/lib/http/errors";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});

const mail = (replyTo: string) => ({ to: ["bob@example.com"], cc: [], subject: "Re: lunch", body: "Yes.", replyTo });

describe("reply_to", () => {
  it("is a message id of the sending mailbox: never . or .., never outside its alphabet", () => {
    for (const bad of [".", "..", "../..", "a/b", "a.b", "%2e%2e", "a b", "a\u0000", "", "x".repeat(513)]) {
      expect(isMessageId(bad), bad).toBe(false);
      expect(() => validateOutgoingMail(mail(bad)), bad).toThrow(ApiError);
    }
    // Gmail's ids are hexadecimal, Graph's URL-safe base64 with padding, the development mailbox's dev-msg-01.
    expect(isMessageId("18c2f1a3b4d5e6f7", "gmail")).toBe(true);
    expect(isMessageId("dev-msg-01", "gmail")).toBe(true);
    expect(isMessageId("AAMkAGI2TG93AAA=", "outlook")).toBe(true);
    expect(isMessageId("AAMkAGI2TG93AAA=", "gmail")).toBe(false);
    expect(isMessageId("AAMkAGI2TG93AAA=")).toBe(true);
    try {
      validateOutgoingMail(mail(".."));
      expect.unreachable();
    } catch (err) {
      expect((err as ApiError).extras.fields).toEqual([{ field: "reply_to", message: REPLY_TO_MESSAGE }]);
    }
  });

  it('POST /v1/tools/service_email_send with reply_to ".." or outside the alphabet: 400 invalid_request naming reply_to', async () => {
    const headers = { "x-api-key": t.keys.sk, "x-agent": t.agent.handle };
    for (const [replyTo, mailbox] of [
      ["..", undefined],
      [".", "outlook"],
      ["a.b", undefined],
      ["AAMk=", "gmail"],
    ] as const) {
      const res = await call(emailSend, {
        headers,
        body: { to: ["bob@example.com"], subject: "Re: lunch", body: "Yes.", reply_to: replyTo, ...(mailbox ? { mailbox } : {}), idempotency_key: "key-reply-to-0001" },
      });
      expect(res.status, replyTo).toBe(400);
      expect(res.body.error, replyTo).toMatchObject({ code: "invalid_request", fields: [{ field: "reply_to", message: REPLY_TO_MESSAGE }] });
    }
  });
});
