// An invitation to a developer account, accepted by someone signed in with the invited address; to
// anyone else, the way to sign in with it, and a token that is not valid (or no longer) says so.
import Link from "next/link";
import type { inviteByToken } from "@/lib/developer-auth/invites";
import { ActionForm } from "../action-form";
import { DashboardAuthShell } from "../shell";
import { buttonStyles } from "../styles";
import type { DashboardActions } from "./actions";

export interface InviteData {
  /** The invitation the token names; null when it expired, was withdrawn or used, or never was. */
  invite: Awaited<ReturnType<typeof inviteByToken>>;
  token: string;
  /** The dashboard user signed in in this browser, if any. */
  user: { email: string } | null;
}

export function InvitePage({ data: { invite, token, user }, actions }: { data: InviteData; actions: DashboardActions }) {
  const { acceptInviteAction, signOutAction } = actions;
  if (!invite) {
    return (
      <DashboardAuthShell title="Invitation not valid">
        <p className="mt-3 text-slate-600">This invitation expired, was withdrawn or was already used. Ask an owner of the account to invite you again.</p>
      </DashboardAuthShell>
    );
  }
  const here = `/dashboard/invite?token=${token}`;
  return (
    <DashboardAuthShell title={`Join ${invite.accountName}`}>
      <p className="mt-3 text-slate-600">
        You are invited to the developer account <span className="font-semibold text-slate-900">{invite.accountName}</span> as {invite.role === "owner" ? "an owner" : "a member"},
        at <span className="font-semibold break-all text-slate-900">{invite.email}</span>.
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
