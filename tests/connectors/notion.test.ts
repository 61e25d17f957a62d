// Notion connections against a local server speaking Notion's OAuth (JSON token endpoint with HTTP
// Basic): consent, the owner's account, refresh before expiry, a refused refresh marked for
// reconnection, disconnect revoking at Notion.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { openSecret } from "@/lib/platform/crypto";
import { db } from "@/lib/platform/db";
import { startNotionServer } from "../helpers/notion-server";

let notion: Awaited<ReturnType<typeof startNotionServer>>;
let conn: typeof import("@/lib/connectors/connections");

beforeAll(async () => {
  notion = await startNotionServer({ email: "ada@notion.example" });
  Object.assign(process.env, notion.env);
  (await import("@/lib/env")).resetEnvForTests();
  conn = await import("@/lib/connectors/connections");
});
afterAll(() => notion.close());
afterEach(() => resetClockForTests());

describe("connecting Notion", () => {
  it("stores the owner's account, refreshes before expiry, and revokes at Notion on disconnect", async () => {
    const { url, cookie } = await conn.startConnection({ app: "notion", flowId: "notion-flow-1" });
    expect(url.searchParams.get("owner")).toBe("user");
    const done = await conn.finishConnection(await notion.consent(url), cookie);
    expect(done).toMatchObject({ app: "notion", accountEmail: "ada@notion.example" });
    const first = await conn.accessTokenFor(done.id);
    advanceClockForTests((3600 - conn.REFRESH_AHEAD_SECONDS + 10) * 1000);
    const second = await conn.accessTokenFor(done.id);
    expect(second).not.toBe(first);
    const row = await (await db()).appConnection.findUniqueOrThrow({ where: { id: done.id } });
    const refresh = openSecret("connection-token", row.refreshTokenSealed!);
    expect(notion.isRefreshValid(refresh)).toBe(true);
    await conn.deleteAppConnection(done.id);
    expect(notion.isRefreshValid(refresh)).toBe(false);
    expect(await (await db()).appConnection.findUnique({ where: { id: done.id } })).toBeNull();
  });

  it("marks the connection for reconnection when Notion refuses the refresh", async () => {
    const started = await conn.startConnection({ app: "notion", flowId: "notion-flow-2" });
    const done = await conn.finishConnection(await notion.consent(started.url), started.cookie);
    const row = await (await db()).appConnection.findUniqueOrThrow({ where: { id: done.id } });
    await fetch(notion.env.NOTION_REVOCATION_URL, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Basic ${Buffer.from("notion-test-client:notion-test-secret").toString("base64")}` },
      body: JSON.stringify({ token: openSecret("connection-token", row.refreshTokenSealed!) }),
    });
    advanceClockForTests(3600 * 1000);
    await expect(conn.accessTokenFor(done.id)).rejects.toMatchObject({ reason: "needs_reconnect" });
  });
});
