// /dashboard/agents — the account's agents: handle (sent in X-Agent), display name, logo, brand colour,
// active or not, and each one's sign-in link; create one, change one.
import type { Metadata } from "next";
import { AgentsPage } from "@/components/dashboard/pages/agents";
import { agentsOf } from "@/lib/dashboard/agents";
import { dashboardPage } from "@/lib/dashboard/context";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Agents", robots: { index: false } };

export default async function DashboardAgentsPage() {
  const ctx = await dashboardPage();
  return <AgentsPage ctx={ctx} data={await agentsOf(ctx.account.developerId)} actions={actions} />;
}
