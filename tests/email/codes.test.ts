// E-mail verification: the SMTP driver against a local SMTP server, the code's rules, and the
// mailbox page's code path ending in an ID token whose email is verified — never for an address
// only typed.
import { createServer } from "node:net";
import { decodeJwt } from "jose";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { atMailboxPage } from "../helpers/flows";
import { authorizeCall, authorizeParams, CALLBACK, flowIdFrom, pkce, tokenCall } from "../helpers/oauth";

const received: Array<{ from: string; to: string[]; data: string }> = [];
let smtp: { close(cb: () => void): void };
let port = 0;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

beforeAll(async () => {
  port = await freePort();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream: NodeJS.ReadableStream, session: { envelope: { mailFrom: { address: string }; rcptTo: Array<{ address: string }> } }, callback: () => void) {
      let data = "";
      stream.on("data", (c: Buffer) => (data += c.toString()));
      stream.on("end", () => {
        received.push({ from: session.envelope.mailFrom.address, to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => (smtp as unknown as { listen(p: number, h: string, cb: () => void): void }).listen(port, "127.0.0.1", resolve));
  Object.assign(process.env, { EMAIL_DRIVER: "smtp", SMTP_URL: `smtp://127.0.0.1:${port}`, EMAIL_FROM: "Profile Service <codes@profile.test>" });
  (await import("@/lib/env")).resetEnvForTests();
});
afterAll(() => new Promise<void>((resolve) => smtp.close(resolve)));
afterEach(() => resetClockForTests());

const codeIn = (data: string) => data.match(/Enter (\d{6}) to confirm/)![1]!;

describe("e-mail codes", () => {
  it("are sent over SMTP, expire after 10 minutes, allow 5 wrong tries, and a new one only after 30 seconds", async () => {
    const { sendEmailCode, verifyEmailCode, EMAIL_CODE_MESSAGES } = await import("@/lib/person-auth/email-codes");
    const { createUser } = await import("@/lib/users/users");
    const user = await createUser({ plane: "live" });
    await expect(sendEmailCode({ userId: user.id, email: "not an address", ip: "10.9.0.1" })).rejects.toMatchObject({
      reason: "invalid_email",
      message: EMAIL_CODE_MESSAGES.invalid_email,
    });
    await sendEmailCode({ userId: user.id, email: " Ada@Example.com ", ip: "10.9.0.1" });
    const mail = received.at(-1)!;
    expect(mail.to).toEqual(["ada@example.com"]);
    expect(mail.from).toBe("codes@profile.test");
    await expect(sendEmailCode({ userId: user.id, email: "ada@example.com", ip: "10.9.0.1" })).rejects.toMatchObject({ reason: "resend_too_soon" });
    const code = codeIn(mail.data);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 4; i++) await expect(verifyEmailCode({ userId: user.id, code: wrong })).rejects.toMatchObject({ reason: "wrong_code" });
    await expect(verifyEmailCode({ userId: user.id, code: wrong })).rejects.toMatchObject({ reason: "too_many_attempts" });
    await expect(verifyEmailCode({ userId: user.id, code })).rejects.toMatchObject({ reason: "too_many_attempts" });

    advanceClockForTests(31_000);
    await sendEmailCode({ userId: user.id, email: "ada@example.com", ip: "10.9.0.1" });
    const late = codeIn(received.at(-1)!.data);
    advanceClockForTests(10 * 60 * 1000 + 1);
    await expect(verifyEmailCode({ userId: user.id, code: late })).rejects.toMatchObject({ reason: "expired" });

    await sendEmailCode({ userId: user.id, email: "ada@example.com", ip: "10.9.0.1" });
    await expect(verifyEmailCode({ userId: user.id, code: codeIn(received.at(-1)!.data) })).resolves.toEqual({ email: "ada@example.com" });
    expect(await (await db()).user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ email: "ada@example.com", emailProof: "email_code" });
  });
});

describe("e-mail code limits", () => {
  it("cap the codes one address receives an hour, whichever accounts ask: a sixth is refused and nothing is sent", async () => {
    const { sendEmailCode, EMAIL_SEND_LIMITS, EMAIL_CODE_MESSAGES } = await import("@/lib/person-auth/email-codes");
    const { createUser } = await import("@/lib/users/users");
    const target = "victim.inbox@example.com";
    for (let i = 0; i < EMAIL_SEND_LIMITS.perAddressPerHour; i++) {
      const asker = await createUser({ plane: "live" });
      await sendEmailCode({ userId: asker.id, email: target, ip: `10.9.2.${i + 1}` });
    }
    const before = received.length;
    const asker = await createUser({ plane: "live" });
    await expect(sendEmailCode({ userId: asker.id, email: target.toUpperCase(), ip: "10.9.2.99" })).rejects.toMatchObject({
      reason: "rate_limited",
      message: EMAIL_CODE_MESSAGES.rate_limited,
    });
    expect(received.length).toBe(before);
    expect(await (await db()).emailCode.count({ where: { userId: asker.id } })).toBe(0);
  });

  it("cap the codes one IP address (an IPv6 /64 as one) requests an hour, whatever the addresses", async () => {
    const { sendEmailCode, EMAIL_SEND_LIMITS } = await import("@/lib/person-auth/email-codes");
    const { createUser } = await import("@/lib/users/users");
    const results: string[] = [];
    for (let i = 0; i <= EMAIL_SEND_LIMITS.perIpPerHour; i++) {
      const asker = await createUser({ plane: "live" });
      results.push(
        await sendEmailCode({ userId: asker.id, email: `spray-${i}@example.com`, ip: `2001:db8:9:9::${i + 1}` }).then(
          () => "sent",
          (e: { reason: string }) => e.reason,
        ),
      );
    }
    expect(results.slice(0, EMAIL_SEND_LIMITS.perIpPerHour).every((r) => r === "sent")).toBe(true);
    expect(results.at(-1)).toBe("rate_limited");
  });
});

describe("the mailbox page's code", () => {
  it("proves the address: the next ID token says email_verified true; a typed address alone never does", async () => {
    const { returnFromReceipt } = await import("../helpers/receipt");
    const { returnToApp } = await import("@/lib/flow/transitions");
    const { flowId, userId, client_id, verifier, reload, steps } = await atMailboxPage("+14155550166");

    await steps.sendFlowEmailCode(await reload(), { email: "lyon.person@example.com", ip: "10.9.0.2" });
    expect((await reload()).pendingEmail).toBe("lyon.person@example.com");
    // Typed, not yet proven: the account has no address yet.
    expect((await (await db()).user.findUniqueOrThrow({ where: { id: userId } })).email).toBeNull();
    await expect(steps.verifyFlowEmailCode(await reload(), { code: "12" })).rejects.toMatchObject({ field: "email_code" });
    await steps.verifyFlowEmailCode(await reload(), { code: codeIn(received.at(-1)!.data) });
    expect((await reload()).screen).toBe("receipt");

    const url = new URL((await returnToApp({ flowId, userId })).redirectTo);
    const tokens = await tokenCall({ grant_type: "authorization_code", code: url.searchParams.get("code")!, redirect_uri: CALLBACK, client_id, code_verifier: verifier });
    expect(decodeJwt(tokens.body.id_token)).toMatchObject({ email: "lyon.person@example.com", email_verified: true });

    // An address set any other way (typed, or supplied by another app) has no proof.
    await (await db()).user.update({ where: { id: userId }, data: { email: "typed@example.com", emailProof: "none" } });
    const again = pkce();
    const second = flowIdFrom(await authorizeCall(authorizeParams(client_id, again.challenge, { scope: "openid email" })));
    const back = new URL((await returnFromReceipt({ flowId: second, userId })).redirectTo);
    const next = await tokenCall({ grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: CALLBACK, client_id, code_verifier: again.verifier });
    expect(decodeJwt(next.body.id_token)).toMatchObject({ email: "typed@example.com", email_verified: false });
  });
});
