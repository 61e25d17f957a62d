// Dashboard sign-in by e-mailed code: single use, 10 minutes, 5 tries, a new code after 30 seconds,
// limits per address and per IP; the account a new address makes; invitations and roles; and the
// dashboard's own next-auth instance, apart from the person's session.
import { NextRequest } from "next/server.js";
import { encode } from "next-auth/jwt";
import { afterEach, describe, expect, it } from "vitest";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { env } from "@/lib/env";

afterEach(() => resetClockForTests());

let ipCounter = 0;
const freshIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

async function lastMailTo(email: string) {
  const m = await (await db()).emailOutbox.findFirst({ where: { to: email }, orderBy: { createdAt: "desc" } });
  return m!;
}
const codeOf = (body: string) => body.match(/Enter (\d{6}) to sign in/)![1]!;

async function signedUp(email: string, accountName = "Acme") {
  const { sendDashboardCode, verifyDashboardCode } = await import("@/lib/developer-auth/codes");
  await sendDashboardCode({ email, ip: freshIp() });
  const user = await verifyDashboardCode({ email, code: codeOf((await lastMailTo(email)).body) });
  const { createFirstAccount } = await import("@/lib/developer-auth/accounts");
  const { developerId } = await createFirstAccount({ dashboardUserId: user.id, name: accountName });
  return { user, developerId };
}

describe("dashboard sign-in codes", () => {
  it("are e-mailed with a one-click link, work once, and make the address's dashboard user", async () => {
    const { sendDashboardCode, verifyDashboardCode, SIGN_IN_LINK_PATH } = await import("@/lib/developer-auth/codes");
    const { DASHBOARD_MESSAGES } = await import("@/lib/developer-auth/errors");
    await expect(sendDashboardCode({ email: "not an address", ip: freshIp() })).rejects.toMatchObject({ reason: "invalid_email", message: DASHBOARD_MESSAGES.invalid_email });
    await sendDashboardCode({ email: " Ada@Example.com ", ip: freshIp() });
    const mail = await lastMailTo("ada@example.com");
    const code = codeOf(mail.body);
    const link = new URL(mail.body.match(/https?:\/\/\S+/)![0]);
    expect(link.pathname).toBe(SIGN_IN_LINK_PATH);
    expect(link.searchParams.get("email")).toBe("ada@example.com");
    expect(link.searchParams.get("code")).toBe(code);
    const stored = await (await db()).dashboardSignInCode.findFirst({ where: { email: "ada@example.com" } });
    expect(stored!.codeHash).not.toContain(code);

    const user = await verifyDashboardCode({ email: "ADA@example.com", code });
    expect(user.email).toBe("ada@example.com");
    await expect(verifyDashboardCode({ email: "ada@example.com", code })).rejects.toMatchObject({ reason: "expired" });
    const again = await (await db()).dashboardUser.findMany({ where: { email: "ada@example.com" } });
    expect(again).toHaveLength(1);
  });

  it("expire after 10 minutes", async () => {
    const { sendDashboardCode, verifyDashboardCode } = await import("@/lib/developer-auth/codes");
    await sendDashboardCode({ email: "late@example.com", ip: freshIp() });
    const code = codeOf((await lastMailTo("late@example.com")).body);
    advanceClockForTests(10 * 60_000 + 1000);
    await expect(verifyDashboardCode({ email: "late@example.com", code })).rejects.toMatchObject({ reason: "expired" });
    expect(await (await db()).dashboardUser.count({ where: { email: "late@example.com" } })).toBe(0);
  });

  it("allow 5 tries: the right code after 5 wrong ones is refused", async () => {
    const { sendDashboardCode, verifyDashboardCode } = await import("@/lib/developer-auth/codes");
    await sendDashboardCode({ email: "guess@example.com", ip: freshIp() });
    const code = codeOf((await lastMailTo("guess@example.com")).body);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 4; i++) await expect(verifyDashboardCode({ email: "guess@example.com", code: wrong })).rejects.toMatchObject({ reason: "wrong_code" });
    await expect(verifyDashboardCode({ email: "guess@example.com", code: wrong })).rejects.toMatchObject({ reason: "too_many_attempts" });
    await expect(verifyDashboardCode({ email: "guess@example.com", code })).rejects.toMatchObject({ reason: "too_many_attempts" });
  });

  it("are sent again only after 30 seconds, 5 an hour per address and 20 an hour per IP", async () => {
    const { sendDashboardCode, DASHBOARD_CODE_LIMITS } = await import("@/lib/developer-auth/codes");
    await sendDashboardCode({ email: "busy@example.com", ip: freshIp() });
    await expect(sendDashboardCode({ email: "busy@example.com", ip: freshIp() })).rejects.toMatchObject({ reason: "resend_too_soon" });
    for (let i = 1; i < DASHBOARD_CODE_LIMITS.perAddressPerHour; i++) {
      advanceClockForTests(31_000);
      await sendDashboardCode({ email: "busy@example.com", ip: freshIp() });
    }
    advanceClockForTests(31_000);
    await expect(sendDashboardCode({ email: "busy@example.com", ip: freshIp() })).rejects.toMatchObject({ reason: "rate_limited" });

    const ip = "10.99.0.1";
    for (let i = 0; i < DASHBOARD_CODE_LIMITS.perIpPerHour; i++) await sendDashboardCode({ email: `spray${i}@example.com`, ip });
    await expect(sendDashboardCode({ email: "spray-last@example.com", ip })).rejects.toMatchObject({ reason: "rate_limited" });
    expect(await (await db()).dashboardSignInCode.count({ where: { email: "spray-last@example.com" } })).toBe(0);
  });
});

