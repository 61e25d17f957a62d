// /dashboard/origins — the origins approved for the account's sign-in callbacks and return addresses.
import type { Metadata } from "next";
import { OriginsPage } from "@/components/dashboard/pages/origins";
import { dashboardPage } from "@/lib/dashboard/context";
import { originsOf } from "@/lib/dashboard/origins";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Approved origins", robots: { index: false } };

export default async function DashboardOriginsPage() {
  const ctx = await dashboardPage();
  return <OriginsPage ctx={ctx} data={await originsOf(ctx.account.developerId)} actions={actions} />;
}
