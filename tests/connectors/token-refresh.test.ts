// One refresh of a connection's tokens across processes (lib/connectors/token-refresh.ts): two
// processes that read the same expiring token refresh it once at the provider, through the row's
// refresh lease, and both use the token that refresh stored. A lease whose holder died runs out.
// Each "process" here is a call of refreshConnectionToken with its own view of the row, as two
// instances' calls are: they share the database, never memory.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { advanceClockForTests, now, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { startMicrosoftProvider } from "../helpers/microsoft-provider";

let provider: Awaited<ReturnType<typeof startMicrosoftProvider>>;
let conn: typeof import("@/lib/connectors/connections");
let refresh: typeof import("@/lib/connectors/token-refresh");

beforeAll(async () => {
  provider = await startMicrosoftProvider({ redirectUri: "http://localhost:3000/connect/callback", mail: "grace@contoso.example" });
  Object.assign(process.env, provider.env);
  (await import("@/lib/env")).resetEnvForTests();
  conn = await import("@/lib/connectors/connections");
  refresh = await import("@/lib/connectors/token-refresh");
});
afterAll(() => provider.close());
afterEach(() => resetClockForTests());

async function connected(flowId: string) {
  const { url, cookie } = await conn.startConnection({ app: "outlook", flowId });
  const done = await conn.finishConnection(await provider.consent(url), cookie);
  return (await db()).appConnection.findUniqueOrThrow({ where: { id: done.id } });
}

describe("refreshing one connection from several processes", () => {
  it("two processes refreshing at once make one refresh at the provider and both use its token", async () => {
    const row = await connected("lease-flow-1");
    advanceClockForTests((3600 - refresh.REFRESH_AHEAD_SECONDS + 10) * 1000);
    const before = provider.tokenRequests();
    const [a, b] = await Promise.all([refresh.refreshConnectionToken(row), refresh.refreshConnectionToken(row)]);
    expect(provider.tokenRequests() - before).toBe(1);
    expect(b).toBe(a);
    const after = await (await db()).appConnection.findUniqueOrThrow({ where: { id: row.id } });
    expect(after).toMatchObject({ status: "active", refreshLeaseUntil: null });
    expect(after.accessTokenSealed).not.toBe(row.accessTokenSealed);
    // The token both got works at the provider.
    expect(await provider.introspect(a)).toMatchObject({ account: "ms-account-1" });
  });

  it("a process that comes after the refresh uses the stored token without asking the provider again", async () => {
    const row = await connected("lease-flow-2");
    advanceClockForTests((3600 - refresh.REFRESH_AHEAD_SECONDS + 10) * 1000);
    const first = await refresh.refreshConnectionToken(row);
    const before = provider.tokenRequests();
    // Its view of the row is the one from before the refresh.
    expect(await refresh.refreshConnectionToken(row)).toBe(first);
    expect(provider.tokenRequests()).toBe(before);
  });

  it("a lease whose holder died lets the next process refresh once it runs out", async () => {
    const row = await connected("lease-flow-3");
    advanceClockForTests((3600 - refresh.REFRESH_AHEAD_SECONDS + 10) * 1000);
    // A process claimed the refresh and was killed before it stored anything.
    await (await db()).appConnection.update({ where: { id: row.id }, data: { refreshLeaseUntil: new Date(now().getTime() + refresh.REFRESH_LEASE_MS) } });
    const before = provider.tokenRequests();
    let settled = false;
    const waiting = refresh.refreshConnectionToken(row).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    expect(provider.tokenRequests()).toBe(before);
    advanceClockForTests(refresh.REFRESH_LEASE_MS);
    const token = await waiting;
    expect(provider.tokenRequests() - before).toBe(1);
    expect(await provider.introspect(token)).toMatchObject({ account: "ms-account-1" });
  });

  it("a refused grant ends the lease with the connection marked for reconnection, for the waiting process too", async () => {
    const row = await connected("lease-flow-4");
    const { sealSecret } = await import("@/lib/platform/crypto");
    const broken = await (await db()).appConnection.update({ where: { id: row.id }, data: { refreshTokenSealed: sealSecret(refresh.TOKEN_PURPOSE, "not-a-refresh-token") } });
    advanceClockForTests(3600 * 1000);
    const outcomes = await Promise.allSettled([refresh.refreshConnectionToken(broken), refresh.refreshConnectionToken(broken)]);
    for (const o of outcomes) expect(o).toMatchObject({ status: "rejected", reason: { reason: "needs_reconnect" } });
    expect(await (await db()).appConnection.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "needs_reconnect", refreshLeaseUntil: null });
  });
});
