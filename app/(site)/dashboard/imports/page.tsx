// /dashboard/imports — bulk import: the account's tier, its quota in use, and its recent jobs in one
// plane with their progress, updated live while a job runs (?plane=).
import type { Metadata } from "next";
import { ImportsPage } from "@/components/dashboard/pages/imports";
import { dashboardPage } from "@/lib/dashboard/context";
import { importsOf } from "@/lib/dashboard/imports";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Bulk import", robots: { index: false } };

export default async function DashboardImportsPage({ searchParams }: { searchParams: Promise<{ plane?: string | string[] }> }) {
  const ctx = await dashboardPage();
  const asked = (await searchParams).plane;
  const plane = asked === "live" || asked === "test" ? asked : undefined;
  return <ImportsPage ctx={ctx} data={await importsOf(ctx.account.developerId, plane)} actions={actions} />;
}
