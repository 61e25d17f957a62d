// The Twilio text-message driver against a local server speaking Twilio's Messages API, and a
// sign-in code sent through it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTwilioServer } from "../helpers/twilio-server";

const SID = `AC${"1".repeat(32)}`;
const TOKEN = "twilio-test-auth-token";
let twilio: Awaited<ReturnType<typeof startTwilioServer>>;

beforeAll(async () => {
  twilio = await startTwilioServer({ accountSid: SID, authToken: TOKEN });
  Object.assign(process.env, { SMS_DRIVER: "twilio", TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: "+15005550006", TWILIO_API_BASE: twilio.url });
  (await import("@/lib/env")).resetEnvForTests();
});
afterAll(() => twilio.close());

describe("the Twilio driver", () => {
  it("sends a message through the Messages API", async () => {
    const { smsDriver } = await import("@/lib/sms");
    const driver = smsDriver();
    expect(driver.name).toBe("twilio");
    await driver.send({ to: "+14155550123", body: "hello" });
    expect(twilio.received.at(-1)).toEqual({ To: "+14155550123", From: "+15005550006", Body: "hello" });
  });

  it("uses MessagingServiceSid for a Messaging Service sender", async () => {
    const { twilioDriver } = await import("@/lib/sms");
    await twilioDriver({ accountSid: SID, authToken: TOKEN, from: "MG0123", apiBase: twilio.url }).send({ to: "+14155550123", body: "x" });
    expect(twilio.received.at(-1)).toEqual({ To: "+14155550123", MessagingServiceSid: "MG0123", Body: "x" });
  });

  it("reports Twilio's refusal with its code", async () => {
    const { twilioDriver } = await import("@/lib/sms");
    await expect(twilioDriver({ accountSid: SID, authToken: "wrong", from: "+15005550006", apiBase: twilio.url }).send({ to: "+14155550123", body: "x" })).rejects.toThrow(
      "Twilio refused the message (HTTP 401, code 20003): Authenticate",
    );
  });

  it("carries a sign-in code, and withdraws the code when Twilio refuses it", async () => {
    const { sendSignInCode, verifySignInCode, CodeError } = await import("@/lib/person-auth/phone-codes");
    const { phoneDigest } = await import("@/lib/users/phone");
    const { db } = await import("@/lib/platform/db");
    await sendSignInCode({ phone: "+14155550199", plane: "live", phoneScope: "", ip: "10.1.1.1" });
    const message = twilio.received.at(-1)!;
    expect(message.To).toBe("+14155550199");
    const code = message.Body.match(/^(\d{6}) is your Profile Service sign-in code/)![1]!;
    expect(message.Body).toContain(`@localhost #${code}`);
    await expect(verifySignInCode({ phoneHash: phoneDigest("+14155550199").phoneHash, plane: "live", phoneScope: "", code })).resolves.toBeUndefined();

    twilio.failNextWith(400, 21211, "The 'To' number is not a valid phone number.");
    const before = await (await db()).phoneCode.count();
    await expect(sendSignInCode({ phone: "+14155550188", plane: "live", phoneScope: "", ip: "10.1.1.1" })).rejects.toEqual(new CodeError("send_failed"));
    expect(await (await db()).phoneCode.count()).toBe(before);
    // Nothing kept the number: Twilio's driver stores nothing, and the outbox is empty.
    expect(await (await db()).smsOutbox.count()).toBe(0);
  });
});
