// A passkey on a connect link minted for one account: the rule after the code holds for it, since it
// runs through the same step. Another account's passkey is refused and changes nothing; the owner's
// own passkey finishes the link.
import { beforeEach, describe, expect, it } from "vitest";
import { GET as openLink } from "@/app/personal-mcp/connect/[linkId]/route";
import { GET as statusRoute } from "@/app/personal-mcp/connect/[linkId]/status/route";
import { POST as connectRoute } from "@/app/v1/profile/connect/route";
import { resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { findFlow } from "@/lib/flow/store";
import { chooseSignIn, LINK_FOR_ANOTHER_ACCOUNT, submitCode, submitPhone } from "@/lib/flow/steps";
import { addPasskey, registrationOptions } from "@/lib/passkeys/credentials";
import { signInOptions, signInWithPasskey } from "@/lib/passkeys/sign-in";
import { rpId, rpOrigin } from "@/lib/passkeys/rp";
import { phoneDigest } from "@/lib/users/phone";
import { linkExternalId } from "@/lib/users/users";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { authorizeCall, authorizeParams, flowIdFrom, pkce, registerClient } from "../helpers/oauth";
import { assert, register, type SoftPasskey } from "../helpers/webauthn";

let t: Tenant;
beforeEach(async () => {
  resetClockForTests();
  t = await createTenant();
});

const rp = () => ({ origin: rpOrigin(), rpId: rpId() });
const linkId = (url: string) => url.split("/").pop()!;
let n = 0;

/** A person who signed in with a code at the tenant's app, and made a passkey. */
async function personWithPasskey(): Promise<{ userId: string; passkey: SoftPasskey }> {
  const phone = `+4420794622${String(10 + (n++ % 90))}`;
  const { client_id } = await registerClient(t);
  const id = flowIdFrom(await authorizeCall(authorizeParams(client_id, pkce().challenge)));
  await chooseSignIn((await findFlow(id))!);
  await submitPhone((await findFlow(id))!, { phone, ip: "10.78.0.1" });
  const sms = await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } });
  const { userId } = await submitCode((await findFlow(id))!, { code: sms.body.slice(0, 6) });
  const { response, passkey } = register(await registrationOptions(userId), rp());
  await addPasskey(userId, { response });
  return { userId, passkey };
}

/** A connect link minted for the account behind `externalId`, opened and brought to the phone screen. */
async function linkAtPhone(externalId: string) {
  const { connect_url } = (await call(connectRoute, { headers: liveHeaders(t, { "x-user-id": externalId }), body: {} })).body as { connect_url: string };
  const res = await openLink(new Request(connect_url), { params: Promise.resolve({ linkId: linkId(connect_url) }) });
  const flowId = res.headers.get("location")!.split("/").pop()!;
  // As tests/connect-links does: straight to the phone screen, the link's own screens being another test's.
  await (await db()).flowSession.update({ where: { id: flowId }, data: { screen: "phone" } });
  return { connect_url, flowId };
}

async function usePasskey(flowId: string, passkey: SoftPasskey) {
  const options = await signInOptions((await findFlow(flowId))!, { ip: "10.78.0.2" });
  return signInWithPasskey((await findFlow(flowId))!, { response: assert(passkey, options, rp()), ip: "10.78.0.2" });
}

describe("a passkey on a connect link for one account", () => {
  it("of another account is refused and changes nothing; the owner's finishes it", async () => {
    const owner = await personWithPasskey();
    const stranger = await personWithPasskey();
    await linkExternalId({ developerId: t.developer.id, plane: "live", externalId: "acct-passkey-owner", userId: owner.userId });
    const { connect_url, flowId } = await linkAtPhone("acct-passkey-owner");

    await expect(usePasskey(flowId, stranger.passkey)).rejects.toMatchObject({ field: "passkey", message: LINK_FOR_ANOTHER_ACCOUNT });
    expect(await findFlow(flowId)).toMatchObject({ screen: "phone", userId: null });
    expect((await call(statusRoute, { params: { linkId: linkId(connect_url) } })).body).toEqual({ status: "pending" });

    await usePasskey(flowId, owner.passkey);
    expect(await findFlow(flowId)).toMatchObject({ userId: owner.userId });
  });
});
