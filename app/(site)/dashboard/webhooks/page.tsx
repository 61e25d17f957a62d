// /dashboard/webhooks — the account's webhook endpoints and delivery log in one plane (?plane=).
import type { Metadata } from "next";
import { WebhooksPage } from "@/components/dashboard/pages/webhooks";
import { dashboardPage } from "@/lib/dashboard/context";
import { WEBHOOK_SECRET_OVERLAP_HOURS, webhooksOf } from "@/lib/dashboard/webhooks";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Webhooks", robots: { index: false } };

export default async function DashboardWebhooksPage({ searchParams }: { searchParams: Promise<{ plane?: string | string[] }> }) {
  const ctx = await dashboardPage();
  const asked = (await searchParams).plane;
  const plane = asked === "test" ? "test" : "live";
  return <WebhooksPage ctx={ctx} data={await webhooksOf(ctx.account.developerId, plane)} overlapHours={WEBHOOK_SECRET_OVERLAP_HOURS} actions={actions} />;
}