describe("developer accounts", () => {
  it("a new address names its account once and owns it", async () => {
    const { user, developerId } = await signedUp("founder@example.com", "Founder Co");
    const { createFirstAccount, membershipsOf } = await import("@/lib/developer-auth/accounts");
    expect(await membershipsOf(user.id)).toEqual([{ developerId, name: "Founder Co", role: "owner", sandbox: false }]);
    // Asked once: a second submission makes nothing new.
    expect(await createFirstAccount({ dashboardUserId: user.id, name: "Other" })).toEqual({ developerId });
    expect(await (await db()).developer.count({ where: { name: "Other" } })).toBe(0);
    await expect(createFirstAccount({ dashboardUserId: "00000000-0000-4000-8000-000000000000", name: "  " })).rejects.toMatchObject({ reason: "invalid_name" });
  });

  it("owners invite by e-mail; the invited address accepts once; members cannot manage members", async () => {
    const owner = await signedUp("owner@example.com", "Team");
    const { inviteMember, acceptInvite, inviteByToken, pendingInvites } = await import("@/lib/developer-auth/invites");
    const { listMembers, changeMemberRole, removeMember, membershipsOf } = await import("@/lib/developer-auth/accounts");
    await inviteMember({ actorId: owner.user.id, developerId: owner.developerId, email: "Mate@Example.com", role: "member" });
    const mail = await lastMailTo("mate@example.com");
    const token = new URL(mail.body.match(/https?:\/\/\S+/)![0]).searchParams.get("token")!;
    expect(await inviteByToken(token)).toEqual({ email: "mate@example.com", role: "member", accountName: "Team" });
    expect((await (await db()).developerInvite.findFirst({ where: { email: "mate@example.com" } }))!.tokenHash).not.toContain(token);
    expect(await pendingInvites(owner.developerId)).toHaveLength(1);

    // Someone signed in with another address cannot take it.
    const stranger = await signedUp("stranger@example.com", "Stranger");
    await expect(acceptInvite({ dashboardUserId: stranger.user.id, token })).rejects.toMatchObject({ reason: "invite_other_address" });

    const { sendDashboardCode, verifyDashboardCode } = await import("@/lib/developer-auth/codes");
    await sendDashboardCode({ email: "mate@example.com", ip: freshIp() });
    const mate = await verifyDashboardCode({ email: "mate@example.com", code: codeOf((await lastMailTo("mate@example.com")).body) });
    expect(await acceptInvite({ dashboardUserId: mate.id, token })).toEqual({ developerId: owner.developerId });
    await expect(acceptInvite({ dashboardUserId: mate.id, token })).rejects.toMatchObject({ reason: "invite_invalid" });
    expect(await inviteByToken(token)).toBeNull();
    expect((await membershipsOf(mate.id)).map((m) => [m.name, m.role])).toEqual([["Team", "member"]]);

    // A member cannot invite, change roles or remove anyone.
    await expect(inviteMember({ actorId: mate.id, developerId: owner.developerId, email: "x@example.com", role: "owner" })).rejects.toMatchObject({ reason: "owner_only" });
    await expect(changeMemberRole({ actorId: mate.id, developerId: owner.developerId, memberId: mate.id, role: "owner" })).rejects.toMatchObject({ reason: "owner_only" });
    await expect(removeMember({ actorId: mate.id, developerId: owner.developerId, memberId: owner.user.id })).rejects.toMatchObject({ reason: "owner_only" });

    // The owner promotes, and the last owner cannot be demoted or removed.
    await expect(changeMemberRole({ actorId: owner.user.id, developerId: owner.developerId, memberId: owner.user.id, role: "member" })).rejects.toMatchObject({
      reason: "last_owner",
    });
    await expect(removeMember({ actorId: owner.user.id, developerId: owner.developerId, memberId: owner.user.id })).rejects.toMatchObject({ reason: "last_owner" });
    await changeMemberRole({ actorId: owner.user.id, developerId: owner.developerId, memberId: mate.id, role: "owner" });
    await changeMemberRole({ actorId: mate.id, developerId: owner.developerId, memberId: owner.user.id, role: "member" });
    expect((await listMembers(owner.developerId)).map((m) => [m.email, m.role])).toEqual([
      ["mate@example.com", "owner"],
      ["owner@example.com", "member"],
    ]);
    await removeMember({ actorId: mate.id, developerId: owner.developerId, memberId: owner.user.id });
    expect(await membershipsOf(owner.user.id)).toEqual([]);
  });

  it("an invitation expires after 7 days, and a withdrawn one opens nothing", async () => {
    const owner = await signedUp("o2@example.com", "Expiring");
    const { inviteMember, inviteByToken, pendingInvites, withdrawInvite, acceptInvite } = await import("@/lib/developer-auth/invites");
    await inviteMember({ actorId: owner.user.id, developerId: owner.developerId, email: "late-mate@example.com", role: "member" });
    const token = new URL((await lastMailTo("late-mate@example.com")).body.match(/https?:\/\/\S+/)![0]).searchParams.get("token")!;
    advanceClockForTests(7 * 86_400_000 + 1000);
    expect(await inviteByToken(token)).toBeNull();
    const { dashboardUserFor } = await import("@/lib/developer-auth/codes");
    const late = await dashboardUserFor("late-mate@example.com");
    await expect(acceptInvite({ dashboardUserId: late.id, token })).rejects.toMatchObject({ reason: "invite_invalid" });
    resetClockForTests();
    await inviteMember({ actorId: owner.user.id, developerId: owner.developerId, email: "late-mate@example.com", role: "member" });
    const [invite] = await pendingInvites(owner.developerId);
    await withdrawInvite({ actorId: owner.user.id, developerId: owner.developerId, inviteId: invite!.id });
    const token2 = new URL((await lastMailTo("late-mate@example.com")).body.match(/https?:\/\/\S+/)![0]).searchParams.get("token")!;
    await expect(acceptInvite({ dashboardUserId: late.id, token: token2 })).rejects.toMatchObject({ reason: "invite_invalid" });
  });

  it("someone in several accounts chooses between them; a stale choice falls back to the first", async () => {
    const { chosenAccount } = await import("@/lib/developer-auth/accounts");
    const a = { developerId: "a", name: "A", role: "owner" as const, sandbox: false };
    const b = { developerId: "b", name: "B", role: "member" as const, sandbox: false };
    expect(chosenAccount([a, b], "b")).toBe(b);
    expect(chosenAccount([a, b], "gone")).toBe(a);
    expect(chosenAccount([], "b")).toBeNull();
  });
});

