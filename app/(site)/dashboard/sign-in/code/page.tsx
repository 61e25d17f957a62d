// /dashboard/sign-in/code — the six-digit code e-mailed to the address, and a way to get a new one.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInCodePage } from "@/components/dashboard/pages/sign-in-code";
import { afterSignInPath } from "@/lib/dashboard/paths";
import { emailSchema } from "@/lib/developer-auth/codes";
import { emailOutboxPath } from "@/lib/email";
import * as actions from "../../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Enter your code", robots: { index: false } };

export default async function DashboardCodePage({ searchParams }: { searchParams: Promise<{ email?: string; next?: string }> }) {
  const { email: raw, next } = await searchParams;
  const email = emailSchema.safeParse(raw);
  if (!email.success) redirect("/dashboard/sign-in");
  return <SignInCodePage data={{ email: email.data, after: afterSignInPath(typeof next === "string" ? next : ""), outbox: emailOutboxPath() }} actions={actions} />;
}
