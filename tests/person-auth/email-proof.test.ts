// One decision behind email_verified: the ID token and GET /v1/profile agree for the same person at the
// same moment; Outlook's Graph address proves nothing; a code the development outbox delivered
// never verifies a live account's address. The decision is a pure function over a table of proofs,
// and the SQL that filters on it agrees with it case by case.
import { decodeJwt } from "jose";
import { beforeEach, describe, expect, it } from "vitest";
import { GET as profileRoute } from "@/app/v1/profile/route";
import {
  accountEmailVerified,
  addressProven,
  addressProvenSql,
  EMAIL_PROOF_COLUMNS,
  owningMailboxOf,
  type EmailProofFacts,
  type OwningMailbox,
  type ProofUse,
  type RecordedProof,
} from "@/lib/person-auth/email-proof";
import type { Plane } from "@/lib/platform/db/generated/enums";
import { db } from "@/lib/platform/db";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { exchange, registerClient } from "../helpers/oauth";

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
    const { sendEmailCode, verifyEmailCode } = await import("@/lib/person-auth/email-codes");
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

describe("addressProven, the one decision", () => {
  // [how the address was last proven, plane, the mailbox that owns it, email_verified, recognition]
  const CASES: Array<[RecordedProof, Plane, OwningMailbox | null, boolean, boolean]> = [
    ["none", "live", null, false, false],
    ["none", "test", null, false, false],
    ["email_code", "live", null, true, false],
    ["email_code", "test", null, true, false],
    ["third_party", "live", null, true, true],
    ["third_party", "test", null, true, true],
    ["development_code", "live", null, false, false],
    ["development_code", "test", null, true, false],
    ["none", "live", "google", true, true],
    ["none", "test", "google", true, true],
    ["none", "test", "sandbox", true, false],
    ["development_code", "live", "google", true, true],
    ["email_code", "test", "sandbox", true, false],
  ];

  it.each(CASES)("%s on the %s plane, mailbox %s: email_verified %s, recognition %s", (proof, plane, mailbox, verified, recognized) => {
    const facts: EmailProofFacts = { email: "ada@example.com", email_proof: proof, plane, owning_mailbox: mailbox };
    expect(addressProven(facts, "email_verified")).toBe(verified);
    expect(addressProven(facts)).toBe(verified);
    expect(addressProven(facts, "recognition")).toBe(recognized);
    // No address, nothing proven.
    for (const use of ["email_verified", "recognition"] as const) expect(addressProven({ ...facts, email: null }, use)).toBe(false);
  });

  it("finds the mailbox that owns the address among connections: a working Gmail Google vouched for, or a sandbox's own", () => {
    const gmail = { app: "gmail", provider: "google", status: "active", accountEmail: "ADA@example.com", accountId: "g-1" };
    const user = { email: "ada@example.com", synthetic: false };
    expect(owningMailboxOf(user, [gmail])).toBe("google");
    expect(owningMailboxOf({ ...user, email: null }, [gmail])).toBeNull();
    expect(owningMailboxOf(user, [{ ...gmail, status: "needs_reconnect" }])).toBeNull();
    expect(owningMailboxOf(user, [{ ...gmail, accountEmail: "other@example.com" }])).toBeNull();
    expect(owningMailboxOf(user, [{ ...gmail, app: "outlook", provider: "microsoft" }])).toBeNull();
    const sandbox = { ...gmail, provider: "development", accountId: "sandbox-gmail" };
    expect(owningMailboxOf(user, [sandbox])).toBeNull();
    expect(owningMailboxOf({ ...user, synthetic: true }, [sandbox])).toBe("sandbox");
    expect(owningMailboxOf({ ...user, synthetic: true }, [{ ...sandbox, accountId: "d-1" }])).toBeNull();
  });

  it("is what its SQL reads and filters on, for every proof, plane and mailbox", async () => {
    const prisma = await db();
    const mailboxes: Array<{ synthetic: boolean; connection: { app: string; provider: string; accountId: string; accountEmail: string; status?: string } | null }> = [
      { synthetic: false, connection: null },
      { synthetic: false, connection: { app: "gmail", provider: "google", accountId: "g-1", accountEmail: "ADA@example.com" } },
      { synthetic: false, connection: { app: "gmail", provider: "google", accountId: "g-1", accountEmail: "other@example.com" } },
      { synthetic: false, connection: { app: "gmail", provider: "google", accountId: "g-1", accountEmail: "ada@example.com", status: "needs_reconnect" } },
      { synthetic: false, connection: { app: "outlook", provider: "microsoft", accountId: "m-1", accountEmail: "ada@example.com" } },
      { synthetic: true, connection: { app: "gmail", provider: "development", accountId: "sandbox-gmail", accountEmail: "ada@example.com" } },
      { synthetic: false, connection: { app: "gmail", provider: "development", accountId: "sandbox-gmail", accountEmail: "ada@example.com" } },
    ];
    const ids: string[] = [];
    for (const email_proof of ["none", "email_code", "third_party", "development_code"] as const) {
      for (const plane of ["live", "test"] as const) {
        for (const { synthetic, connection } of mailboxes) {
          const user = await prisma.user.create({
            data: { plane, email: "ada@example.com", emailProof: email_proof, synthetic, developerId: plane === "test" ? t.developer.id : null },
          });
          if (connection) await prisma.appConnection.create({ data: { userId: user.id, accessTokenSealed: "v1.x.x.x", ...connection } });
          ids.push(user.id);
        }
      }
    }
    for (const use of ["email_verified", "recognition"] as ProofUse[]) {
      const rows = await prisma.$queryRawUnsafe<Array<EmailProofFacts & { id: string; proven: boolean }>>(
        `SELECT u.id::text AS id, ${EMAIL_PROOF_COLUMNS}, ${addressProvenSql(use)} AS proven FROM users u WHERE u.id = ANY($1::uuid[])`,
        ids,
      );
      expect(rows).toHaveLength(ids.length);
      for (const row of rows) expect(row.proven, `${row.email_proof} ${row.plane} ${row.owning_mailbox} ${use}`).toBe(addressProven(row, use));
    }
    // The mailbox the SQL names is the one the same rule finds among the connections.
    const users = await prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, email: true, synthetic: true } });
    const connections = await prisma.appConnection.findMany({ where: { userId: { in: ids } } });
    const named = await prisma.$queryRawUnsafe<Array<{ id: string; owning_mailbox: OwningMailbox | null }>>(
      `SELECT u.id::text AS id, ${EMAIL_PROOF_COLUMNS} FROM users u WHERE u.id = ANY($1::uuid[])`,
      ids,
    );
    for (const user of users) {
      const own = connections.filter((c) => c.userId === user.id);
      expect(named.find((n) => n.id === user.id)?.owning_mailbox ?? null).toBe(owningMailboxOf(user, own));
    }
  });
});
