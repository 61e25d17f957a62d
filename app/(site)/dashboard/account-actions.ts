"use server";
// The dashboard's sign-in, accounts and members. Every action that reads or changes an account acts for
// the signed-in dashboard user (auth "dashboard-member", never an id the form alone names) and passes the
// membership check in lib for the account the form names; a refusal comes back as the form's message.
// The account's settings (keys, agents, origins, SSO clients, sign-in links, imports): ./settings-actions.ts.
import { redirect } from "next/navigation";
import { defineAction } from "@/lib/actions/define-action";
import { isThirdPartyProvider } from "@/lib/person-auth/third-party";
import { dashboardAccountCookie } from "@/lib/dashboard/context";
import { formerMembersKeys, keysOf } from "@/lib/dashboard/keys";
import { changeMemberRole, createFirstAccount, removeMember, requireMember } from "@/lib/developer-auth/accounts";
import { sendDashboardCode, verifyDashboardCode } from "@/lib/developer-auth/codes";
import { DashboardError } from "@/lib/developer-auth/errors";
import { acceptInvite, inviteMember, withdrawInvite } from "@/lib/developer-auth/invites";
import { afterSignInPath, dashboardReturnPath } from "@/lib/dashboard/paths";
import { DASHBOARD_CODE_PROVIDER, dashboardSignIn, dashboardSignOut, dashboardTicket, signOutDashboardEverywhere } from "@/lib/developer-auth/session";
import { text, textArg } from "@/lib/http/action-input";
import { writeCookie } from "@/lib/http/cookies";

/** The browser's chosen account from now on (membership is checked again on every use). */
async function chooseAccount(developerId: string): Promise<never> {
  await writeCookie(dashboardAccountCookie, developerId);
  redirect("/dashboard");
}

// ── Sign-in ─────────────────────────────────────────────────────────────────────────────────────
export const sendCodeAction = defineAction({
  auth: "none",
  state: true,
  form: { email: text(), next: text() },
  field: "email",
  handler: async ({ form, ip }) => {
    const { email } = await sendDashboardCode({ email: form.email, ip });
    const next = afterSignInPath(form.next);
    redirect(`/dashboard/sign-in/code?${new URLSearchParams({ email, ...(next !== "/dashboard" ? { next } : {}) }).toString()}`);
  },
});

export const verifyCodeAction = defineAction({
  auth: "none",
  state: true,
  form: { email: text(), code: text(), next: text() },
  field: "code",
  handler: async ({ form }) => {
    const user = await verifyDashboardCode({ email: form.email, code: form.code });
    await dashboardSignIn(DASHBOARD_CODE_PROVIDER, { ticket: dashboardTicket(user.id), redirect: false });
    redirect(afterSignInPath(form.next));
  },
});

export const thirdPartySignInAction = defineAction({
  auth: "none",
  bound: [textArg("provider")],
  handler: async ({ bound: [provider] }) => {
    if (!isThirdPartyProvider(provider)) redirect("/dashboard/sign-in");
    await dashboardSignIn(provider, { redirectTo: "/dashboard" });
  },
});

/** Signing out needs no credential: it ends whatever dashboard session this browser holds. */
export const signOutAction = defineAction({
  auth: "none",
  handler: async () => {
    await dashboardSignOut({ redirectTo: "/dashboard/sign-in" });
  },
});

/** Ends every dashboard session of the signed-in user, on every browser, this one too. */
export const signOutEverywhereAction = defineAction({
  auth: "dashboard-member",
  handler: async ({ actor }) => {
    await signOutDashboardEverywhere(actor.id);
    await dashboardSignOut({ redirectTo: "/dashboard/sign-in" });
  },
});

// ── Accounts ────────────────────────────────────────────────────────────────────────────────────
export const createAccountAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { name: text() },
  handler: async ({ actor, form }) => chooseAccount((await createFirstAccount({ dashboardUserId: actor.id, name: form.name })).developerId),
});

export const switchAccountAction = defineAction({
  auth: "dashboard-member",
  form: { developer: text(), back: text() },
  handler: async ({ actor, form }) => {
    try {
      const { developerId } = await requireMember({ dashboardUserId: actor.id, developerId: form.developer });
      await writeCookie(dashboardAccountCookie, developerId);
    } catch (err) {
      // Not a member (any more): the page stays on the account it was on.
      if (!(err instanceof DashboardError)) throw err;
    }
    redirect(dashboardReturnPath(form.back));
  },
});

export const acceptInviteAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { token: text() },
  handler: async ({ actor, form }) => chooseAccount((await acceptInvite({ dashboardUserId: actor.id, token: form.token })).developerId),
});

// ── Members ─────────────────────────────────────────────────────────────────────────────────────
export const inviteAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), email: text(), role: text() },
  handler: async ({ actor, form }) => {
    const { email } = await inviteMember({ actorId: actor.id, developerId: form.developer, email: form.email, role: form.role });
    return { ok: `Invitation sent to ${email}.` };
  },
});

export const changeRoleAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), member: text(), role: text() },
  handler: async ({ actor, form }) => {
    await changeMemberRole({ actorId: actor.id, developerId: form.developer, memberId: form.member, role: form.role });
    return { ok: "Role changed." };
  },
});

export const removeMemberAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), member: text() },
  handler: async ({ actor, form }) => {
    await removeMember({ actorId: actor.id, developerId: form.developer, memberId: form.member });
    // The keys they made keep working until someone revokes them: the page offers it.
    const theirs = formerMembersKeys(await keysOf(form.developer)).find((f) => f.dashboardUserId === form.member);
    if (!theirs) return { ok: "Member removed." };
    const n = theirs.prefixes.length;
    return {
      ok: `Member removed. ${n === 1 ? "A key they made still works" : `${n} keys they made still work`}: revoke ${n === 1 ? "it" : "them"} under “Keys made by former members”.`,
    };
  },
});

export const withdrawInviteAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), invite: text() },
  handler: async ({ actor, form }) => {
    await withdrawInvite({ actorId: actor.id, developerId: form.developer, inviteId: form.invite });
    return { ok: "Invitation withdrawn." };
  },
});
