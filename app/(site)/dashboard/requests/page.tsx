// /dashboard/requests — the account's request log: a request found by its id, and recent requests
// of one plane with filters (?plane=&id=&route=&status=&agent=&before=).
import type { Metadata } from "next";
import { RequestsPage } from "@/components/dashboard/pages/requests";
import { dashboardPage } from "@/lib/dashboard/context";
import { requestLogOf, requestLogRetentionDays } from "@/lib/dashboard/requests";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Request log", robots: { index: false } };

export default async function RequestLogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await dashboardPage();
  const data = await requestLogOf(ctx.account.developerId, await searchParams);
  return <RequestsPage ctx={ctx} data={data} retentionDays={requestLogRetentionDays()} actions={actions} />;
}
