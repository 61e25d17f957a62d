// Passkeys through the service functions with a software authenticator (real keys, real signatures):
// registering for a signed-in person, signing in on the phone screen with no text message and going
// on where the code would, and the rules a passkey must not bend — one use per challenge, the flow's
// own challenge, the RP id and origin, user verification, the counter, a removed passkey.
import { beforeEach, describe, expect, it } from "vitest";
import { resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { findFlow, type Flow } from "@/lib/flow/store";
import { chooseSignIn, continueFromImport, decidePreview, previewImport, submitCode, submitPhone } from "@/lib/flow/steps";
import { phoneDigest } from "@/lib/users/phone";
import { addPasskey, listPasskeys, registrationOptions, removePasskey, renamePasskey } from "@/lib/passkeys/credentials";
import { signInOptions, signInWithPasskey } from "@/lib/passkeys/sign-in";
import { PASSKEY_LIMITS } from "@/lib/passkeys/limits";
import { rpId, rpOrigin } from "@/lib/passkeys/rp";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { authorizeCall, authorizeParams, flowIdFrom, pkce, registerClient } from "../helpers/oauth";
import { assert, register, type SoftPasskey } from "../helpers/webauthn";

let t: Tenant;
let clientId: string;
let n = 0;
let ipN = 0;
const freshPhone = () => `+4420794611${String(10 + (n++ % 90))}`;
const freshIp = () => `10.77.${Math.floor(ipN / 200)}.${(ipN++ % 200) + 1}`;
const reload = async (flow: Flow) => (await findFlow(flow.id))!;
const rp = () => ({ origin: rpOrigin(), rpId: rpId() });

beforeEach(async () => {
  resetClockForTests();
  t = await createTenant();
  clientId = (await registerClient(t)).client_id;
});

/** An OpenID Connect flow where the person chose Sign in: on the phone screen. */
async function atPhone(): Promise<Flow> {
  const flow = (await findFlow(flowIdFrom(await authorizeCall(authorizeParams(clientId, pkce().challenge)))))!;
  await chooseSignIn(flow);
  return reload(flow);
}

async function smsCount(): Promise<number> {
  return (await db()).smsOutbox.count();
}

/** A person signed in with a code, who then made a passkey. */
async function personWithPasskey(): Promise<{ userId: string; phone: string; passkey: SoftPasskey }> {
  const phone = freshPhone();
  let flow = await atPhone();
  await submitPhone(flow, { phone, ip: freshIp() });
  flow = await reload(flow);
  const sms = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
  const { userId } = await submitCode(flow, { code: sms.body.slice(0, 6) });
  const options = await registrationOptions(userId);
  expect(options.rp.id).toBe(rpId());
  expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
  const { response, passkey } = register(options, rp());
  await addPasskey(userId, { response });
  return { userId, phone, passkey };
}

async function passkeySignIn(passkey: SoftPasskey, answer: Partial<Parameters<typeof assert>[2]> = {}) {
  const flow = await atPhone();
  const ip = freshIp();
  const options = await signInOptions(flow, { ip });
  const response = assert(passkey, options, { ...rp(), ...answer });
  return { flow, response, ip, run: () => signInWithPasskey(flow, { response, ip }) };
}

describe("a returning person with a passkey", () => {
  it("signs in with no text message and goes on where the code would take them", async () => {
    const { userId, passkey } = await personWithPasskey();
    const before = await smsCount();
    const { flow, run } = await passkeySignIn(passkey);
    expect(await run()).toEqual({ userId });
    const after = await reload(flow);
    // Sign in first: phone and code, then the import screen.
    expect(after).toMatchObject({ screen: "import", userId });
    expect(after.phoneLast4).toBeTruthy();
    expect(await smsCount()).toBe(before);
    const [listed] = await listPasskeys(userId);
    expect(listed!.lastUsedAt).not.toBeNull();
    const user = await (await db()).user.findUniqueOrThrow({ where: { id: userId }, select: { emailProof: true } });
    expect(user.emailProof).toBe("none");
  });

  it("after an import, goes on where the code would: the same screen, the number as the code leaves it", async () => {
    const { userId, phone, passkey } = await personWithPasskey();
    const afterImport = async () => {
      const flow = (await findFlow(flowIdFrom(await authorizeCall(authorizeParams(clientId, pkce().challenge)))))!;
      await previewImport(flow, { provider: "chatgpt", text: "- I love trail running" });
      await decidePreview(await reload(flow), { provider: "chatgpt", keep: true });
      await continueFromImport(await reload(flow));
      return reload(flow);
    };
    const byCode = await afterImport();
    await submitPhone(byCode, { phone, ip: freshIp() });
    const sms = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
    await submitCode(await reload(byCode), { code: sms.body.slice(0, 6) });

    const byPasskey = await afterImport();
    const ip = freshIp();
    const options = await signInOptions(byPasskey, { ip });
    await signInWithPasskey(byPasskey, { response: assert(passkey, options, rp()), ip });

    const [a, b] = [await reload(byCode), await reload(byPasskey)];
    expect(b).toMatchObject({ screen: a.screen, userId, phoneHash: a.phoneHash, phoneLast4: a.phoneLast4 });
  });

  it("an authenticator whose backup eligibility changed is refused", async () => {
    const { passkey } = await personWithPasskey();
    const { run } = await passkeySignIn(passkey, { backupEligible: true });
    await expect(run()).rejects.toMatchObject({ code: "refused" });
  });

  it("a replayed assertion is refused, on its own flow and on another", async () => {
    const { passkey } = await personWithPasskey();
    const first = await passkeySignIn(passkey);
    await first.run();
    const other = await atPhone();
    await signInOptions(other, { ip: first.ip });
    await expect(signInWithPasskey(other, { response: first.response, ip: first.ip })).rejects.toMatchObject({ code: "refused" });
    expect((await reload(other)).userId).toBeNull();
  });

  it("a challenge handed to one flow does not sign in another", async () => {
    const { passkey } = await personWithPasskey();
    const a = await atPhone();
    const b = await atPhone();
    const options = await signInOptions(a, { ip: freshIp() });
    await signInOptions(b, { ip: freshIp() });
    const response = assert(passkey, options, rp());
    await expect(signInWithPasskey(b, { response, ip: freshIp() })).rejects.toMatchObject({ code: "refused" });
  });

  it("a passkey for another RP id or origin, or without user verification, is refused", async () => {
    const { passkey } = await personWithPasskey();
    for (const wrong of [{ rpId: "evil.example" }, { origin: "https://evil.example" }, { uv: false }]) {
      const { flow, run } = await passkeySignIn(passkey, wrong);
      await expect(run()).rejects.toMatchObject({ code: "refused" });
      expect((await reload(flow)).screen).toBe("phone");
    }
  });

  it("a counter that goes backwards is refused", async () => {
    const { passkey } = await personWithPasskey();
    await (await passkeySignIn(passkey, { counter: 5 })).run();
    const { run } = await passkeySignIn(passkey, { counter: 3 });
    await expect(run()).rejects.toMatchObject({ code: "refused" });
  });

  it("a removed passkey is refused; removing the last one leaves the number, which still signs in", async () => {
    const { userId, passkey } = await personWithPasskey();
    const [listed] = await listPasskeys(userId);
    expect(await removePasskey(userId, listed!.id)).toBe(true);
    const { run } = await passkeySignIn(passkey);
    await expect(run()).rejects.toMatchObject({ code: "refused" });
    const user = await (await db()).user.findUniqueOrThrow({ where: { id: userId }, select: { phoneHash: true } });
    expect(user.phoneHash).toBeTruthy();
  });

  it("is limited per flow, not by the text-message limits", async () => {
    const flow = await atPhone();
    for (let i = 0; i < PASSKEY_LIMITS.perFlow; i++) await signInOptions(flow, { ip: freshIp() });
    await expect(signInOptions(flow, { ip: freshIp() })).rejects.toMatchObject({ code: "rate_limited" });
  });

  it("assertions are limited per address, across flows", async () => {
    const ip = freshIp();
    const codes: string[] = [];
    for (let f = 0; f < 7; f++) {
      const flow = await atPhone();
      for (let i = 0; i < 9; i++)
        codes.push(
          await signInWithPasskey(flow, { response: "{}", ip }).then(
            () => "signed in",
            (err: { code: string }) => err.code,
          ),
        );
    }
    expect(codes.indexOf("rate_limited")).toBe(PASSKEY_LIMITS.perIpPerHour);
    expect(codes.slice(0, PASSKEY_LIMITS.perIpPerHour).every((c) => c === "invalid")).toBe(true);
  });
});

describe("a person's passkeys", () => {
  it("a registration's challenge is used once", async () => {
    const { userId } = await personWithPasskey();
    const options = await registrationOptions(userId);
    const { response } = register(options, rp());
    await addPasskey(userId, { response });
    await expect(addPasskey(userId, { response })).rejects.toMatchObject({ code: "refused" });
    expect(await listPasskeys(userId)).toHaveLength(2);
  });

  it("are renamed and removed by their person only", async () => {
    const a = await personWithPasskey();
    const b = await personWithPasskey();
    const [mine] = await listPasskeys(a.userId);
    expect(mine).toMatchObject({ name: "Passkey 1" });
    expect(await renamePasskey(b.userId, { id: mine!.id, name: "Not yours" })).toBe(false);
    expect(await removePasskey(b.userId, mine!.id)).toBe(false);
    expect(await renamePasskey(a.userId, { id: mine!.id, name: "  Phone  " })).toBe(true);
    await expect(renamePasskey(a.userId, { id: mine!.id, name: " " })).rejects.toMatchObject({ code: "invalid" });
    expect((await listPasskeys(a.userId))[0]).toMatchObject({ name: "Phone" });
  });
});
