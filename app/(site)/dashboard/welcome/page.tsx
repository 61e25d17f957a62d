// /dashboard/welcome — a new address names its developer account, once.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { WelcomePage } from "@/components/dashboard/pages/welcome";
import { membershipsOf } from "@/lib/developer-auth/accounts";
import { currentDashboardUser } from "@/lib/developer-auth/session";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Name your developer account", robots: { index: false } };

export default async function DashboardWelcomePage() {
  const user = await currentDashboardUser();
  if (!user) redirect("/dashboard/sign-in");
  if ((await membershipsOf(user.id)).length > 0) redirect("/dashboard");
  return <WelcomePage data={{ email: user.email }} actions={actions} />;
}
