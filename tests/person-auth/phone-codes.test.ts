// Sign-in codes by text message: six digits, 10 minutes, 5 wrong tries, a resend after 30 seconds,
// per-number and per-IP send limits, the same answer for every number, and the sandbox's 424242.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CODE_MESSAGES, CODE_TTL_SECONDS, CodeError, MAX_CODE_ATTEMPTS, RESEND_AFTER_SECONDS, SEND_LIMITS, sendSignInCode, verifySignInCode } from "@/lib/person-auth/phone-codes";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { createUser } from "@/lib/users/users";
import { phoneDigest } from "@/lib/users/phone";

let n = 0;
const freshPhone = () => `+1415555${String(1000 + (n++ % 9000)).padStart(4, "0")}`;
const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250)).join(".")}`;
beforeEach(() => resetClockForTests());
afterEach(() => resetClockForTests());

async function lastCodeFor(phone: string): Promise<string> {
  const row = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
  return row.body.match(/^(\d{6}) is your/)![1]!;
}
const verify = (phone: string, code: string, plane: "live" | "test" = "live", phoneScope = "") =>
  verifySignInCode({ phoneHash: phoneDigest(phone).phoneHash, plane, phoneScope, code });

describe("sending a code", () => {
  it("texts six digits that expire after 10 minutes, through the outbox, which keeps no raw number", async () => {
    const phone = freshPhone();
    expect(await sendSignInCode({ phone, plane: "live", phoneScope: "", ip: randomIp() })).toEqual({ resendAfterSeconds: RESEND_AFTER_SECONDS });
    const row = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash } });
    expect(row.phoneLast4).toBe(phone.slice(-4));
    expect(JSON.stringify(row)).not.toContain(phone.slice(1));
    const code = await lastCodeFor(phone);
    expect(code).toMatch(/^\d{6}$/);
    const stored = await (await db()).phoneCode.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash } });
    expect(stored.codeHash).not.toContain(code);
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(CODE_TTL_SECONDS * 1000);
  });

  it("answers the same for a number with an account and one without", async () => {
    const known = freshPhone();
    await createUser({ plane: "live", phone: known });
    const unknown = freshPhone();
    const a = await sendSignInCode({ phone: known, plane: "live", phoneScope: "", ip: randomIp() });
    const b = await sendSignInCode({ phone: unknown, plane: "live", phoneScope: "", ip: randomIp() });
    expect(a).toEqual(b);
    expect((await lastCodeFor(known)).length).toBe((await lastCodeFor(unknown)).length);
  });

  it("sends a new code only 30 seconds after the last; the new one replaces the old", async () => {
    const phone = freshPhone();
    const ip = randomIp();
    await sendSignInCode({ phone, plane: "live", phoneScope: "", ip });
    const first = await lastCodeFor(phone);
    advanceClockForTests((RESEND_AFTER_SECONDS - 5) * 1000);
    await expect(sendSignInCode({ phone, plane: "live", phoneScope: "", ip })).rejects.toMatchObject({
      reason: "resend_too_soon",
      retryAfter: 5,
      message: CODE_MESSAGES.resend_too_soon,
    });
    advanceClockForTests(5_000);
    await sendSignInCode({ phone, plane: "live", phoneScope: "", ip });
    const second = await lastCodeFor(phone);
    if (first !== second) await expect(verify(phone, first)).rejects.toMatchObject({ reason: "wrong_code" });
    await expect(verify(phone, second)).resolves.toBeUndefined();
  });

  it(`limits sends to ${SEND_LIMITS.perNumberPerRequesterPerHour} per number and requester and ${SEND_LIMITS.perIpPerHour} per IP address (an IPv6 /56) an hour`, async () => {
    const phone = freshPhone();
    const asker = randomIp();
    for (let i = 0; i < SEND_LIMITS.perNumberPerRequesterPerHour; i++) {
      await sendSignInCode({ phone, plane: "live", phoneScope: "", ip: asker });
      advanceClockForTests(RESEND_AFTER_SECONDS * 1000);
    }
    await expect(sendSignInCode({ phone, plane: "live", phoneScope: "", ip: asker })).rejects.toMatchObject({ reason: "rate_limited", message: CODE_MESSAGES.rate_limited });
    // Someone else asking for the same number is another requester.
    await expect(sendSignInCode({ phone, plane: "live", phoneScope: "", ip: randomIp() })).resolves.toBeDefined();
    // Every /64 of one /56 is one requester.
    const site = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}`;
    for (let i = 0; i < SEND_LIMITS.perIpPerHour; i++)
      await sendSignInCode({ phone: freshPhone(), plane: "live", phoneScope: "", ip: `${site}:${i.toString(16).padStart(2, "0")}::1` });
    const limited = await sendSignInCode({ phone: freshPhone(), plane: "live", phoneScope: "", ip: `${site}:ff::1` }).catch((e) => e);
    expect(limited).toBeInstanceOf(CodeError);
    expect(limited.reason).toBe("rate_limited");
    expect(limited.retryAfter).toBeGreaterThan(0);
  });

  it("in the sandbox: always 424242, and no message is sent", async () => {
    const phone = "+15555550100";
    const before = await (await db()).smsOutbox.count();
    await sendSignInCode({ phone, plane: "test", phoneScope: "dev-1", ip: randomIp() });
    expect(await (await db()).smsOutbox.count()).toBe(before);
    await expect(verify(phone, "123456", "test", "dev-1")).rejects.toMatchObject({ reason: "wrong_code" });
    await expect(verify(phone, "424242", "test", "dev-1")).resolves.toBeUndefined();
    // Another sandbox's number space is another.
    await expect(verify(phone, "424242", "test", "dev-2")).rejects.toMatchObject({ reason: "expired" });
  });

  it("never takes 424242 for any other test-plane number: it gets a real code, sent like a live one", async () => {
    const phone = freshPhone();
    await sendSignInCode({ phone, plane: "test", phoneScope: "dev-1", ip: randomIp() });
    const sent = await lastCodeFor(phone);
    expect(sent).toMatch(/^\d{6}$/);
    if (sent !== "424242") await expect(verify(phone, "424242", "test", "dev-1")).rejects.toMatchObject({ reason: "wrong_code" });
    await expect(verify(phone, sent, "test", "dev-1")).resolves.toBeUndefined();
  });
});