describe("the dashboard's next-auth", () => {
  it("has its own base path, cookie and key: the person's session cookie is not a dashboard session", async () => {
    const { dashboardHandlers, DASHBOARD_SESSION_COOKIE, dashboardSessionSecret, dashboardTicket, openDashboardTicket } = await import("@/lib/developer-auth/session");
    const session = (cookie?: string) => dashboardHandlers.GET(new NextRequest("http://localhost:3000/api/dashboard-auth/session", { headers: cookie ? { cookie } : {} }));
    expect(await (await session()).json()).toBeNull();
    const { dashboardUserFor } = await import("@/lib/developer-auth/codes");
    const dashUser = await dashboardUserFor("next-auth-own@example.com");
    const dash = await encode({ token: { sub: dashUser.id }, secret: dashboardSessionSecret(), salt: DASHBOARD_SESSION_COOKIE });
    expect((await (await session(`${DASHBOARD_SESSION_COOKIE}=${dash}`)).json()).user).toEqual({ id: dashUser.id });
    // A session naming no dashboard user is no session.
    const nobody = await encode({ token: { sub: "dash-1" }, secret: dashboardSessionSecret(), salt: DASHBOARD_SESSION_COOKIE });
    expect(await (await session(`${DASHBOARD_SESSION_COOKIE}=${nobody}`)).json()).toBeNull();
    // The person's session, under the dashboard's cookie name or its own, names nobody here.
    const person = await encode({ token: { sub: "user-1" }, secret: env().AUTH_SECRET, salt: "authjs.session-token" });
    expect(await (await session(`authjs.session-token=${person}`)).json()).toBeNull();
    expect(await (await session(`${DASHBOARD_SESSION_COOKIE}=${person}`)).json()).toBeNull();
    const providers = await (await dashboardHandlers.GET(new NextRequest("http://localhost:3000/api/dashboard-auth/providers"))).json();
    expect(Object.keys(providers)).toEqual(["dashboard-code"]);
    expect(providers["dashboard-code"].callbackUrl).toBe("http://localhost:3000/api/dashboard-auth/callback/dashboard-code");
    const ticket = dashboardTicket("dash-2");
    expect(openDashboardTicket(ticket)).toBe("dash-2");
    advanceClockForTests(61_000);
    expect(openDashboardTicket(ticket)).toBeNull();
  });
});
