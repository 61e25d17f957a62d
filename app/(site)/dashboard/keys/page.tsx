// /dashboard/keys — the account's API keys on both planes: create (the secret shown once), rotate (the
// new key shown once; the old one works for the overlap, then stops) and revoke (at once).
import type { Metadata } from "next";
import { KeysPage } from "@/components/dashboard/pages/keys";
import { dashboardPage } from "@/lib/dashboard/context";
import { keysOf } from "@/lib/dashboard/keys";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API keys", robots: { index: false } };

export default async function DashboardKeysPage() {
  const ctx = await dashboardPage();
  return <KeysPage ctx={ctx} data={await keysOf(ctx.account.developerId)} actions={actions} />;
}