describe("checking a code", () => {
  it("takes it once", async () => {
    const phone = freshPhone();
    await sendSignInCode({ phone, plane: "live", phoneScope: "", ip: randomIp() });
    const code = await lastCodeFor(phone);
    await verify(phone, ` ${code} `);
    await expect(verify(phone, code)).rejects.toMatchObject({ reason: "expired", message: CODE_MESSAGES.expired });
  });

  it("refuses it after 10 minutes", async () => {
    const phone = freshPhone();
    await sendSignInCode({ phone, plane: "live", phoneScope: "", ip: randomIp() });
    const code = await lastCodeFor(phone);
    advanceClockForTests(CODE_TTL_SECONDS * 1000 + 1);
    await expect(verify(phone, code)).rejects.toMatchObject({ reason: "expired" });
  });

  it(`allows ${MAX_CODE_ATTEMPTS} wrong tries, counting down, then refuses even the right code`, async () => {
    const phone = freshPhone();
    await sendSignInCode({ phone, plane: "live", phoneScope: "", ip: randomIp() });
    const code = await lastCodeFor(phone);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let left = MAX_CODE_ATTEMPTS - 1; left > 0; left--) {
      await expect(verify(phone, wrong)).rejects.toMatchObject({ reason: "wrong_code", attemptsLeft: left, message: CODE_MESSAGES.wrong_code });
    }
    await expect(verify(phone, wrong)).rejects.toMatchObject({ reason: "too_many_attempts" });
    await expect(verify(phone, code)).rejects.toMatchObject({ reason: "too_many_attempts", message: CODE_MESSAGES.too_many_attempts });
  });

  it("compares at most 5 guesses however many arrive at once, and the right code succeeds once", async () => {
    const phone = freshPhone();
    await sendSignInCode({ phone, plane: "live", phoneScope: "", ip: randomIp() });
    const code = await lastCodeFor(phone);
    const results = await Promise.allSettled([...Array.from({ length: 10 }, () => verify(phone, code))]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const row = await (await db()).phoneCode.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash } });
    expect(row.attempts).toBeLessThanOrEqual(MAX_CODE_ATTEMPTS);
  });
});
