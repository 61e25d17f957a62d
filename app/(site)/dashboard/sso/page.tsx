// /dashboard/sso — the account's OpenID Connect clients (SSO clients) of both planes: make a public
// or confidential one (its secret shown once), add and remove callbacks. Clients made here register
// no scopes: they send scope=openid email profile themselves.
import type { Metadata } from "next";
import { SsoClientsPage } from "@/components/dashboard/pages/sso";
import { dashboardPage } from "@/lib/dashboard/context";
import { ssoClientsOf } from "@/lib/dashboard/sso-clients";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "SSO clients", robots: { index: false } };

export default async function DashboardSsoPage() {
  const ctx = await dashboardPage();
  return <SsoClientsPage ctx={ctx} data={await ssoClientsOf(ctx.account.developerId)} actions={actions} />;
}
