// /dashboard/members — who belongs to the account and with which role. Owners invite by e-mail, change
// roles and remove members; members see the list, and the keys former members made that still work.
import type { Metadata } from "next";
import { MembersPage } from "@/components/dashboard/pages/members";
import { dashboardPage } from "@/lib/dashboard/context";
import { formerMembersKeys, keysOf } from "@/lib/dashboard/keys";
import { listMembers } from "@/lib/developer-auth/accounts";
import { pendingInvites } from "@/lib/developer-auth/invites";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Members", robots: { index: false } };

export default async function DashboardMembersPage() {
  const ctx = await dashboardPage();
  const developer = ctx.account.developerId;
  const [members, invites, keys] = await Promise.all([listMembers(developer), ctx.account.role === "owner" ? pendingInvites(developer) : Promise.resolve([]), keysOf(developer)]);
  return <MembersPage ctx={ctx} data={{ members, invites, formerKeys: formerMembersKeys(keys) }} actions={actions} />;
}
