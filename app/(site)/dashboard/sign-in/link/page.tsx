// /dashboard/sign-in/link — the page the e-mailed link opens. It uses the code only when the person
// clicks: a mail scanner that opens links signs nobody in and spends no code.
import type { Metadata } from "next";
import { SignInLinkPage } from "@/components/dashboard/pages/sign-in-link";
import { emailSchema } from "@/lib/developer-auth/codes";
import * as actions from "../../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in", robots: { index: false }, referrer: "no-referrer" };

export default async function DashboardLinkPage({ searchParams }: { searchParams: Promise<{ email?: string; code?: string }> }) {
  const { email: raw, code } = await searchParams;
  const email = emailSchema.safeParse(raw);
  return <SignInLinkPage data={email.success && typeof code === "string" && /^\d{6}$/.test(code) ? { email: email.data, code } : null} actions={actions} />;
}
