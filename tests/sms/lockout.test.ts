// A number's owner is not locked out by someone else who knows the number: per-number limits count
// each requester (address and flow) apart, a number-wide ceiling counts only codes never verified,
// and a code is good only in the flow that asked for it.
import { afterEach, describe, expect, it } from "vitest";
import { CODE_MESSAGES, SEND_LIMITS, sendSignInCode, verifySignInCode } from "@/lib/person-auth/phone-codes";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { findFlow } from "@/lib/flow/store";
import { openProfileSignup } from "@/lib/flow/ways-in/profile-signup";
import { chooseSignIn, submitCode, submitPhone } from "@/lib/flow/steps";
import { phoneDigest } from "@/lib/users/phone";

afterEach(() => resetClockForTests());

let n = 0;
const freshPhone = () => `+1415444${String(1000 + n++).padStart(4, "0")}`;

/** A new sign-up flow in a new browser, from `ip`, at its phone screen ("Sign in"). */
async function newFlow(ip: string): Promise<string> {
  const { id } = await openProfileSignup(ip);
  await chooseSignIn((await findFlow(id))!);
  return id;
}

async function askForCode(flowId: string, phone: string, ip: string): Promise<string> {
  return submitPhone((await findFlow(flowId))!, { phone, ip }).then(
    () => "sent",
    (err: Error) => err.message,
  );
}

async function lastCodeFor(phone: string): Promise<string> {
  const row = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
  return row.body.slice(0, 6);
}

describe("text-message limits of one number", () => {
  it("still send the owner a code after someone else used six fresh flows on their number", async () => {
    const phone = freshPhone();
    const attacker = "198.51.100.7";
    const results: string[] = [];
    for (let i = 0; i < 6; i++) results.push(await askForCode(await newFlow(attacker), phone, attacker));
    expect(results).toEqual([...Array<string>(SEND_LIMITS.perNumberPerRequesterPerHour).fill("sent"), CODE_MESSAGES.rate_limited]);

    // The owner, in their own browser on their own network: a code arrives, and signs them in.
    const owner = "203.0.113.9";
    const flowId = await newFlow(owner);
    expect(await askForCode(flowId, phone, owner)).toBe("sent");
    const { userId } = await submitCode((await findFlow(flowId))!, { code: await lastCodeFor(phone) });
    expect(userId).toBeTruthy();
  });

  it("keep the owner's code good when someone else asks for another one to the same number", async () => {
    const phone = freshPhone();
    const flowId = await newFlow("203.0.113.10");
    expect(await askForCode(flowId, phone, "203.0.113.10")).toBe("sent");
    const owners = await lastCodeFor(phone);
    expect(await askForCode(await newFlow("198.51.100.8"), phone, "198.51.100.8")).toBe("sent");
    // The other flow's code is no good here, and the owner's own still is.
    const others = await lastCodeFor(phone);
    if (others !== owners) await expect(submitCode((await findFlow(flowId))!, { code: others })).rejects.toMatchObject({ message: CODE_MESSAGES.wrong_code });
    await expect(submitCode((await findFlow(flowId))!, { code: owners })).resolves.toMatchObject({ userId: expect.any(String) });
  });

  it(`stop at ${SEND_LIMITS.unverifiedPerNumberPerHour} codes never verified in an hour, whoever asks, and count no verified one`, async () => {
    const phone = freshPhone();
    const ask = (i: number) => sendSignInCode({ phone, plane: "live", phoneScope: "", ip: `192.0.2.${i}`, flowId: `flow-${phone}-${i}` });
    for (let i = 1; i <= SEND_LIMITS.unverifiedPerNumberPerHour; i++) await ask(i);
    const refused = await ask(99).catch((e: { reason: string; retryAfter: number; message: string }) => e);
    expect(refused).toMatchObject({ reason: "rate_limited", message: CODE_MESSAGES.rate_limited });
    expect((refused as { retryAfter: number }).retryAfter).toBeGreaterThan(3500);
    // An hour on, the count starts again.
    advanceClockForTests(3600 * 1000 + 1);
    await expect(ask(100)).resolves.toBeDefined();

    // Codes entered correctly do not count: their owner may sign in again and again.
    const regular = freshPhone();
    for (let i = 1; i <= SEND_LIMITS.unverifiedPerNumberPerHour + 2; i++) {
      const flowId = `flow-${regular}-${i}`;
      await sendSignInCode({ phone: regular, plane: "live", phoneScope: "", ip: `192.0.2.${100 + i}`, flowId });
      await verifySignInCode({ phoneHash: phoneDigest(regular).phoneHash, plane: "live", phoneScope: "", flowId, code: await lastCodeFor(regular) });
    }
  });
});
