// Outlook connections against a local stand-in for the Microsoft identity platform and Graph's /me:
// consent with PKCE, the mailbox's address as proof, refresh before expiry, a revoked grant marked for
// reconnection, disconnect deleting the tokens.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { startMicrosoftProvider } from "../helpers/microsoft-provider";

let provider: Awaited<ReturnType<typeof startMicrosoftProvider>>;
let conn: typeof import("@/lib/connectors/connections");

beforeAll(async () => {
  provider = await startMicrosoftProvider({ redirectUri: "http://localhost:3000/connect/callback", mail: "alan@contoso.example" });
  Object.assign(process.env, provider.env);
  (await import("@/lib/env")).resetEnvForTests();
  conn = await import("@/lib/connectors/connections");
});
afterAll(() => provider.close());
afterEach(() => resetClockForTests());

describe("connecting Outlook", () => {
  it("stores the mailbox's address from Graph, refreshes, and deletes the tokens on disconnect", async () => {
    const { url, cookie } = await conn.startConnection({ app: "outlook", flowId: "ms-flow-1" });
    expect(url.searchParams.get("scope")).toBe("offline_access User.Read Mail.Read");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    const done = await conn.finishConnection(await provider.consent(url), cookie);
    expect(done).toMatchObject({ app: "outlook", accountEmail: "alan@contoso.example" });
    const row = await (await db()).appConnection.findUniqueOrThrow({ where: { id: done.id } });
    expect(row).toMatchObject({ provider: "microsoft", accountId: "ms-account-1", status: "active" });
    const first = await conn.accessTokenFor(done.id);
    advanceClockForTests((3600 - conn.REFRESH_AHEAD_SECONDS + 10) * 1000);
    const second = await conn.accessTokenFor(done.id);
    expect(second).not.toBe(first);
    await conn.deleteAppConnection(done.id);
    expect(await (await db()).appConnection.findUnique({ where: { id: done.id } })).toBeNull();
  });

  it("marks the connection for reconnection when the refresh token is refused", async () => {
    const started = await conn.startConnection({ app: "outlook", flowId: "ms-flow-2" });
    const done = await conn.finishConnection(await provider.consent(started.url), started.cookie);
    const { sealSecret } = await import("@/lib/platform/crypto");
    await (await db()).appConnection.update({ where: { id: done.id }, data: { refreshTokenSealed: sealSecret("connection-token", "not-a-refresh-token") } });
    advanceClockForTests(3600 * 1000);
    await expect(conn.accessTokenFor(done.id)).rejects.toMatchObject({ reason: "needs_reconnect" });
  });
});
