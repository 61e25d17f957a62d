// /dashboard/usage — the account's usage in one plane: requests and error rate per day as a chart,
// and per route with error rates and latency (?plane=&days=).
import type { Metadata } from "next";
import { UsagePage } from "@/components/dashboard/pages/usage";
import { dashboardPage } from "@/lib/dashboard/context";
import { usageOf } from "@/lib/dashboard/requests";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Usage", robots: { index: false } };

export default async function DashboardUsagePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await dashboardPage();
  return <UsagePage ctx={ctx} data={await usageOf(ctx.account.developerId, await searchParams)} actions={actions} />;
}
