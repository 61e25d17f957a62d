// Google connections (Gmail, Calendar, Drive, Sheets) against a local provider speaking Google's OAuth side:
// consent with PKCE, tokens sealed at rest, refresh before expiry, a revoked grant detected and shown
// as needing reconnection, disconnect revoking at the provider, and the attempt's single use.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { startGoogleProvider } from "../helpers/google-provider";

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
  const { url, cookie } = await conn.startConnection(input);
  expect(url.searchParams.get("code_challenge_method")).toBe("S256");
  expect(url.searchParams.get("access_type")).toBe("offline");
  const back = await provider.consent(url);
  expect(back.origin + back.pathname).toBe("http://localhost:3000/connect/callback");
  return conn.finishConnection(back, cookie);
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
    const { openSecret } = await import("@/lib/platform/crypto");
    await provider.revokeAtProvider(openSecret("connection-token", row.refreshTokenSealed!));
    advanceClockForTests(3600 * 1000);
    await expect(conn.accessTokenFor(id)).rejects.toMatchObject({ reason: "needs_reconnect" });
    expect((await (await db()).appConnection.findUniqueOrThrow({ where: { id } })).status).toBe("needs_reconnect");
  });

  it("revokes at the provider and deletes the tokens on disconnect", async () => {
    const { id } = await connect({ app: "gmail", flowId: "flow-4" });
    const row = await (await db()).appConnection.findUniqueOrThrow({ where: { id } });
    const { openSecret } = await import("@/lib/platform/crypto");
    const refreshToken = openSecret("connection-token", row.refreshTokenSealed!);
    await conn.deleteAppConnection(id);
    expect(await (await db()).appConnection.findUnique({ where: { id } })).toBeNull();
    const { google } = await import("@/lib/connectors/google");
    await expect(google.refresh(refreshToken)).rejects.toMatchObject({ name: "ProviderGrantError" });
  });

  it("uses an attempt once, refuses it after 10 minutes, and reports a decline", async () => {
    const { url, cookie } = await conn.startConnection({ app: "gmail", flowId: "flow-5" });
    const back = await provider.consent(url);
    // The consent link sent on to another browser: that browser cannot finish it, nor use it up.
    await expect(conn.finishConnection(back, null)).rejects.toMatchObject({ reason: "other_browser", flowId: null });
    const other = await conn.startConnection({ app: "gmail", flowId: "flow-5" });
    await expect(conn.finishConnection(back, other.cookie)).rejects.toMatchObject({ reason: "other_browser" });
    await conn.finishConnection(back, `theme=dark; ${cookie}`);
    await expect(conn.finishConnection(back, cookie)).rejects.toMatchObject({ reason: "unknown_attempt" });

    const { url: late, cookie: lateCookie } = await conn.startConnection({ app: "gmail", flowId: "flow-5" });
    advanceClockForTests(conn.CONNECT_ATTEMPT_TTL_SECONDS * 1000 + 1);
    const lateBack = await provider.consent(late);
    await expect(conn.finishConnection(lateBack, lateCookie)).rejects.toMatchObject({ reason: "expired" });
    resetClockForTests();

    const { url: declined, cookie: declinedCookie } = await conn.startConnection({ app: "gmail", flowId: "flow-5" });
    const state = declined.searchParams.get("state")!;
    await expect(conn.finishConnection(new URL(`http://localhost:3000/connect/callback?error=access_denied&state=${state}`), declinedCookie)).rejects.toMatchObject({
      reason: "declined",
    });
    await expect(conn.startConnection({ app: "dropbox", flowId: "flow-5" })).rejects.toMatchObject({ reason: "unknown_app" });
  });
});

describe("connecting Google Sheets", () => {
  it("asks Google for the Sheets read-only scope and stores what was granted", async () => {
    const { url, cookie } = await conn.startConnection({ app: "sheets", flowId: "flow-sheets" });
    expect(url.searchParams.get("scope")?.split(" ")).toEqual(["openid", "email", "https://www.googleapis.com/auth/spreadsheets.readonly"]);
    const done = await conn.finishConnection(await provider.consent(url), cookie);
    expect(done).toMatchObject({ app: "sheets", flowId: "flow-sheets", accountEmail: "ada@example.com" });
    const row = await (await db()).appConnection.findUniqueOrThrow({ where: { id: done.id } });
    expect(row).toMatchObject({ provider: "google", status: "active" });
    expect(row.scopes).toContain("https://www.googleapis.com/auth/spreadsheets.readonly");
  });
});

