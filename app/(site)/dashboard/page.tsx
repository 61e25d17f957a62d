// /dashboard — the overview of the account shown: its keys, agents, origins and members, counted,
// and the next steps of a new integration.
import type { Metadata } from "next";
import { OverviewPage } from "@/components/dashboard/pages/overview";
import { dashboardPage } from "@/lib/dashboard/context";
import { accountOverview } from "@/lib/dashboard/overview";
import * as actions from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Developer dashboard", robots: { index: false } };

export default async function DashboardOverviewPage() {
  const ctx = await dashboardPage();
  return <OverviewPage ctx={ctx} data={await accountOverview(ctx.account.developerId)} actions={actions} />;
}
