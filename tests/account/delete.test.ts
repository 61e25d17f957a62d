// The export of everything and the deletion of the account. The deletion test lists the database's
// tables itself: every table with a column naming a person (user_id, or a number's phone_hash) must
// be handled by lib/account/delete.ts, and holds no row of the deleted person afterwards.
import { beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_TABLES, deleteAccount, DELETE_CONFIRMATION_WORD, NOT_THE_PERSONS_TABLES } from "@/lib/account/delete";
import { accountExportRoute, exportAccount } from "@/lib/account/export";
import { revokeAgent } from "@/lib/account/agents";
import { forgetMemory } from "@/lib/account/memories";
import { issueAgentToken } from "@/lib/bearer-tokens/agent-token";
import { mintConnectLink } from "@/lib/connect-links/links";
import { sealConnectionToken } from "@/lib/connectors/connections";
import { database, db } from "@/lib/platform/db";
import { flushAccessLog, recordAccess } from "@/lib/access-log/access-log";
import { remember } from "@/lib/profile/remember";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { exchange, registerClient } from "../helpers/oauth";
import * as profileRoute from "@/app/v1/profile/route";
import { call } from "../helpers/http";

let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant(undefined, "other-agent");
});

/** Every (table, column) of the database naming a person: user ids and the number's keyed hash. */
async function personColumns(): Promise<Array<{ table_name: string; column_name: string }>> {
  return (await database()).sql.query(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND (column_name LIKE '%user_id' OR column_name = 'phone_hash' OR (table_name = 'users' AND column_name = 'id'))
      ORDER BY table_name, column_name`,
  );
}

/** Gives the person a row in as many tables as the service's own functions reach. */
async function fill(x: Tenant) {
  const u = x.users.live.id;
  const prisma = await db();
  const agent = { id: x.agent.id, handle: x.agent.handle };
  await remember({ userId: u, agent, text: "I live in Lisbon" });
  const { memory } = await remember({ userId: u, agent, text: "I love sushi" });
  await forgetMemory({ userId: u, memoryId: memory.id });
  await call(profileRoute.GET, { headers: { "x-api-key": x.keys.sk, "x-agent": x.agent.handle, "x-user-id": "user-live" } }); // read obligation, access log
  const { client_id } = await registerClient(x);
  await exchange(client_id, u); // grant, refresh and access tokens, a used code, a finished flow
  await mintConnectLink({ developerId: x.developer.id, plane: "live", agent: { id: x.agent.id }, userId: u, externalId: null, app: "gmail" });
  await prisma.capabilityGrant.create({ data: { userId: u, agentId: x.agent.id, capability: "gmail:send" } });
  await prisma.appConnection.create({
    data: { userId: u, app: "gmail", provider: "development", accountId: "acct-1", accountEmail: "me@example.org", accessTokenSealed: sealConnectionToken("secret-token") },
  });
  await prisma.emailCode.create({ data: { userId: u, email: "me@example.org", codeHash: "h", createdAt: new Date(), expiresAt: new Date(Date.now() + 60_000) } });
  await prisma.connectAttempt.create({
    data: { stateHash: `s-${u}`, userId: u, app: "gmail", verifierSealed: "v", browserHash: "b", createdAt: new Date(), expiresAt: new Date(Date.now() + 60_000) },
  });
  await prisma.signInCode.create({
    data: { codeHash: `sc-${u}`, developerId: x.developer.id, agentId: x.agent.id, plane: "live", userId: u, expiresAt: new Date(Date.now() + 60_000) },
  });
  await prisma.passkeyCredential.create({
    data: { userId: u, credentialId: `cred-${u}`, publicKey: Buffer.from("key"), backupEligible: false, backedUp: false, name: "Passkey 1" },
  });
  await prisma.passkeyChallenge.create({ data: { challengeHash: `ch-${u}`, purpose: "register", userId: u, expiresAt: new Date(Date.now() + 60_000) } });
  const user = await prisma.user.findUniqueOrThrow({ where: { id: u } });
  await prisma.phoneCode.create({ data: { phoneHash: user.phoneHash!, plane: "live", codeHash: "c", createdAt: new Date(), expiresAt: new Date(Date.now() + 60_000) } });
  await prisma.smsOutbox.create({ data: { phoneHash: user.phoneHash!, phoneLast4: user.phoneLast4!, body: "123456 is your code" } });
  await prisma.partnerSession.create({
    data: {
      id: `pfs_${u.slice(0, 8)}`,
      developerId: x.developer.id,
      agentId: x.agent.id,
      plane: "live",
      flow: "connect",
      partnerRef: "p-1",
      sources: [],
      userId: u,
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 60_000),
    },
  });
  recordAccessSafe(u, x);
  // Written now, not when the buffer's timer comes round.
  await flushAccessLog();
}

function recordAccessSafe(u: string, x: Tenant) {
  recordAccess({ userId: u, agentId: x.agent.id, agentName: "Assistant", plane: "live", surface: "rest", action: "GET /v1/profile", outcome: "ok" });
}

async function rowsOf(userId: string, phoneHash: string) {
  const sql = (await database()).sql;
  const found: Record<string, number> = {};
  for (const { table_name, column_name } of await personColumns()) {
    if (table_name in NOT_THE_PERSONS_TABLES) continue;
    const value = column_name === "phone_hash" ? phoneHash : userId;
    const [row] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}" WHERE "${column_name}"::text = $1`, [value]);
    if (row!.n) found[`${table_name}.${column_name}`] = row!.n;
  }
  return found;
}

