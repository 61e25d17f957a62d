// /dashboard/sign-in-links — per agent: return destinations and message lines; the partner-session order.
import type { Metadata } from "next";
import { SignInLinksPage } from "@/components/dashboard/pages/sign-in-links";
import { dashboardPage } from "@/lib/dashboard/context";
import { signInLinksPageOf } from "@/lib/dashboard/sign-in-links";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign-in links", robots: { index: false } };

export default async function DashboardSignInLinksPage() {
  const ctx = await dashboardPage();
  return <SignInLinksPage ctx={ctx} data={await signInLinksPageOf(ctx.account.developerId)} actions={actions} />;
}