describe("from the person's account page", () => {
  const session = async (userId: string) => {
    const { encode } = await import("next-auth/jwt");
    const { env } = await import("@/lib/env");
    return `authjs.session-token=${await encode({ token: { sub: userId }, secret: env().AUTH_SECRET, salt: "authjs.session-token" })}`;
  };

  it("connects for the signed-in person, returns to the account page, and disconnects only their own app", async () => {
    const { GET: connectFromAccount } = await import("@/app/(hosted)/account/connect/[app]/route");
    const { GET: callback } = await import("@/app/(hosted)/connect/callback/route");
    const { createUser } = await import("@/lib/users/users");
    const ada = await createUser({ plane: "live" });
    const bob = await createUser({ plane: "live" });
    const params = (app: string) => ({ params: Promise.resolve({ app }) });

    // Not signed in: back to the account page, which offers signing in.
    const anonymous = await connectFromAccount(new Request("http://localhost:3000/account/connect/gmail"), params("gmail"));
    expect(anonymous.headers.get("location")).toBe("http://localhost:3000/account");

    const startFor = async (userId: string) => {
      const start = await connectFromAccount(new Request("http://localhost:3000/account/connect/gmail", { headers: { cookie: await session(userId) } }), params("gmail"));
      const setCookie = start.headers.get("set-cookie")!;
      expect(setCookie).toMatch(/; Path=\/connect\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/);
      return { back: await provider.consent(new URL(start.headers.get("location")!)), attempt: setCookie.split(";")[0]! };
    };

    // Bob sends his consent link to Ada, who agrees at Google in her own browser: it is refused there.
    const sent = await startFor(bob.id);
    const refused = await callback(new Request(sent.back, { headers: { cookie: await session(ada.id) } }));
    expect(refused.headers.get("location")).toBe("http://localhost:3000/account?connect_error=other_browser");
    const anonymous2 = await callback(new Request(sent.back));
    expect(anonymous2.status).toBe(400);
    expect(await anonymous2.text()).toContain("This connection was started in another browser.");
    expect(await conn.connectionsOf(bob.id)).toEqual([]);
    expect(await conn.connectionsOf(ada.id)).toEqual([]);

    for (const user of [ada, bob]) {
      const { back, attempt } = await startFor(user.id);
      const done = await callback(new Request(back, { headers: { cookie: `${await session(user.id)}; ${attempt}` } }));
      expect(done.headers.get("location")).toBe("http://localhost:3000/account?connected=gmail");
      expect(done.headers.get("set-cookie")).toBe(`${attempt.split("=")[0]}=; Path=/connect/callback; Max-Age=0; HttpOnly; SameSite=Lax`);
    }
    expect(await conn.connectionsOf(ada.id)).toEqual([expect.objectContaining({ app: "gmail", accountEmail: "ada@example.com", status: "active" })]);
    // The mailbox's address becomes the account's, as when connected in a flow.
    expect((await (await db()).user.findUniqueOrThrow({ where: { id: ada.id } })).email).toBe("ada@example.com");

    const unknown = await connectFromAccount(new Request("http://localhost:3000/account/connect/dropbox", { headers: { cookie: await session(ada.id) } }), params("dropbox"));
    expect(unknown.headers.get("location")).toBe("http://localhost:3000/account?connect_error=unknown_app");

    expect(await conn.disconnectApp(ada.id, "drive")).toBe(false);
    expect(await conn.disconnectApp(ada.id, "gmail")).toBe(true);
    expect(await conn.connectionsOf(ada.id)).toEqual([]);
    expect(await conn.connectionsOf(bob.id)).toHaveLength(1);
  });

  it("sends a signed-in person connecting inside a flow back to that flow", async () => {
    const { GET: callback } = await import("@/app/(hosted)/connect/callback/route");
    const { createUser } = await import("@/lib/users/users");
    const user = await createUser({ plane: "live" });
    const { url, cookie } = await conn.startConnection({ app: "calendar", flowId: "flow-signed-in", userId: user.id });
    const done = await callback(new Request(await provider.consent(url), { headers: { cookie } }));
    expect(done.headers.get("location")).toBe("http://localhost:3000/flow/flow-signed-in");
    expect(await conn.connectionsOf(user.id)).toEqual([expect.objectContaining({ app: "calendar" })]);
  });
});