describe("the export", () => {
  it("holds the profile, every memory with its provenance, approvals, connections without tokens and the access log", async () => {
    await fill(other);
    const u = other.users.live.id;
    const data = (await exportAccount(u))!;
    expect(data.account).toMatchObject({ id: u, plane: "live", phone_last4: expect.any(String) });
    expect(JSON.stringify(data.profile.identity)).toContain("Lisbon");
    expect(data.memories.find((m) => m.text.includes("sushi"))).toMatchObject({ hidden: true, provenance: expect.any(Object) });
    expect(data.memories.find((m) => m.text.includes("Lisbon"))).toMatchObject({ hidden: false, source: "agents/other-agent" });
    expect(data.approvals).toEqual([expect.objectContaining({ agent: "other-agent", revoked_at: null })]);
    expect(data.connections).toEqual([expect.objectContaining({ app: "gmail", account_email: "me@example.org" })]);
    expect(JSON.stringify(data)).not.toContain("secret-token");
    expect(JSON.stringify(data)).not.toContain("access_token_sealed");
    // Passkeys by name and date; never the credential id or key.
    expect(data.passkeys).toEqual([{ name: "Passkey 1", created_at: expect.any(String), last_used_at: null, synced: false }]);
    expect(JSON.stringify(data)).not.toContain(`cred-${u}`);
    expect(data.access_log.length).toBeGreaterThan(0);
    // Nothing of another person.
    expect(JSON.stringify(data)).not.toContain(t.users.live.id);
  });

  it("is served by the session cookie alone: an API key, X-User-Id or Bearer token gets a redirect and no data", async () => {
    const token = (await issueAgentToken({ userId: other.users.live.id, developerId: other.developer.id, agentId: other.agent.id, agent: other.agent.handle, plane: "live" }))
      .token;
    const res = await accountExportRoute(
      new Request("http://localhost:3000/account/export.json", {
        headers: { "x-api-key": other.keys.sk, "x-agent": other.agent.handle, "x-user-id": "user-live", authorization: `Bearer ${token}` },
      }),
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("http://localhost:3000/account");
    expect(await res.text()).toBe("");
  });

  it("is null for an account that no longer exists", async () => {
    expect(await exportAccount("00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});

describe("deleting the account", () => {
  it("handles every table the database has with a person's id or number", async () => {
    const tables = new Set((await personColumns()).map((c) => c.table_name));
    const unhandled = [...tables].filter((name) => !(name in ACCOUNT_TABLES) && !(name in NOT_THE_PERSONS_TABLES));
    expect(unhandled, "a table names a person: handle it in lib/account/delete.ts").toEqual([]);
    // And the list names no table that is gone.
    const all = new Set(
      (await (await database()).sql.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`)).map(
        (r) => r.table_name,
      ),
    );
    expect(Object.keys(ACCOUNT_TABLES).filter((name) => !all.has(name))).toEqual([]);
  });

  it("refuses without the confirmation word", async () => {
    await expect(deleteAccount({ userId: t.users.live.id, confirmation: "yes" })).rejects.toMatchObject({ code: "invalid" });
    expect(await (await db()).user.findUnique({ where: { id: t.users.live.id } })).not.toBeNull();
  });

  it("leaves no row naming the person in any table, and nothing of another person is touched", async () => {
    await fill(t);
    const u = t.users.live.id;
    const { phoneHash } = await (await db()).user.findUniqueOrThrow({ where: { id: u } });
    const before = await rowsOf(u, phoneHash!);
    // The fixture reaches most tables; each one it reaches must be emptied.
    expect(Object.keys(before).length).toBeGreaterThanOrEqual(15);
    const otherBefore = await rowsOf(other.users.live.id, (await (await db()).user.findUniqueOrThrow({ where: { id: other.users.live.id } })).phoneHash!);

    const token = (await issueAgentToken({ userId: u, developerId: t.developer.id, agentId: t.agent.id, agent: t.agent.handle, plane: "live" })).token;
    expect(await deleteAccount({ userId: u, confirmation: ` ${DELETE_CONFIRMATION_WORD.toUpperCase()} ` })).toBe(true);

    expect(await rowsOf(u, phoneHash!)).toEqual({});
    // The other person's rows are all still there (their access log may have grown meanwhile).
    const otherAfter = await rowsOf(other.users.live.id, (await (await db()).user.findUniqueOrThrow({ where: { id: other.users.live.id } })).phoneHash!);
    for (const [column, n] of Object.entries(otherBefore)) expect(otherAfter[column], column).toBeGreaterThanOrEqual(n);
    // The person's tokens name no one any more.
    const res = await call(profileRoute.GET, { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle, authorization: `Bearer ${token}` } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await deleteAccount({ userId: u, confirmation: DELETE_CONFIRMATION_WORD })).toBe(false);
    await expect(revokeAgent({ userId: u, agentId: t.agent.id })).rejects.toMatchObject({ code: "not_found" });
  });
});
