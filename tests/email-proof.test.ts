// One decision behind email_verified: the ID token and GET /v1/profile agree for the same person at the
// same moment; Outlook's Graph address proves nothing; a code the development outbox delivered
// never verifies a live account's address.
import { decodeJwt } from "jose";
import { beforeEach, describe, expect, it } from "vitest";
import { GET as profileRoute } from "@/app/v1/profile/route";
import { accountEmailVerified } from "@/lib/auth/email-proof";
import { db } from "@/lib/db";
import { createTenant, liveHeaders, type Tenant } from "./helpers/fixtures";
import { call } from "./helpers/http";
import { exchange, registerClient } from "./helpers/oauth";

let t: Tenant;
let client: string;
beforeEach(async () => {
  t = await createTenant();
  client = (await registerClient(t)).client_id;
});

/** email_verified as the ID token and as GET /v1/profile say it, read at the same moment. */
async function bothSay(): Promise<{ idToken: unknown; profile: unknown }> {
  const idToken = decodeJwt((await exchange(client, t.users.live.id, { scope: "openid email" })).id_token!).email_verified;
  const profile = (await call(profileRoute, { headers: liveHeaders(t) })).body.identity.email_verified;
  return { idToken, profile };
}

describe("email_verified", () => {
  it("is decided once: a Gmail that owns the address proves it in the ID token and in the profile alike", async () => {
    const prisma = await db();
    await prisma.user.update({ where: { id: t.users.live.id }, data: { email: "ada@example.com", emailProof: "none" } });
    await prisma.appConnection.create({
      data: { userId: t.users.live.id, app: "gmail", provider: "google", accountId: "g-1", accountEmail: "ada@example.com", accessTokenSealed: "v1.x.x.x" },
    });
    expect(await bothSay()).toEqual({ idToken: true, profile: true });
    await prisma.appConnection.updateMany({ where: { userId: t.users.live.id }, data: { status: "needs_reconnect" } });
    expect(await bothSay()).toEqual({ idToken: false, profile: false });
  });

  it("is not proven by an Outlook connection: Graph's mail is whatever the tenant's administrator set", async () => {
    const prisma = await db();
    await prisma.user.update({ where: { id: t.users.live.id }, data: { email: "ceo@victim.example", emailProof: "none" } });
    await prisma.appConnection.create({
      data: { userId: t.users.live.id, app: "outlook", provider: "microsoft", accountId: "m-1", accountEmail: "ceo@victim.example", accessTokenSealed: "v1.x.x.x" },
    });
    expect(await bothSay()).toEqual({ idToken: false, profile: false });
  });

  it("a code the development outbox delivered proves nothing to a live client, and proves a test-plane address", async () => {
    const { sendEmailCode, verifyEmailCode } = await import("@/lib/auth/email-codes");
    const { emailDriver } = await import("@/lib/email");
    expect(emailDriver().name).toBe("outbox");
    const prisma = await db();
    for (const user of [t.users.live, t.users.test]) {
      await sendEmailCode({ userId: user.id, email: `${user.plane}@example.com`, ip: "10.9.1.1" });
      const mail = await prisma.emailOutbox.findFirstOrThrow({ where: { to: `${user.plane}@example.com` }, orderBy: { createdAt: "desc" } });
      await verifyEmailCode({ userId: user.id, code: mail.subject.match(/^(\d{6})/)![1]! });
    }
    expect(await prisma.user.findUniqueOrThrow({ where: { id: t.users.live.id } })).toMatchObject({ email: "live@example.com", emailProof: "development_code" });
    expect(await bothSay()).toEqual({ idToken: false, profile: false });
    expect(await accountEmailVerified(t.users.test.id)).toBe(true);
    const testProfile = await call(profileRoute, { headers: { "x-api-key": t.keys.skTest, "x-agent": t.agent.handle, "x-user-id": "user-test" } });
    expect(testProfile.body.identity).toMatchObject({ email: "test@example.com", email_verified: true });
  });
});
