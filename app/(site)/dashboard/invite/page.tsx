// /dashboard/invite?token=… — an invitation to a developer account, accepted by someone signed in with
// the invited address.
import type { Metadata } from "next";
import { InvitePage } from "@/components/dashboard/pages/invite";
import { inviteByToken } from "@/lib/developer-auth/invites";
import { currentDashboardUser } from "@/lib/developer-auth/session";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Invitation", robots: { index: false }, referrer: "no-referrer" };

export default async function DashboardInvitePage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  const invite = typeof token === "string" ? await inviteByToken(token) : null;
  const user = invite ? await currentDashboardUser() : null;
  return <InvitePage data={{ invite, token: token ?? "", user }} actions={actions} />;
}
