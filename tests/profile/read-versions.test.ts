// GET /v1/profile reuses a composed read while users.profile_version holds (lib/profile/read.ts), and
// the triggers of migration profile_version raise it on every change the read shows: a repeated read is
// the same composition, and a read after any such change, by any writer, is a new one.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "@/lib/agents/agents";
import { database, db } from "@/lib/platform/db";
import { readProfile } from "@/lib/profile/read";
import { approveAgent } from "@/lib/users/approvals";
import { createTenant, type Tenant } from "../helpers/fixtures";

let t: Tenant;
let userId: string;
let agentId: string;
let other: { id: string };

async function sql(text: string, values: unknown[] = []) {
  return (await database()).sql.query(text, values);
}

const read = () => readProfile({ userId, agentId });
const version = async () => ((await sql(`SELECT profile_version FROM users WHERE id = $1`, [userId]))[0] as { profile_version: number }).profile_version;

beforeAll(async () => {
  t = await createTenant();
  userId = t.users.live.id;
  agentId = t.agent.id;
  other = await createAgent({ developerId: t.developer.id, handle: "second", displayName: "Second Agent" });
  await approveAgent({ userId, agentId: other.id });
});

describe("a composed read, kept by profile version", () => {
  it("is reused while nothing it shows has changed: the same composition, frozen", async () => {
    const first = await read();
    const again = await read();
    expect(again).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.identity)).toBe(true);
    // Another set of sections is another composition.
    const summary = await readProfile({ userId, agentId, sections: ["summary"] });
    expect(Object.keys(summary).sort()).toEqual(["linked", "summary"]);
    expect(await readProfile({ userId, agentId, sections: ["summary"] })).toBe(summary);
  });

  it("is made anew after the person's own row changes (a claim)", async () => {
    const before = await read();
    await sql(`UPDATE users SET name = 'Renamed Person' WHERE id = $1`, [userId]);
    const after = await read();
    expect(after).not.toBe(before);
    expect(after.identity?.name).toBe("Renamed Person");
  });

  it("is made anew after the composition changes", async () => {
    const before = await read();
    await sql(
      `INSERT INTO user_profiles (user_id, identity, preferences, summary, updated_at) VALUES ($1, '{}', '[]', 'Composed anew', now())
       ON CONFLICT (user_id) DO UPDATE SET summary = 'Composed anew'`,
      [userId],
    );
    const after = await read();
    expect(after).not.toBe(before);
    expect(after.summary).toBe("Composed anew");
  });

  it("is made anew after an approval is revoked, and after an approved agent is renamed", async () => {
    const before = await read();
    expect(before.agents?.map((a) => a.handle)).toContain("second");
    await sql(`UPDATE agents SET display_name = 'Second, renamed' WHERE id = $1`, [other.id]);
    const renamed = await read();
    expect(renamed).not.toBe(before);
    expect(renamed.agents?.find((a) => a.handle === "second")?.display_name).toBe("Second, renamed");
    await sql(`UPDATE agent_approvals SET revoked_at = now() WHERE user_id = $1 AND agent_id = $2`, [userId, other.id]);
    const revoked = await read();
    expect(revoked.agents?.map((a) => a.handle)).not.toContain("second");
  });

  it("is made anew after an import; a change to an agent nobody here approved leaves it", async () => {
    const unrelated = await createAgent({ developerId: t.developer.id, handle: "unrelated", displayName: "Unrelated" });
    const before = await read();
    await sql(`UPDATE agents SET display_name = 'Still unrelated' WHERE id = $1`, [unrelated.id]);
    expect(await read()).toBe(before);
    await sql(`INSERT INTO imports (id, user_id, provider, source, memory_count, created_at) VALUES ($1, $2, 'chatgpt', 'paste', 3, now())`, [
      `imp_${randomUUID().replaceAll("-", "")}`,
      userId,
    ]);
    const after = await read();
    expect(after).not.toBe(before);
    expect(after.imports).toHaveLength((before.imports?.length ?? 0) + 1);
  });

  it("is made anew when a connection comes, changes state or goes; a token refresh leaves it", async () => {
    const before = await read();
    await sql(
      `INSERT INTO app_connections (id, user_id, app, provider, account_id, account_email, access_token_sealed, status, created_at, updated_at)
       VALUES ($1, $2, 'notion', 'notion', 'acct-1', null, 'sealed', 'active', now(), now())`,
      [randomUUID(), userId],
    );
    const connected = await read();
    expect(connected).not.toBe(before);
    expect(connected.integrations).toContain("notion");
    const at = await version();
    await sql(`UPDATE app_connections SET access_token_sealed = 'sealed-again', access_token_expires_at = now() WHERE user_id = $1`, [userId]);
    expect(await version()).toBe(at);
    expect(await read()).toBe(connected);
    await sql(`UPDATE app_connections SET status = 'needs_reconnect' WHERE user_id = $1`, [userId]);
    const broken = await read();
    expect(broken.integrations).not.toContain("notion");
    await sql(`DELETE FROM app_connections WHERE user_id = $1`, [userId]);
    expect((await read()).connections).toEqual([]);
  });

  it("raises the version at the writer's commit, inside its transaction", async () => {
    const at = await version();
    await (
      await db()
    ).$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE user_profiles SET summary = 'First' WHERE user_id = ${userId}::uuid`;
      // Not yet: the triggers are deferred to the commit.
      const [inside] = await tx.$queryRaw<{ profile_version: number }[]>`SELECT profile_version FROM users WHERE id = ${userId}::uuid`;
      expect(inside?.profile_version).toBe(at);
      await tx.$executeRaw`UPDATE user_profiles SET summary = 'Second' WHERE user_id = ${userId}::uuid`;
    });
    expect(await version()).toBeGreaterThan(at);
    expect((await read()).summary).toBe("Second");
  });
});
