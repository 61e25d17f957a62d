// Who belongs to the account and with which role. Owners invite by e-mail, change roles, remove
// members and withdraw invitations; members see the list. The keys a former member made and that
// still work are offered for revoking; and the signed-in user can sign out of every browser.
import type { DashboardContext } from "@/lib/dashboard/context";
import type { listMembers } from "@/lib/developer-auth/accounts";
import { INVITE_TTL_DAYS, type pendingInvites } from "@/lib/developer-auth/invites";
import { ActionForm } from "../action-form";
import { FormerMemberKeysSection, type FormerMemberKeys } from "../former-member-keys";
import { DashboardShell, Section } from "../shell";
import { buttonStyles, inputStyle, labelStyle } from "../styles";
import type { DashboardActions } from "./actions";
import { SelectField } from "../fields";

export interface MembersData {
  members: Awaited<ReturnType<typeof listMembers>>;
  /** Pending invitations: loaded for owners only (a member sees none). */
  invites: Awaited<ReturnType<typeof pendingInvites>>;
  /** Keys still working that people no longer members made. */
  formerKeys: FormerMemberKeys[];
}

export function MembersPage({ ctx, data: { members, invites, formerKeys }, actions }: { ctx: DashboardContext; data: MembersData; actions: DashboardActions }) {
  const { changeRoleAction, inviteAction, removeMemberAction, revokeFormerMemberKeysAction, signOutAction, signOutEverywhereAction, switchAccountAction, withdrawInviteAction } =
    actions;
  const developer = ctx.account.developerId;
  const owner = ctx.account.role === "owner";
  return (
    <DashboardShell
      ctx={ctx}
      current="members"
      title="Members"
      intro={<p>Everyone here can manage keys, agents and origins. Owners also invite people, change roles and remove members.</p>}
      switchAction={switchAccountAction}
      signOutAction={signOutAction}
    >
      {owner && (
        <Section id="invite" title="Invite someone" description={`They get an email with a link, valid ${INVITE_TTL_DAYS} days, and accept by signing in with that address.`}>
          <ActionForm action={inviteAction} hidden={{ developer }} submit="Send invitation" pendingLabel="Sending…">
            <div className="grid gap-4 sm:grid-cols-3">
              <div className="sm:col-span-2">
                <label htmlFor="invite-email" className={labelStyle}>
                  Email
                </label>
                <input id="invite-email" name="email" type="email" required autoComplete="off" className={inputStyle} placeholder="teammate@company.com" />
              </div>
              <SelectField
                id="invite-role"
                name="role"
                label="Role"
                options={[
                  ["member", "Member"],
                  ["owner", "Owner"],
                ]}
              />
            </div>
          </ActionForm>
        </Section>
      )}
      <Section id="members" title="Members">
        <ul className="divide-y divide-slate-200">
          {members.map((m) => (
            <li key={m.dashboardUserId} className="flex flex-wrap items-center gap-3 py-3" data-testid="member-row">
              <div className="min-w-48 flex-1">
                <p className="text-sm font-semibold break-all text-slate-900">
                  {m.email}
                  {m.dashboardUserId === ctx.user.id && <span className="ml-1 font-normal text-slate-500">(you)</span>}
                </p>
                <p className="text-sm text-slate-600">{m.role === "owner" ? "Owner" : "Member"}</p>
              </div>
              {owner && (
                <div className="flex flex-wrap items-start gap-2">
                  <ActionForm
                    action={changeRoleAction}
                    hidden={{ developer, member: m.dashboardUserId, role: m.role === "owner" ? "member" : "owner" }}
                    submit={
                      <>
                        {m.role === "owner" ? "Make member" : "Make owner"}
                        <span className="sr-only"> {m.email}</span>
                      </>
                    }
                    pendingLabel="Changing…"
                    tone="secondary"
                    layout="inline"
                  />
                  <ActionForm
                    action={removeMemberAction}
                    hidden={{ developer, member: m.dashboardUserId }}
                    submit={
                      <>
                        Remove<span className="sr-only"> {m.email}</span>
                      </>
                    }
                    pendingLabel="Removing…"
                    tone="danger"
                    layout="inline"
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      </Section>
      <FormerMemberKeysSection developer={developer} former={formerKeys} action={revokeFormerMemberKeysAction} />
      {owner && invites.length > 0 && (
        <Section id="invites" title="Pending invitations">
          <ul className="divide-y divide-slate-200">
            {invites.map((i) => (
              <li key={i.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <span className="text-sm text-slate-900">
                  <span className="font-semibold break-all">{i.email}</span> · {i.role} · expires {i.expiresAt.toISOString().slice(0, 10)}
                </span>
                <ActionForm
                  action={withdrawInviteAction}
                  hidden={{ developer, invite: i.id }}
                  submit={
                    <>
                      Withdraw<span className="sr-only"> invitation to {i.email}</span>
                    </>
                  }
                  pendingLabel="Withdrawing…"
                  tone="danger"
                  layout="inline"
                />
              </li>
            ))}
          </ul>
        </Section>
      )}
      <Section
        id="your-sessions"
        title="Your sessions"
        description={
          <>
            Signed in to the dashboard on a computer you no longer use? This signs <span className="font-semibold break-all">{ctx.user.email}</span> out of the dashboard on every
            browser, this one too.
          </>
        }
      >
        <form action={signOutEverywhereAction}>
          <button type="submit" className={buttonStyles.danger}>
            Sign out everywhere
          </button>
        </form>
      </Section>
    </DashboardShell>
  );
}
