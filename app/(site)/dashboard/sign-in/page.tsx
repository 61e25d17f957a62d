// /dashboard/sign-in — developers sign in to the dashboard with a code e-mailed to their address (the
// e-mail also carries a one-click link), or with Google or GitHub when the service has them. A new
// address makes its account on its first sign-in.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInPage } from "@/components/dashboard/pages/sign-in";
import { configuredThirdParty } from "@/lib/person-auth/third-party";
import { afterSignInPath } from "@/lib/dashboard/paths";
import { currentDashboardUser } from "@/lib/developer-auth/session";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in to the developer dashboard", robots: { index: false } };

export default async function DashboardSignInPage({ searchParams }: { searchParams: Promise<{ error?: string; next?: string; email?: string }> }) {
  const { error, next, email } = await searchParams;
  const after = afterSignInPath(typeof next === "string" ? next : "");
  if (await currentDashboardUser()) redirect(after);
  return (
    <SignInPage
      data={{ providers: configuredThirdParty(), error: typeof error === "string" ? error : undefined, after, email: typeof email === "string" ? email : undefined }}
      actions={actions}
    />
  );
}
