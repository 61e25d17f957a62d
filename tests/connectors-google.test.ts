// Google connections (Gmail, Calendar, Drive) against a local provider speaking Google's OAuth side:
// consent with PKCE, tokens sealed at rest, refresh before expiry, a revoked grant detected and shown
// as needing reconnection, disconnect revoking at the provider, and the attempt's single use.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { advanceClockForTests, resetClockForTests } from "@/lib/clock";
import { db } from "@/lib/db";
import { startGoogleProvider } from "./helpers/google-provider";

let provider: Awaited<ReturnType<typeof startGoogleProvider>>;
let conn: typeof import("@/lib/connectors/connections");

beforeAll(async () => {
  provider = await startGoogleProvider({ redirectUri: "http://localhost:3000/connect/callback", email: "ada@example.com" });
  Object.assign(process.env, provider.env);
  (await import("@/lib/env")).resetEnvForTests();
  conn = await import("@/lib/connectors/connections");
});
afterAll(() => provider.close());
afterEach(() => resetClockForTests());

async function connect(input: { app: string; flowId?: string; userId?: string }) {
  const url = await conn.startConnection(input);
  expect(url.searchParams.get("code_challenge_method")).toBe("S256");
  expect(url.searchParams.get("access_type")).toBe("offline");
  const back = await provider.consent(url);
  expect(back.origin + back.pathname).toBe("http://localhost:3000/connect/callback");
  return conn.finishConnection(back);
}

describe("connecting Gmail", () => {
  it("stores the account's verified address and sealed tokens for the flow, then for the person", async () => {
    const done = await connect({ app: "gmail", flowId: "flow-1" });
    expect(done).toMatchObject({ app: "gmail", flowId: "flow-1", userId: null, accountEmail: "ada@example.com" });
    const row = await (await db()).appConnection.findUniqueOrThrow({ where: { id: done.id } });
    expect(row).toMatchObject({ provider: "google", accountId: "google-account-1", status: "active" });
    expect(row.refreshTokenSealed).toMatch(/^v1\./);
    expect(row.accessTokenSealed).toMatch(/^v1\./);
    const token = await conn.accessTokenFor(done.id);
    expect(JSON.stringify(row)).not.toContain(token);

    const { createUser } = await import("@/lib/users/users");
    const user = await createUser({ plane: "live" });
    const moved = await (await db()).$transaction((tx) => conn.attachFlowConnections(tx, { flowId: "flow-1", userId: user.id }));
    expect(moved).toEqual(["gmail"]);
    expect(await (await db()).appConnection.findUniqueOrThrow({ where: { id: done.id } })).toMatchObject({ userId: user.id, flowId: null });
  });

  it("refreshes the access token when it is about to expire", async () => {
    const { id } = await connect({ app: "calendar", flowId: "flow-2" });
    const first = await conn.accessTokenFor(id);
    expect(await conn.accessTokenFor(id)).toBe(first);
    advanceClockForTests((3600 - conn.REFRESH_AHEAD_SECONDS + 10) * 1000);
    const second = await conn.accessTokenFor(id);
    expect(second).not.toBe(first);
    expect(await conn.accessTokenFor(id)).toBe(second);
  });

  it("marks a connection whose grant the provider revoked as needing reconnection", async () => {
    const { id } = await connect({ app: "drive", flowId: "flow-3" });
    const row = await (await db()).appConnection.findUniqueOrThrow({ where: { id } });
    const { openSecret } = await import("@/lib/crypto");
    await provider.revokeAtProvider(openSecret("connection-token", row.refreshTokenSealed!));
    advanceClockForTests(3600 * 1000);
    await expect(conn.accessTokenFor(id)).rejects.toMatchObject({ reason: "needs_reconnect" });
    expect((await (await db()).appConnection.findUniqueOrThrow({ where: { id } })).status).toBe("needs_reconnect");
  });

  it("revokes at the provider and deletes the tokens on disconnect", async () => {
    const { id } = await connect({ app: "gmail", flowId: "flow-4" });
    const row = await (await db()).appConnection.findUniqueOrThrow({ where: { id } });
    const { openSecret } = await import("@/lib/crypto");
    const refreshToken = openSecret("connection-token", row.refreshTokenSealed!);
    await conn.disconnect(id);
    expect(await (await db()).appConnection.findUnique({ where: { id } })).toBeNull();
    const { google } = await import("@/lib/connectors/google");
    await expect(google.refresh(refreshToken)).rejects.toMatchObject({ name: "ProviderGrantError" });
  });

  it("uses an attempt once, refuses it after 10 minutes, and reports a decline", async () => {
    const url = await conn.startConnection({ app: "gmail", flowId: "flow-5" });
    const back = await provider.consent(url);
    await conn.finishConnection(back);
    await expect(conn.finishConnection(back)).rejects.toMatchObject({ reason: "unknown_attempt" });

    const late = await conn.startConnection({ app: "gmail", flowId: "flow-5" });
    advanceClockForTests(conn.CONNECT_ATTEMPT_TTL_SECONDS * 1000 + 1);
    const lateBack = await provider.consent(late);
    await expect(conn.finishConnection(lateBack)).rejects.toMatchObject({ reason: "expired" });
    resetClockForTests();

    const declined = await conn.startConnection({ app: "gmail", flowId: "flow-5" });
    const state = declined.searchParams.get("state")!;
    await expect(conn.finishConnection(new URL(`http://localhost:3000/connect/callback?error=access_denied&state=${state}`))).rejects.toMatchObject({ reason: "declined" });
    await expect(conn.startConnection({ app: "sheets", flowId: "flow-5" })).rejects.toMatchObject({ reason: "unknown_app" });
  });
});
