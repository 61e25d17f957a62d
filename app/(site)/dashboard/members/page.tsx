// /dashboard/members — who belongs to the account and with which role. Owners invite by e-mail, change
// roles and remove members; members see the list.
import type { Metadata } from "next";
import { MembersPage } from "@/components/dashboard/pages/members";
import { dashboardPage } from "@/lib/dashboard/context";
import { listMembers } from "@/lib/developer-auth/accounts";
import { pendingInvites } from "@/lib/developer-auth/invites";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Members", robots: { index: false } };

export default async function DashboardMembersPage() {
  const ctx = await dashboardPage();
  const developer = ctx.account.developerId;
  const [members, invites] = await Promise.all([listMembers(developer), ctx.account.role === "owner" ? pendingInvites(developer) : Promise.resolve([])]);
  return <MembersPage ctx={ctx} data={{ members, invites }} actions={actions} />;
}
