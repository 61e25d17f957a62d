// /dashboard/invite?token=… — an invitation to a developer account, accepted by someone signed in with
// the invited address.
import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/dashboard/action-form";
import { DashboardAuthShell } from "@/components/dashboard/shell";
import { buttonStyles } from "@/components/dashboard/styles";
import { inviteByToken } from "@/lib/developer-auth/invites";
import { currentDashboardUser } from "@/lib/developer-auth/session";
import { acceptInviteAction, signOutAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Invitation", robots: { index: false }, referrer: "no-referrer" };

export default async function InvitePage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  const invite = await inviteByToken(token);
  if (!invite || typeof token !== "string") {
    return (
      <DashboardAuthShell title="Invitation not valid">
        <p className="mt-3 text-slate-600">This invitation expired, was withdrawn or was already used. Ask an owner of the account to invite you again.</p>
      </DashboardAuthShell>
    );
  }
  const user = await currentDashboardUser();
  const here = `/dashboard/invite?token=${token}`;
  return (
    <DashboardAuthShell title={`Join ${invite.accountName}`}>
      <p className="mt-3 text-slate-600">
        You are invited to the developer account <span className="font-semibold text-slate-900">{invite.accountName}</span> as {invite.role === "owner" ? "an owner" : "a member"}, at{" "}
        <span className="font-semibold break-all text-slate-900">{invite.email}</span>.
      </p>
      {!user ? (
        <Link href={`/dashboard/sign-in?${new URLSearchParams({ next: here, email: invite.email }).toString()}`} className={`${buttonStyles.primary} mt-6 w-full`}>
          Sign in to accept
        </Link>
      ) : user.email !== invite.email ? (
        <>
          <p role="alert" className="mt-4 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
            You are signed in as {user.email}. Sign out, then sign in with {invite.email} to accept.
          </p>
          <form action={signOutAction} className="mt-4">
            <button type="submit" className={`${buttonStyles.secondary} w-full`}>
              Sign out
            </button>
          </form>
        </>
      ) : (
        <ActionForm action={acceptInviteAction} hidden={{ token }} submit="Accept invitation" pendingLabel="Joining…" wide className="mt-6" />
      )}
    </DashboardAuthShell>
  );
}
